// __bang_active_*: BANG C's activation unit, dst[i] = f(src[i]) over NRAM, in
// float and half. The device approximates these functions in hardware (with
// documented error bounds); mlusim computes them in float and rounds once to
// the operand's dtype, so results sit within those bounds of the device's.
#pragma once

#include <cmath>

#include "mlusim/bang/shaped.h"
#include "mlusim/bang/vector.h"

#define MLUSIM_ACTIVE(name, expr)                                                             \
  template <typename T>                                                                       \
  void __bang_active_##name(T *dst, const T *src, int count) {                                \
    static_assert(mlusim::detail::is_float_or_half<T>,                                        \
                  "__bang_active_" #name ": mlusim has it for float and half only");          \
    mlusim::detail::unary("__bang_active_" #name, dst, src, count, [](auto v) {               \
      const float x = static_cast<float>(v);                                                  \
      return static_cast<decltype(v)>(expr);                                                  \
    });                                                                                       \
  }
MLUSIM_ACTIVE(abs, std::fabs(x))
MLUSIM_ACTIVE(relu, x > 0.0f ? x : 0.0f)
MLUSIM_ACTIVE(recip, 1.0f / x)
MLUSIM_ACTIVE(reciphp, 1.0f / x)  // the high-precision reciprocal
MLUSIM_ACTIVE(recip_greater_1, 1.0f / x)  // the device's fast path for x > 1
MLUSIM_ACTIVE(sqrt, std::sqrt(x))
MLUSIM_ACTIVE(rsqrt, 1.0f / std::sqrt(x))
MLUSIM_ACTIVE(exp, std::exp(x))
MLUSIM_ACTIVE(exp_less_0, std::exp(x))  // the device's fast path for x < 0
MLUSIM_ACTIVE(log, std::log(x))         // natural logarithm
MLUSIM_ACTIVE(sigmoid, 1.0f / (1.0f + std::exp(-x)))
MLUSIM_ACTIVE(tanh, std::tanh(x))
MLUSIM_ACTIVE(sin, std::sin(x))
MLUSIM_ACTIVE(cos, std::cos(x))
MLUSIM_ACTIVE(gelu, 0.5f * x * (1.0f + std::erf(x * 0.70710678f)))
#undef MLUSIM_ACTIVE
