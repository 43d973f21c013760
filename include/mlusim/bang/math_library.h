// The vector functions of Cambricon's device math library that mlu-ops calls:
// __cn_vector_<function>_<dtype>(n, dst, src...), n elements first, over NRAM.
// They are library routines built from several vector instructions and take
// any n at any place in the declared NRAM (no alignment rule); mlusim charges
// each call as one vector instruction over its widest operand (the routines'
// instruction counts are not published). dst may be a source.
//  sin_f32, cos_f32, hypot_f32: the function computed in double, rounded to float
//    (the library's error bound is not published).
//  div_f32_rn: IEEE division, rounded to nearest even.
//  div_s32: C division, truncating toward zero; x / 0 gives -1 and
//    INT32_MIN / -1 gives INT32_MIN (the device's answers are not published).
//  cast_f32_to_s32: toward zero, saturating; NaN gives 0.
#pragma once

#include <cmath>
#include <cstdint>

#include "mlusim/bang/vector.h"

namespace mlusim::detail {

// dst[i] = f(a[i], b[i]) (b null for one source) over n elements anywhere in
// the declared NRAM.
template <typename D, typename S, typename F>
void library_map(const char *op, int count, D *dst, const S *a, const S *b, F f) {
  const size_t n = checked_count(op, count), in = n * sizeof(S), out = n * sizeof(D);
  CoreContext &c = this_core();
  require_onchip(c, op, "dst", Space::kNram, dst, out);
  require_onchip(c, op, "src0", Space::kNram, a, in);
  check_read(c, op, a, in);
  if (b != nullptr) {
    require_onchip(c, op, "src1", Space::kNram, b, in);
    check_read(c, op, b, in);
  }
  check_write(c, op, dst, out);
  const size_t b_bytes = b != nullptr ? in : 0;
  charge_vector<S>(c, op, access_of(dst, out, a, in, b, b_bytes), in > out ? in : out, n);
  on_aligned(
      [n, f](D *d, const S *x, const S *y) {
        for (size_t i = 0; i < n; ++i) d[i] = f(x[i], y != nullptr ? y[i] : S{});
      },
      Operand{dst, out}, Operand{a, in}, Operand{b, b_bytes});
}

inline int32_t truncating_div(int32_t x, int32_t y) {
  if (y == 0) return -1;
  if (y == -1) return static_cast<int32_t>(0u - static_cast<uint32_t>(x));  // no overflow trap
  return x / y;
}

}  // namespace mlusim::detail

inline void __cn_vector_sin_f32(int n, float *dst, const float *src) {
  mlusim::detail::library_map("__cn_vector_sin_f32", n, dst, src,
                              static_cast<const float *>(nullptr), [](float x, float) {
                                return static_cast<float>(std::sin(static_cast<double>(x)));
                              });
}
inline void __cn_vector_cos_f32(int n, float *dst, const float *src) {
  mlusim::detail::library_map("__cn_vector_cos_f32", n, dst, src,
                              static_cast<const float *>(nullptr), [](float x, float) {
                                return static_cast<float>(std::cos(static_cast<double>(x)));
                              });
}
inline void __cn_vector_hypot_f32(int n, float *dst, const float *a, const float *b) {
  mlusim::detail::library_map("__cn_vector_hypot_f32", n, dst, a, b, [](float x, float y) {
    return static_cast<float>(std::hypot(static_cast<double>(x), static_cast<double>(y)));
  });
}
inline void __cn_vector_div_f32_rn(int n, float *dst, const float *a, const float *b) {
  mlusim::detail::library_map("__cn_vector_div_f32_rn", n, dst, a, b,
                              [](float x, float y) { return x / y; });
}
inline void __cn_vector_div_s32(int n, int32_t *dst, const int32_t *a, const int32_t *b) {
  mlusim::detail::library_map("__cn_vector_div_s32", n, dst, a, b,
                              mlusim::detail::truncating_div);
}
inline void __cn_vector_cast_f32_to_s32(int n, int32_t *dst, const float *src) {
  mlusim::detail::library_map("__cn_vector_cast_f32_to_s32", n, dst, src,
                              static_cast<const float *>(nullptr),
                              [](float x, float) {
                                return mlusim::detail::saturated<int32_t>(std::trunc(x));
                              });
}
