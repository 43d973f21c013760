// Element-wise functions of float, half and bfloat16, dst[i] = f(src[i]) over NRAM:
// the activation unit's __bang_active_* and their plain __bang_<f> siblings.
// The device approximates these functions in hardware (with documented error
// bounds); mlusim computes them in float and rounds once to the operand's
// dtype, so results sit within those bounds of the device's.
#pragma once

#include <cmath>
#include <type_traits>

#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

// dst[i] = expr of x = src[i], after `check` (a statement on x and T).
#define MLUSIM_ELEMENT_FUNCTION(name, check, expr)                                          \
  template <typename T>                                                                     \
  void name(T *dst, const T *src, int count) {                                              \
    static_assert(mlusim::detail::is_floating_element<T>,                                   \
                  #name ": mlusim has it for float, half and bfloat16 only");               \
    mlusim::detail::unary(#name, dst, src, count, [](auto v) {                              \
      const float x = static_cast<float>(v);                                                \
      check;                                                                                \
      return static_cast<decltype(v)>(expr);                                                \
    });                                                                                     \
  }
#define MLUSIM_FLOAT_FUNCTION(name, expr) MLUSIM_ELEMENT_FUNCTION(name, (void)0, expr)
// One whose input range Cambricon documents (float's, half's): an element
// outside it, NaN included, faults, as the device's result there is not defined.
#define MLUSIM_RANGED_FUNCTION(name, expr, float_lo, float_hi, half_lo, half_hi)            \
  MLUSIM_ELEMENT_FUNCTION(                                                                  \
      name,                                                                                 \
      constexpr double lo = (std::is_same_v<T, half>) ? half_lo : float_lo;                 \
      constexpr double hi = (std::is_same_v<T, half>) ? half_hi : float_hi;                 \
      if (!(x >= lo && x <= hi)) [[unlikely]]                                               \
        mlusim::detail::fault_outside_range(mlusim::this_core(), #name, x, lo, hi),         \
      expr)
MLUSIM_FLOAT_FUNCTION(__bang_active_abs, std::fabs(x))
// 1 for x >= 0 (-0 included), -1 below (Cambricon documents finite x: NaN gives -1 here).
MLUSIM_FLOAT_FUNCTION(__bang_active_sign, x >= 0.0f ? 1.0f : -1.0f)
MLUSIM_FLOAT_FUNCTION(__bang_active_relu, x > 0.0f ? x : 0.0f)
MLUSIM_FLOAT_FUNCTION(__bang_active_recip, 1.0f / x)
MLUSIM_FLOAT_FUNCTION(__bang_active_reciphp, 1.0f / x)  // the high-precision reciprocal
// The fast path for x >= 1 (Cambricon: "The element values of <src> are in the range [1, 63487]").
MLUSIM_RANGED_FUNCTION(__bang_active_recip_greater_1, 1.0f / x, 1, 63487, 1, 63487)
MLUSIM_FLOAT_FUNCTION(__bang_active_sqrt, std::sqrt(x))
MLUSIM_FLOAT_FUNCTION(__bang_active_rsqrt, 1.0f / std::sqrt(x))
MLUSIM_FLOAT_FUNCTION(__bang_active_exp, std::exp(x))
// The fast path for x <= 0 (Cambricon: [-3.4e38, 0] for float, [-65504, 0] for half).
MLUSIM_RANGED_FUNCTION(__bang_active_exp_less_0, std::exp(x), -3.4e38, 0, -65504, 0)
MLUSIM_FLOAT_FUNCTION(__bang_active_exphp, std::exp(x))       // the high-precision exp
MLUSIM_FLOAT_FUNCTION(__bang_active_log, std::log(x))         // natural logarithm
MLUSIM_FLOAT_FUNCTION(__bang_active_sigmoid, 1.0f / (1.0f + std::exp(-x)))
MLUSIM_FLOAT_FUNCTION(__bang_active_tanh, std::tanh(x))
MLUSIM_FLOAT_FUNCTION(__bang_active_sin, std::sin(x))
MLUSIM_FLOAT_FUNCTION(__bang_active_cos, std::cos(x))
MLUSIM_FLOAT_FUNCTION(__bang_active_gelu, 0.5f * x * (1.0f + std::erf(x * 0.70710678f)))
MLUSIM_FLOAT_FUNCTION(__bang_abs, std::fabs(x))
MLUSIM_FLOAT_FUNCTION(__bang_recip, 1.0f / x)
MLUSIM_FLOAT_FUNCTION(__bang_sqrt, std::sqrt(x))
MLUSIM_FLOAT_FUNCTION(__bang_floor, std::floor(x))
MLUSIM_FLOAT_FUNCTION(__bang_log2, std::log2(x))
MLUSIM_FLOAT_FUNCTION(__bang_pow2, std::exp2(x))
MLUSIM_FLOAT_FUNCTION(__bang_sin, std::sin(x))
MLUSIM_FLOAT_FUNCTION(__bang_cos, std::cos(x))
#undef MLUSIM_RANGED_FUNCTION
#undef MLUSIM_FLOAT_FUNCTION
#undef MLUSIM_ELEMENT_FUNCTION

namespace mlusim::detail {
// x / y: floating, or an integer quotient rounded toward zero (mlu-ops r1.11's
// get_indice_pairs splits int32 indices so on MLU500); an integer divisor 0
// faults (the result is not defined).
template <typename T>
T quotient(T x, T y) {
  static_assert(is_float_or_half<T> || std::is_integral_v<T>,
                "__bang_div: mlusim has it for float, half and integers");
  if constexpr (std::is_integral_v<T>) {
    if (y == 0) [[unlikely]]
      fault(this_core(), "__bang_div: integer division by 0");
    if constexpr (std::is_signed_v<T>)
      if (y == -1)  // INT_MIN / -1 would trap on the host: it wraps to INT_MIN
        return static_cast<T>(std::make_unsigned_t<T>(0) - static_cast<std::make_unsigned_t<T>>(x));
  }
  return static_cast<T>(x / y);
}
}  // namespace mlusim::detail

template <typename T>
void __bang_div(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_div", dst, a, b, count,
                         [](T x, T y) { return mlusim::detail::quotient(x, y); });
}
// Every element by one scalar (mlu-ops r1.11's dynamic_point_to_voxel_forward).
template <typename T>
void __bang_div(T *dst, const T *a, bang_scalar_t<T> b, int count) {
  mlusim::detail::unary("__bang_div", dst, a, count,
                        [b](T x) { return mlusim::detail::quotient(x, static_cast<T>(b)); });
}
