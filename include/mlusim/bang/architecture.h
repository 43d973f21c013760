// Intrinsics and dtypes that not every MLU architecture has. A program built
// for an architecture (mlusim-cncc --bang-mlu-arch / --bang-arch, which set
// __BANG_ARCH__) that calls one its architecture lacks does not compile, and
// the message names the intrinsic, what it needs and the architecture:
//
//   prog.mlu:12: error: call to 'mlusim::bang::arch::gate___bang_div<float*, 4>'
//   declared with attribute error: mlusim: __bang_div needs MLU300 but not mtp_372
//   (...); this program is built for mtp_372 (__BANG_ARCH__ 372) (docs/bang_c.md, ...)
//
// The rules are Cambricon's (docs/bang_c.md, "Intrinsics by architecture",
// gives each with its source). One mechanism: each gated intrinsic is a
// function-like macro that first calls its gate, an empty function when the
// target has the intrinsic for the first argument's type and argument count,
// else a declaration the compiler refuses to call (gnu::error). As on the
// device, only a call the compiler emits is refused: a device function nobody
// calls, a template nobody instantiates or a branch of `#if __BANG_ARCH__`
// not taken still compiles. Included last by bang.h: the macros must not
// touch the intrinsics' own declarations.
#pragma once

#include <type_traits>

#include "mlusim/bang/detail/program.h"
#include "mlusim/bang/target.h"

namespace mlusim::bang::arch {

// The families Cambricon's requirements name; every rule passes when the
// program was not built by mlusim-cncc (kTargetArch 0).
inline constexpr bool kMlu300 = kTargetArch == 0 || kTargetArch >= 300;
inline constexpr bool kMlu300Not372 = kMlu300 && kTargetArch != 372;
inline constexpr bool kMlu500 = kTargetArch == 0 || kTargetArch > 520;

// The element type of a pointer operand (or of the value itself).
template <typename P>
using Element = std::remove_cvref_t<std::remove_pointer_t<std::decay_t<P>>>;
// Whether integer operands of `bytes` and wider are allowed: MLU300 only.
template <typename P, size_t bytes>
inline constexpr bool kIntegerOk =
    kMlu300 || !std::is_integral_v<Element<P>> || sizeof(Element<P>) < bytes;

}  // namespace mlusim::bang::arch

// The gate of intrinsic `name`: `available` may use First (the type of the
// call's first argument) and Args (its argument count).
#define MLUSIM_ARCH_GATE(name, available, needs)                                          \
  namespace mlusim::bang::arch {                                                          \
  template <typename First, int Args>                                                     \
    requires(available)                                                                   \
  constexpr void gate_##name() {}                                                         \
  template <typename First, int Args>                                                     \
    requires(!(available))                                                                \
  [[gnu::error("mlusim: " #name " " needs "; this program is " MLUSIM_BUILT_FOR          \
               " (docs/bang_c.md, 'Intrinsics by architecture')")]] void gate_##name();  \
  }
#define MLUSIM_ARCH_FIRST_(first, ...) first
#define MLUSIM_ARCH_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, \
                           _16, n, ...)                                                    \
  n
#define MLUSIM_ARCH_COUNT(...) \
  MLUSIM_ARCH_COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
// A call of gated intrinsic `name`: its .mlu line for fault messages (what
// mlusim-cncc's translation adds to other intrinsic calls, but not to the
// text of a header's macro), its gate, then the intrinsic (the macro's own
// name is not expanded again inside it).
#define MLUSIM_ARCH_CHECKED(name, ...)                                                     \
  (::mlusim::bang::at(__FILE__ ":" MLUSIM_TARGET_TEXT(__LINE__)),                          \
   ::mlusim::bang::arch::gate_##name<decltype(MLUSIM_ARCH_FIRST_(__VA_ARGS__, 0)),         \
                                     MLUSIM_ARCH_COUNT(__VA_ARGS__)>(),                    \
   name(__VA_ARGS__))

