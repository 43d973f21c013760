// <cmath> on half. half is _Float16, which converts to float, double and long
// double alike, so isnan(h) or sin(h) is ambiguous in plain C++; BANG C
// computes them in float. Each function here takes half, computes in float and
// returns half (or bool for a classification), in the global namespace (as
// math.h's names) and in std.
#pragma once

#include <cmath>

#define MLUSIM_HALF_UNARY(name) \
  inline _Float16 name(_Float16 x) { return static_cast<_Float16>(std::name(static_cast<float>(x))); }
#define MLUSIM_HALF_BINARY(name)                                                        \
  inline _Float16 name(_Float16 x, _Float16 y) {                                        \
    return static_cast<_Float16>(std::name(static_cast<float>(x), static_cast<float>(y))); \
  }
#define MLUSIM_HALF_CLASSIFY(name) \
  inline bool name(_Float16 x) { return std::name(static_cast<float>(x)); }

#define MLUSIM_HALF_MATH                                                                        \
  MLUSIM_HALF_CLASSIFY(isnan) MLUSIM_HALF_CLASSIFY(isinf) MLUSIM_HALF_CLASSIFY(isfinite)       \
  MLUSIM_HALF_CLASSIFY(signbit) MLUSIM_HALF_UNARY(sin) MLUSIM_HALF_UNARY(cos)                  \
  MLUSIM_HALF_UNARY(tan) MLUSIM_HALF_UNARY(asin) MLUSIM_HALF_UNARY(acos) MLUSIM_HALF_UNARY(atan) \
  MLUSIM_HALF_UNARY(sinh) MLUSIM_HALF_UNARY(cosh) MLUSIM_HALF_UNARY(tanh)                      \
  MLUSIM_HALF_UNARY(exp) MLUSIM_HALF_UNARY(exp2) MLUSIM_HALF_UNARY(expm1)                      \
  MLUSIM_HALF_UNARY(log) MLUSIM_HALF_UNARY(log2) MLUSIM_HALF_UNARY(log10)                      \
  MLUSIM_HALF_UNARY(log1p) MLUSIM_HALF_UNARY(sqrt) MLUSIM_HALF_UNARY(cbrt)                     \
  MLUSIM_HALF_UNARY(fabs) MLUSIM_HALF_UNARY(abs) MLUSIM_HALF_UNARY(floor)                      \
  MLUSIM_HALF_UNARY(ceil) MLUSIM_HALF_UNARY(round) MLUSIM_HALF_UNARY(trunc)                    \
  MLUSIM_HALF_UNARY(rint) MLUSIM_HALF_UNARY(nearbyint) MLUSIM_HALF_UNARY(erf)                  \
  MLUSIM_HALF_BINARY(pow) MLUSIM_HALF_BINARY(atan2) MLUSIM_HALF_BINARY(fmod)                   \
  MLUSIM_HALF_BINARY(fmax) MLUSIM_HALF_BINARY(fmin) MLUSIM_HALF_BINARY(hypot)

// A standard library with C++23's std::float16_t has these overloads itself.
#ifndef __STDCPP_FLOAT16_T__
MLUSIM_HALF_MATH
namespace std {
MLUSIM_HALF_MATH
}  // namespace std
#endif

#undef MLUSIM_HALF_MATH
#undef MLUSIM_HALF_CLASSIFY
#undef MLUSIM_HALF_BINARY
#undef MLUSIM_HALF_UNARY
