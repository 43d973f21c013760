// The kernel's view of GDRAM: a sorted snapshot of the live allocations, taken
// at launch, against which every GDRAM operand is checked without a lock.
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

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