#define MLUSIM_NEEDS_MLU300 "needs MLU300 or later (__BANG_ARCH__ >= 300)"
#define MLUSIM_MLU300_GATE(name) MLUSIM_ARCH_GATE(name, kMlu300, MLUSIM_NEEDS_MLU300)
MLUSIM_MLU300_GATE(__bang_recip)
MLUSIM_MLU300_GATE(__bang_sqrt)
MLUSIM_MLU300_GATE(__bang_sin)
MLUSIM_MLU300_GATE(__bang_cos)
MLUSIM_MLU300_GATE(__bang_pow2)
MLUSIM_MLU300_GATE(__bang_floor)
MLUSIM_MLU300_GATE(__bang_nan_maximum)
MLUSIM_MLU300_GATE(__bang_nan_minimum)
MLUSIM_MLU300_GATE(__bang_fusion)
MLUSIM_MLU300_GATE(__bang_eq_scalar)
MLUSIM_MLU300_GATE(__bang_ne_scalar)
MLUSIM_MLU300_GATE(__bang_lt_scalar)
MLUSIM_MLU300_GATE(__bang_le_scalar)
MLUSIM_MLU300_GATE(__bang_gt_scalar)
MLUSIM_MLU300_GATE(__bang_maxeq_scalar)
MLUSIM_MLU300_GATE(__bang_mineq_scalar)
MLUSIM_MLU300_GATE(__bang_band_scalar)
MLUSIM_MLU300_GATE(__bang_argmax)
MLUSIM_MLU300_GATE(__bang_argmin)
MLUSIM_MLU300_GATE(__bang_maxpool_value_index)
MLUSIM_MLU300_GATE(__bang_float2half_rn)
MLUSIM_MLU300_GATE(__bang_float2bfloat16_rn)
MLUSIM_MLU300_GATE(__bang_atomic_reduce_add)
MLUSIM_MLU300_GATE(__bang_atomic_add_reduce)
MLUSIM_MLU300_GATE(__bang_atomic_reduce_max)
MLUSIM_MLU300_GATE(__bang_atomic_reduce_min)
#undef MLUSIM_MLU300_GATE
#undef MLUSIM_NEEDS_MLU300
// The 4-argument form; the 5-argument one (with src_addition) is MLU200's too.
MLUSIM_ARCH_GATE(__bang_div, Args != 4 || kMlu300Not372,
                 "(dst, src0, src1, count) needs MLU300 or later but not mtp_372 "
                 "(__BANG_ARCH__ >= 300 && != 372); on mtp_372 divide by __bang_recip and "
                 "__bang_mul, as mlu-ops does")
MLUSIM_ARCH_GATE(__bang_rem, kMlu300Not372,
                 "needs MLU300 or later but not mtp_372 (__BANG_ARCH__ >= 300 && != 372)")
MLUSIM_ARCH_GATE(__vv_trixor, kMlu500,
                 "needs MLU500 or later (__BANG_ARCH__ > 520); before it, two __vv_xor as "
                 "mlu-ops' Philox generator does")
// The logical forms take floats on MLU200, the bitwise ones char.
#define MLUSIM_INTEGER_GATE(name, bytes, types, mlu200_types)                              \
  MLUSIM_ARCH_GATE(name, (kIntegerOk<First, bytes>),                                       \
                   "of " types " needs MLU300 or later (__BANG_ARCH__ >= 300); MLU200 has it " \
                   "for " mlu200_types)
#define MLUSIM_LOGICAL_GATE(name) \
  MLUSIM_INTEGER_GATE(name, 1, "int, short or char", "floating-point operands")
#define MLUSIM_BITWISE_GATE(name) MLUSIM_INTEGER_GATE(name, 2, "int or short", "char")
MLUSIM_LOGICAL_GATE(__bang_and)
MLUSIM_LOGICAL_GATE(__bang_or)
MLUSIM_LOGICAL_GATE(__bang_not)
MLUSIM_LOGICAL_GATE(__bang_cycle_and)
MLUSIM_BITWISE_GATE(__bang_band)
MLUSIM_BITWISE_GATE(__bang_bor)
MLUSIM_BITWISE_GATE(__bang_bxor)
MLUSIM_BITWISE_GATE(__bang_bnot)
MLUSIM_BITWISE_GATE(__bang_cycle_band)
MLUSIM_BITWISE_GATE(__bang_cycle_bor)
#undef MLUSIM_BITWISE_GATE
#undef MLUSIM_LOGICAL_GATE
#undef MLUSIM_INTEGER_GATE
#undef MLUSIM_ARCH_GATE

