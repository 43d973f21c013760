// Memset intrinsics: __nramset* and __memset_nram fill NRAM, __sramset the
// cluster's SRAM, __gdramset GDRAM, with the value's dtype deciding the
// element size (pass (half)x to fill a half buffer). They run on the memory
// engines, not the vector unit: NRAM and SRAM fills on the on-chip move lane,
// __gdramset on the IO lane. __bang_write_value and
// __bang_write_zero, the vector unit's fills, are in vector.h.
#pragma once

#include <cstring>
#include <string>

#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/memory.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

// segnum + 1 runs of `count` elements, `stride_bytes` apart (BANG's segment rule).
template <typename T>
void set_elements(const char *op, Space space, T *dst, int count, T value, int stride_bytes,
                  int segnum, bool async) {
  CoreContext &c = this_core();
  if (count < 0 || segnum < 0 || stride_bytes < 0)
    fault(c, std::string(op) + ": negative count " + std::to_string(count) + ", stride " +
                 std::to_string(stride_bytes) + " or segnum " + std::to_string(segnum));
  const size_t run = static_cast<size_t>(count) * sizeof(T), runs = static_cast<size_t>(segnum) + 1;
  const size_t stride = runs == 1 ? run : static_cast<size_t>(stride_bytes);
  const size_t extent = (runs - 1) * stride + run;
  require_space(c, op, "dst", space, dst, extent);
  const Pipe pipe = space == Space::kGdram ? kIoPipe : kMovePipe;
  const Segments range{reinterpret_cast<uintptr_t>(dst), run, stride, runs};
  const bool ordered = check_fill(c, op, range, pipe);
  // What other cores may touch, for the race check: GDRAM, and in UNION
  // launches the cluster's SRAM; the value over and over (every run's
  // elements in step when the stride is a multiple of the element).
  if (space == Space::kGdram || (space == Space::kSram && c.launch->is_union)) {
    const WrittenBytes written = stride % sizeof(T) == 0
                                     ? WrittenBytes::repeated(range.lo, &value, sizeof(T))
                                     : WrittenBytes{};
    log_shared(c, space, range, true, false, op, written);
  }

  auto *bytes = reinterpret_cast<std::byte *>(dst);
  if (((reinterpret_cast<uintptr_t>(dst) | stride) & (alignof(T) - 1)) == 0) [[likely]] {
    for (size_t r = 0; r < runs; ++r) {
      T *row = reinterpret_cast<T *>(bytes + r * stride);
      for (int i = 0; i < count; ++i) row[i] = value;
    }
  } else {  // runs off the element's alignment (MLU300 takes any start): by bytes
    for (size_t r = 0; r < runs; ++r)
      for (size_t i = 0; i < static_cast<size_t>(count); ++i)
        std::memcpy(bytes + r * stride + i * sizeof(T), &value, sizeof(T));
  }

  Step step{.op = op, .detail = dtype_name<T>(),
            .access = access_of(dst, extent, nullptr, 0, nullptr, 0), .amount = run,
            .count = static_cast<uint32_t>(runs), .kind = StepKind::kOnchipCopy,
            .pipe = pipe, .async = async, .ordered = ordered};
  if (space == Space::kGdram) {
    const BlockSpan written = blocks_of(range);
    step.kind = StepKind::kGdramCopy;
    step.blocks = gdram_blocks(c, BlockSpan{}, written);
  }
  // An async fill's time overlaps what follows; its data is written at issue
  // (docs/bang_c_intrinsics.md: it is not tracked as an unfenced copy).
  issue(c, step);
}

}  // namespace mlusim::detail

template <typename T>
void __nramset(T *dst, int count, bang_scalar_t<T> value) {
  mlusim::detail::set_elements<T>("__nramset",
                                  mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
// The typed spellings: __nramset on one element type, under their own names.
inline void __nramset_half(half *dst, int count, half value) {
  mlusim::detail::set_elements<half>("__nramset_half",
                                     mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
inline void __nramset_float(float *dst, int count, float value) {
  mlusim::detail::set_elements<float>("__nramset_float",
                                      mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
inline void __nramset_short(int16_t *dst, int count, int16_t value) {
  mlusim::detail::set_elements<int16_t>("__nramset_short",
                                        mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
inline void __nramset_int(int32_t *dst, int count, int32_t value) {
  mlusim::detail::set_elements<int32_t>("__nramset_int",
                                        mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
// The MLU300 spellings: NRAM and the cluster's SRAM, on the move lane.
template <typename T>
void __memset_nram(T *dst, int count, bang_scalar_t<T> value) {
  mlusim::detail::set_elements<T>("__memset_nram",
                                  mlusim::Space::kNram, dst, count, value, 0, 0, false);
}
template <typename T>
void __sramset(T *dst, int count, bang_scalar_t<T> value) {
  mlusim::detail::set_elements<T>("__sramset",
                                  mlusim::Space::kSram, dst, count, value, 0, 0, false);
}
// Queued on the move lane; a __sync (or __sync_move) fences it like an async copy.
template <typename T>
void __nramset_async(T *dst, int count, bang_scalar_t<T> value, int stride_bytes,
                     int segnum) {
  mlusim::detail::set_elements<T>("__nramset_async", mlusim::Space::kNram, dst, count, value,
                          stride_bytes, segnum, true);
}
template <typename T>
void __gdramset(T *dst, int count, bang_scalar_t<T> value) {
  mlusim::detail::set_elements<T>("__gdramset",
                                  mlusim::Space::kGdram, dst, count, value, 0, 0, false);
}
