// Reductions over NRAM vectors, in float and half, accumulating in float.
//  __bang_reduce_sum(dst, src, n): per 128-byte block of src, the block's sum
//    lands in the block's first element of dst (32 floats or 64 halves per
//    block; mlu-ops reads dst[0], dst[32], ...); mlusim zeroes the rest.
//  __bang_sum(src, n): the sum, returned.
//  __bang_count(src, n): how many elements are non-zero, returned.
//  __bang_max/__bang_min(dst, src, n): dst[0] = the extreme value, and
//    element 1 of dst holds, as an unsigned integer of the dtype's width, the
//    index of its first occurrence (mlu-ops reads ((uint16_t *)dst)[1] for half,
//    ((uint32_t *)dst)[1] for float).
//  __bang_argmax/__bang_argmin(dst, src, n): dst[0] = the extreme value, and
//    the index of its first occurrence as a uint32_t right after it (byte
//    sizeof(T) of dst): mlu-ops reads *(uint32_t *)((T *)dst + 1) for both
//    dtypes, and ((uint16_t *)dst)[1] for half, which this layout satisfies.
//    A NaN never compares better, so it is chosen only at index 0.
#pragma once

#include <algorithm>
#include <cstring>

#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {
// __bang_reduce_sum sums each 128-byte block of its source: the vector width.
inline constexpr size_t kReduceBlockBytes = 128;
}  // namespace mlusim::detail

template <typename T>
void __bang_reduce_sum(T *dst, const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_reduce_sum: mlusim has it for float and half only");
  const char *op = "__bang_reduce_sum";
  const size_t n = mlusim::detail::checked_count(op, count), bytes = n * sizeof(T);
  mlusim::detail::vector_op<T>(op, dst, bytes, src, bytes, nullptr, 0, n);
  const size_t block = mlusim::detail::kReduceBlockBytes / sizeof(T);
  mlusim::detail::on_aligned(
      [n, block](T *d, const T *s) {
        for (size_t b = 0; b < n; b += block) {
          const size_t end = std::min(b + block, n);  // a last, partial block where sizes are free
          float sum = 0;  // read the whole block before dst (which may be src) is written
          for (size_t i = b; i < end; ++i) sum += static_cast<float>(s[i]);
          d[b] = static_cast<T>(sum);
          for (size_t i = b + 1; i < end; ++i) d[i] = T(0);
        }
      },
      mlusim::detail::Operand{dst, bytes}, mlusim::detail::Operand{src, bytes});
}

template <typename T>
T __bang_sum(const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_sum: mlusim has it for float and half only");
  const char *op = "__bang_sum";
  const size_t n = mlusim::detail::checked_count(op, count);
  mlusim::CoreContext &c = mlusim::this_core();
  mlusim::detail::require_shaped(c, op, "src", mlusim::Space::kNram, src, n * sizeof(T), true);
  mlusim::detail::charge_vector<T>(c, op, nullptr, src, n * sizeof(T), n);
  mlusim::await_result(c, mlusim::kVectorPipe, op);
  return mlusim::detail::on_aligned(
      [n](const T *s) {
        float sum = 0;
        for (size_t i = 0; i < n; ++i) sum += static_cast<float>(s[i]);
        return static_cast<T>(sum);
      },
      mlusim::detail::Operand{src, n * sizeof(T)});
}

template <typename T>
unsigned __bang_count(const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_count: mlusim has it for float and half only");
  const char *op = "__bang_count";
  const size_t n = mlusim::detail::checked_count(op, count);
  mlusim::CoreContext &c = mlusim::this_core();
  mlusim::detail::require_shaped(c, op, "src", mlusim::Space::kNram, src, n * sizeof(T), true);
  mlusim::detail::charge_vector<T>(c, op, nullptr, src, n * sizeof(T), n);
  mlusim::await_result(c, mlusim::kVectorPipe, op);
  return mlusim::detail::on_aligned(
      [n](const T *s) {
        unsigned nonzero = 0;
        for (size_t i = 0; i < n; ++i) nonzero += s[i] != T(0);
        return nonzero;
      },
      mlusim::detail::Operand{src, n * sizeof(T)});
}

namespace mlusim::detail {
// dst[0] = the best element of src, then its first index as an Index.
template <typename Index, typename T, typename Better>
void extreme(const char *op, T *dst, const T *src, int count, Better better) {
  const size_t n = checked_count(op, count);
  if (n == 0) fault(this_core(), std::string(op) + ": count must be positive");
  CoreContext &c = this_core();
  require_shaped(c, op, "src", Space::kNram, src, n * sizeof(T), true);
  require_shaped(c, op, "dst", Space::kNram, dst, sizeof(T) + sizeof(Index), false);
  charge_vector<T>(c, op, access_of(dst, sizeof(T) + sizeof(Index), src, n * sizeof(T), nullptr, 0),
                   n * sizeof(T), n);
  on_aligned(
      [n, better](T *d, const T *s) {
        size_t best = 0;
        for (size_t i = 1; i < n; ++i)
          if (better(s[i], s[best])) best = i;
        const T value = s[best];
        const auto index = static_cast<Index>(best);
        d[0] = value;
        std::memcpy(d + 1, &index, sizeof(Index));
      },
      Operand{dst, sizeof(T) + sizeof(Index)}, Operand{src, n * sizeof(T)});
}
}  // namespace mlusim::detail

template <typename T>
void __bang_max(T *dst, const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_max: mlusim has it for float and half only");
  mlusim::detail::extreme<mlusim::detail::Bits<T>>("__bang_max", dst, src, count,
                                                   [](T a, T b) { return a > b; });
}
template <typename T>
void __bang_min(T *dst, const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_min: mlusim has it for float and half only");
  mlusim::detail::extreme<mlusim::detail::Bits<T>>("__bang_min", dst, src, count,
                                                   [](T a, T b) { return a < b; });
}
template <typename T>
void __bang_argmax(T *dst, const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_argmax: mlusim has it for float and half only");
  mlusim::detail::extreme<uint32_t>("__bang_argmax", dst, src, count,
                                    [](T a, T b) { return a > b; });
}
template <typename T>
void __bang_argmin(T *dst, const T *src, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_argmin: mlusim has it for float and half only");
  mlusim::detail::extreme<uint32_t>("__bang_argmin", dst, src, count,
                                    [](T a, T b) { return a < b; });
}
