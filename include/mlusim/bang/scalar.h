// Scalar built-in functions and types of BANG C: float to int with an
// explicit rounding (_dn toward -inf, _up toward +inf, _rn to nearest even, _tz
// toward zero), bfloat16_t, <cmath> on half. Scalar code costs nothing in the
// cost model (docs/cost_model.md).
#pragma once

#include <cmath>

#include "mlusim/bang/bfloat16.h"
#include "mlusim/bang/half_math.h"

inline int __float2int_dn(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_up(float x) { return static_cast<int>(std::ceil(x)); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_tz(float x) { return static_cast<int>(std::trunc(x)); }
