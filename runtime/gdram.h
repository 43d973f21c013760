// Simulated GDRAM: host memory whose every allocation the runtime knows, so a
// pointer can be told apart from host memory and checked against its bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cnrt.h"

namespace mlusim {

struct GdramRange {
  uintptr_t begin;
  uintptr_t end;
  uint64_t id;  // allocation serial number, for messages
};

// Sorted snapshot of the live allocations; what a launch checks against.
using GdramSnapshot = std::vector<GdramRange>;

cnrtRet_t gdram_alloc(void **ptr, size_t bytes);
cnrtRet_t gdram_free(void *ptr);
GdramSnapshot gdram_snapshot();

// The allocation holding [p, p+bytes), or nullptr.
const GdramRange *gdram_find(const GdramSnapshot &snapshot, const void *p, size_t bytes);
// True when [p, p+bytes) lies inside one live allocation.
bool gdram_contains(const void *p, size_t bytes);
// "GDRAM allocation #3 +0x40 (of 4096 bytes)" or "not device memory".
std::string gdram_describe(const GdramSnapshot &snapshot, const void *p);

}  // namespace mlusim
