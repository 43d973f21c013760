// Operands of the intrinsics whose sizes follow from a shape rather than from
// an element count (pooling, reductions, matmul, conv): each lies inside the
// declared part of its on-chip space and starts on the alignment boundary;
// unlike element-wise operands their sizes need not be whole vector granules
// (mlu-ops sum-pools a channel of one element).
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <string>

#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

[[noreturn]] inline void fault_shaped_alignment(const CoreContext &c, const char *op,
                                                const char *operand, Space space, size_t offset) {
  fault(c, std::string(op) + ": " + operand + " at " + space_name(space) + " +" +
               std::to_string(offset) + " does not start on a " +
               std::to_string(c.rules.nram_align_mask + 1) + "-byte boundary");
}

// Checks one operand; `read` operands are also checked against pending async copies.
inline void require_shaped(CoreContext &c, const char *op, const char *operand, Space space,
                           const void *p, size_t bytes, bool read) {
  require_onchip(c, op, operand, space, p, bytes);
  const std::byte *base = space == Space::kNram ? c.nram : space == Space::kWram ? c.wram : c.sram;
  const uintptr_t offset = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base);
  if ((offset & c.rules.nram_align_mask) != 0)
    fault_shaped_alignment(c, op, operand, space, offset);
  if (read)
    check_read(c, op, p, bytes);
  else
    check_write(c, op, p, bytes);
}

// A shape argument (channels, height, kernel size, stride, ...) must be positive.
inline size_t positive(const char *op, const char *what, int value) {
  if (value <= 0)
    fault(this_core(), std::string(op) + ": " + what + " must be positive, got " +
                           std::to_string(value));
  return static_cast<size_t>(value);
}

// Output extent of a window of `kernel` sliding by `stride` over `input`, no padding.
inline size_t window_count(const char *op, const char *axis, size_t input, size_t kernel,
                           size_t stride) {
  if (kernel > input)
    fault(this_core(), std::string(op) + ": kernel " + axis + " " + std::to_string(kernel) +
                           " is larger than the input's " + std::to_string(input));
  return (input - kernel) / stride + 1;
}

}  // namespace mlusim::detail
