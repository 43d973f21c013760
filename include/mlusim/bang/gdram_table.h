// The kernel's view of GDRAM: a sorted snapshot of the live allocations, taken
// at launch, against which every GDRAM operand is checked without a lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlusim {

struct GdramRange {
  uintptr_t begin;
  uintptr_t end;
  uint64_t id;  // allocation serial number, for messages
};

using GdramSnapshot = std::vector<GdramRange>;

// The allocation holding [p, p+bytes), or nullptr.
const GdramRange *gdram_find(const GdramSnapshot &snapshot, const void *p, size_t bytes);
// "GDRAM allocation #3 +0x40 (of 4096 bytes)" or "not device memory".
std::string gdram_describe(const GdramSnapshot &snapshot, const void *p);

}  // namespace mlusim
