// Scalar built-in functions and types of BANG C: conversions with an explicit
// rounding (_dn and _rd toward -inf, _up toward +inf, _rn to nearest even, _tz
// toward zero), bfloat16_t, <cmath> on half and the scalar functions of
// Cambricon's math library (__cn_scalar_*). Scalar code costs nothing in the
// cost model (docs/cost_model.md).
#pragma once

#include <math.h>

#include <cmath>
#include <cstdint>

#include "mlusim/bang/bfloat16.h"
#include "mlusim/bang/half_math.h"

inline int __float2int_dn(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_up(float x) { return static_cast<int>(std::ceil(x)); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_tz(float x) { return static_cast<int>(std::trunc(x)); }
// Without a suffix: toward zero, as a C cast (mlu-ops takes x_low = __float2int32(x)
// where mmcv takes (int)x).
inline int32_t __float2int32(float x) { return static_cast<int32_t>(std::trunc(x)); }
inline int32_t __float2int32_rd(float x) { return static_cast<int32_t>(std::floor(x)); }
inline int32_t __float2int32_up(float x) { return static_cast<int32_t>(std::ceil(x)); }
inline int32_t __half2int32(_Float16 x) { return __float2int32(static_cast<float>(x)); }
inline int32_t __half2int32_rd(_Float16 x) { return __float2int32_rd(static_cast<float>(x)); }
inline int32_t __half2int32_up(_Float16 x) { return __float2int32_up(static_cast<float>(x)); }
// The host's float to _Float16 conversion rounds to nearest even, as _rn says.
inline _Float16 __float2half_rn(float x) { return static_cast<_Float16>(x); }

inline float __cn_scalar_sin_f32(float x) { return std::sin(x); }
inline float __cn_scalar_cos_f32(float x) { return std::cos(x); }
inline _Float16 __cn_scalar_sin_f16(_Float16 x) { return sin(x); }
inline _Float16 __cn_scalar_cos_f16(_Float16 x) { return cos(x); }

// C++ lists the float functions of <math.h> in std too (std::ceilf, which
// mlu-ops' kernels call); libstdc++ before GCC 14 lacks them.
namespace std {
using ::ceilf;
using ::cosf;
using ::expf;
using ::fabsf;
using ::floorf;
using ::logf;
using ::powf;
using ::roundf;
using ::sinf;
using ::sqrtf;
using ::truncf;
}  // namespace std
