// What a step costs at the model's prices, whatever else runs: the cycles a
// vector or tensor instruction or an on-chip copy takes on its unit, and the
// bytes of bandwidth a GDRAM request draws (guide 5.3.3). When they take
// place is the rest of the model's concern.
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <cmath>
#include <cstdint>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay.h"

namespace mlusim::timing {
namespace {

// A vector instruction's bytes in whole cycles of the vector unit.
inline double vector_cycles(const Prices &prices, const Step &s) {
  return std::ceil(static_cast<double>(s.amount) / prices.vector_bytes_per_cycle);
}

// A tensor instruction's multiply-adds in whole cycles, at its operand class's rate.
inline double tensor_cycles(const Prices &prices, const Step &s) {
  return std::ceil(static_cast<double>(s.amount) / prices.matrix_macs_per_cycle[s.rate]);
}

// One side of a copy lies in one run when its segments follow each other
// (stride == size, or one segment); otherwise each segment is a run of its own.
bool one_run(uintptr_t lo, uintptr_t hi, const Step &s) {
  return s.count <= 1 || hi - lo == s.amount * s.count;
}

// An on-chip copy moves each run in whole cycles of the copy width: a strided
// copy pays per segment, as the vector unit pays per instruction.
inline double onchip_cycles(const Prices &prices, const Step &s) {
  const double width = prices.onchip_bytes_per_cycle;
  const Access &a = s.access;
  const bool one = one_run(a.w_lo, a.w_hi, s) && one_run(a.r0_lo, a.r0_hi, s);
  if (one) return std::ceil(static_cast<double>(s.amount) * s.count / width);
  return s.count * std::ceil(static_cast<double>(s.amount) / width);
}

// What a GDRAM request costs in bytes of bandwidth (guide 5.3.3): its 64-B
// blocks; a strided side pays gdram_segment_bytes per segment beyond the
// first; a written byte costs 1 + gdram_write_extra read bytes; a partly
// written block is read first.
inline double gdram_bytes(const Prices &prices, const Step &s) {
  const Access &a = s.access;
  const double segments = s.count > 1 ? s.count - 1.0 : 0.0;
  const double seg = prices.gdram_segment_bytes;
  double read = 64.0 * s.blocks.read, written = 64.0 * s.blocks.written;
  if (s.blocks.read > 0 && !one_run(a.r0_lo, a.r0_hi, s)) read += segments * seg;
  if (s.blocks.written > 0 && !one_run(a.w_lo, a.w_hi, s)) written += segments * seg;
  return read + written * (1 + prices.gdram_write_extra) + 64.0 * s.blocks.partial;
}

}  // namespace
}  // namespace mlusim::timing
