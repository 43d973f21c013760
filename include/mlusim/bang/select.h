// Selection by masks and the bit masks themselves, over NRAM, float and half:
//  __bang_<cmp>_bitindex(dst, a, b, n): bit i of dst is a[i] <cmp> b[i];
//    __bang_filter_bitindex(dst, src, bits, n) packs the src elements whose
//    bit is 1 to the front of dst and returns how many. Bit i is bit i % 8
//    (least significant first) of byte i / 8: mlu-ops' ms_deform_attn picks
//    the x of (x, y) pairs with the byte 0x55. n must be a multiple of 8
//    (mlu-ops pads every count to 8); operands are shaped (start on the
//    alignment boundary, any size).
//  __bang_findfirst1(src, n) / __bang_findlast1(src, n): the index of the
//    first / last non-zero element, 0xFFFFFFFF when there is none. src needs
//    no alignment: mlu-ops searches 24-element rows one after another.
#pragma once

#include <cstdint>
#include <string>

#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

inline size_t bit_count(const char *op, int count) {
  const size_t n = checked_count(op, count);
  if (n % 8 != 0)
    fault(this_core(), std::string(op) + ": count " + std::to_string(n) +
                           " is not a multiple of 8 (one byte of mask bits)");
  return n;
}

inline bool bit_at(const uint8_t *bits, size_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

template <typename T, typename Compare>
void compare_to_bits(const char *op, T *dst, const T *a, const T *b, int count, Compare cmp) {
  static_assert(is_float_or_half<T>, "the _bitindex comparisons: float and half only");
  const size_t n = bit_count(op, count), bytes = n * sizeof(T);
  CoreContext &c = this_core();
  require_shaped(c, op, "src0", Space::kNram, a, bytes, true);
  require_shaped(c, op, "src1", Space::kNram, b, bytes, true);
  require_shaped(c, op, "dst", Space::kNram, dst, n / 8, false);
  charge_vector<T>(c, op, access_of(dst, n / 8, a, bytes, b, bytes), bytes, n);
  on_aligned(
      [n, cmp](uint8_t *out, const T *x, const T *y) {
        for (size_t byte = 0; byte < n / 8; ++byte) {  // dst may be a: read each byte's 8 first
          uint8_t packed = 0;
          for (size_t k = 0; k < 8; ++k)
            packed |= static_cast<uint8_t>(cmp(x[byte * 8 + k], y[byte * 8 + k]) ? 1u << k : 0u);
          out[byte] = packed;
        }
      },
      Operand{reinterpret_cast<uint8_t *>(dst), n / 8}, Operand{a, bytes}, Operand{b, bytes});
}

template <typename T>
uint32_t find_nonzero(const char *op, const T *src, int count, bool last) {
  static_assert(is_float_or_half<T>, "__bang_findfirst1/__bang_findlast1: float and half only");
  const size_t n = checked_count(op, count);
  CoreContext &c = this_core();
  require_onchip(c, op, "src", Space::kNram, src, n * sizeof(T));
  check_read(c, op, src, n * sizeof(T));
  charge_vector<T>(c, op, nullptr, src, n * sizeof(T), n);
  await_result(c, kVectorPipe, op);
  return on_aligned(
      [n, last](const T *s) {
        for (size_t k = 0; k < n; ++k) {
          const size_t i = last ? n - 1 - k : k;
          if (s[i] != T(0)) return static_cast<uint32_t>(i);
        }
        return 0xFFFFFFFFu;
      },
      Operand{src, n * sizeof(T)});
}

}  // namespace mlusim::detail

#define MLUSIM_BITINDEX(name, expr)                                                       \
  template <typename T>                                                                   \
  void __bang_##name##_bitindex(T *dst, const T *a, const T *b, int count) {              \
    mlusim::detail::compare_to_bits("__bang_" #name "_bitindex", dst, a, b, count,        \
                                    [](T x, T y) { return expr; });                       \
  }
MLUSIM_COMPARISONS(MLUSIM_BITINDEX)
#undef MLUSIM_BITINDEX

// bits: count / 8 bytes of mask (any pointer type; mlu-ops passes int8_t *).
template <typename T>
unsigned __bang_filter_bitindex(T *dst, const T *src, const void *bits, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_filter_bitindex: mlusim has it for float and half only");
  const char *op = "__bang_filter_bitindex";
  const size_t n = mlusim::detail::bit_count(op, count), bytes = n * sizeof(T);
  mlusim::CoreContext &c = mlusim::this_core();
  mlusim::detail::require_shaped(c, op, "src", mlusim::Space::kNram, src, bytes, true);
  mlusim::detail::require_shaped(c, op, "mask", mlusim::Space::kNram, bits, n / 8, true);
  mlusim::detail::require_shaped(c, op, "dst", mlusim::Space::kNram, dst, bytes, false);
  mlusim::detail::charge_vector<T>(c, op, mlusim::access_of(dst, bytes, src, bytes, bits, n / 8),
                                   bytes, n);
  mlusim::await_result(c, mlusim::kVectorPipe, op);
  const auto *mask = static_cast<const uint8_t *>(bits);
  return mlusim::detail::on_aligned(
      [n, mask](T *d, const T *s) {
        unsigned kept = 0;  // dst may be src: each element moves down or stays
        for (size_t i = 0; i < n; ++i)
          if (mlusim::detail::bit_at(mask, i)) d[kept++] = s[i];
        return kept;
      },
      mlusim::detail::Operand{dst, bytes}, mlusim::detail::Operand{src, bytes});
}

template <typename T>
uint32_t __bang_findfirst1(const T *src, int count) {
  return mlusim::detail::find_nonzero("__bang_findfirst1", src, count, false);
}
template <typename T>
uint32_t __bang_findlast1(const T *src, int count) {
  return mlusim::detail::find_nonzero("__bang_findlast1", src, count, true);
}
