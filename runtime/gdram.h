// Simulated GDRAM: host memory whose every allocation the runtime knows, so a
// pointer can be told apart from host memory and checked against its bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cnrt.h"
#include "mlusim/bang/gdram_table.h"

namespace mlusim {

cnrtRet_t gdram_alloc(void **ptr, size_t bytes);
cnrtRet_t gdram_free(void *ptr);
GdramSnapshot gdram_snapshot();

// True when [p, p+bytes) lies inside one live allocation.
bool gdram_contains(const void *p, size_t bytes);

}  // namespace mlusim