// Each gated intrinsic, called through its gate.
#define __bang_recip(...) MLUSIM_ARCH_CHECKED(__bang_recip, __VA_ARGS__)
#define __bang_sqrt(...) MLUSIM_ARCH_CHECKED(__bang_sqrt, __VA_ARGS__)
#define __bang_sin(...) MLUSIM_ARCH_CHECKED(__bang_sin, __VA_ARGS__)
#define __bang_cos(...) MLUSIM_ARCH_CHECKED(__bang_cos, __VA_ARGS__)
#define __bang_pow2(...) MLUSIM_ARCH_CHECKED(__bang_pow2, __VA_ARGS__)
#define __bang_floor(...) MLUSIM_ARCH_CHECKED(__bang_floor, __VA_ARGS__)
#define __bang_nan_maximum(...) MLUSIM_ARCH_CHECKED(__bang_nan_maximum, __VA_ARGS__)
#define __bang_nan_minimum(...) MLUSIM_ARCH_CHECKED(__bang_nan_minimum, __VA_ARGS__)
#define __bang_fusion(...) MLUSIM_ARCH_CHECKED(__bang_fusion, __VA_ARGS__)
#define __bang_eq_scalar(...) MLUSIM_ARCH_CHECKED(__bang_eq_scalar, __VA_ARGS__)
#define __bang_ne_scalar(...) MLUSIM_ARCH_CHECKED(__bang_ne_scalar, __VA_ARGS__)
#define __bang_lt_scalar(...) MLUSIM_ARCH_CHECKED(__bang_lt_scalar, __VA_ARGS__)
#define __bang_le_scalar(...) MLUSIM_ARCH_CHECKED(__bang_le_scalar, __VA_ARGS__)
#define __bang_gt_scalar(...) MLUSIM_ARCH_CHECKED(__bang_gt_scalar, __VA_ARGS__)
#define __bang_maxeq_scalar(...) MLUSIM_ARCH_CHECKED(__bang_maxeq_scalar, __VA_ARGS__)
#define __bang_mineq_scalar(...) MLUSIM_ARCH_CHECKED(__bang_mineq_scalar, __VA_ARGS__)
#define __bang_band_scalar(...) MLUSIM_ARCH_CHECKED(__bang_band_scalar, __VA_ARGS__)
#define __bang_argmax(...) MLUSIM_ARCH_CHECKED(__bang_argmax, __VA_ARGS__)
#define __bang_argmin(...) MLUSIM_ARCH_CHECKED(__bang_argmin, __VA_ARGS__)
#define __bang_maxpool_value_index(...) \
  MLUSIM_ARCH_CHECKED(__bang_maxpool_value_index, __VA_ARGS__)
#define __bang_float2half_rn(...) MLUSIM_ARCH_CHECKED(__bang_float2half_rn, __VA_ARGS__)
#define __bang_float2bfloat16_rn(...) MLUSIM_ARCH_CHECKED(__bang_float2bfloat16_rn, __VA_ARGS__)
#define __bang_atomic_reduce_add(...) MLUSIM_ARCH_CHECKED(__bang_atomic_reduce_add, __VA_ARGS__)
#define __bang_atomic_add_reduce(...) MLUSIM_ARCH_CHECKED(__bang_atomic_add_reduce, __VA_ARGS__)
#define __bang_atomic_reduce_max(...) MLUSIM_ARCH_CHECKED(__bang_atomic_reduce_max, __VA_ARGS__)
#define __bang_atomic_reduce_min(...) MLUSIM_ARCH_CHECKED(__bang_atomic_reduce_min, __VA_ARGS__)
#define __bang_div(...) MLUSIM_ARCH_CHECKED(__bang_div, __VA_ARGS__)
#define __bang_rem(...) MLUSIM_ARCH_CHECKED(__bang_rem, __VA_ARGS__)
#define __vv_trixor(...) MLUSIM_ARCH_CHECKED(__vv_trixor, __VA_ARGS__)
#define __bang_and(...) MLUSIM_ARCH_CHECKED(__bang_and, __VA_ARGS__)
#define __bang_or(...) MLUSIM_ARCH_CHECKED(__bang_or, __VA_ARGS__)
#define __bang_not(...) MLUSIM_ARCH_CHECKED(__bang_not, __VA_ARGS__)
#define __bang_cycle_and(...) MLUSIM_ARCH_CHECKED(__bang_cycle_and, __VA_ARGS__)
#define __bang_band(...) MLUSIM_ARCH_CHECKED(__bang_band, __VA_ARGS__)
#define __bang_bor(...) MLUSIM_ARCH_CHECKED(__bang_bor, __VA_ARGS__)
#define __bang_bxor(...) MLUSIM_ARCH_CHECKED(__bang_bxor, __VA_ARGS__)
#define __bang_bnot(...) MLUSIM_ARCH_CHECKED(__bang_bnot, __VA_ARGS__)
#define __bang_cycle_band(...) MLUSIM_ARCH_CHECKED(__bang_cycle_band, __VA_ARGS__)
#define __bang_cycle_bor(...) MLUSIM_ARCH_CHECKED(__bang_cycle_bor, __VA_ARGS__)
