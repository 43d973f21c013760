// Host memory the SDK hands out (cnrtHostMalloc, cnMallocHost): page-locked on
// a board, plain host memory here, but every block is known, so that freeing a
// foreign pointer is an error instead of a crash and pointer queries can tell
// it apart from other host memory.
#pragma once

#include <cstddef>

#include "cnrt.h"

namespace mlusim::sdk {

cnrtRet_t host_alloc(void **ptr, size_t bytes, const char *api);
cnrtRet_t host_free(void *ptr, const char *api);
// The block holding p, if any: its start and size.
bool host_find(const void *p, void **start, size_t *bytes);

}  // namespace mlusim::sdk
