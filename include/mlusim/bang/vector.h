// Kernel-side vector intrinsics over NRAM, with BANG C's names and argument
// order. Each checks its operands (bounds, alignment, pending async copies),
// issues on the vector pipe, then computes with a plain loop.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#ifdef __F16C__
#include <immintrin.h>
#endif
#include <limits>
#include <string>
#include <cstring>
#include <type_traits>

#include "mlusim/bang/bfloat16.h"
#include "mlusim/bang/detail/half_blocks.h"
#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/detail/unaligned.h"
#include "mlusim/bang/target.h"

typedef _Float16 half;

namespace mlusim::detail {

template <typename T>
constexpr bool is_float_or_half = std::is_same_v<T, float> || std::is_same_v<T, half>;
// The floating dtypes the MLU500 series computes element functions in.
template <typename T>
constexpr bool is_floating_element = is_float_or_half<T> || std::is_same_v<T, bfloat16_t>;

template <typename T>
constexpr const char *dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, char>) return "int8";
  else return "other";
}

template <typename T>
double &element_counter(CoreContext &c) {
  if constexpr (std::is_same_v<T, float>) return c.vector_elems_float;
  else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return c.vector_elems_half;
  else return c.vector_elems_int;
}

// dst and src of `bytes` each must not share a byte (instructions with no in-place form).
inline void require_apart(const char *op, const void *dst, const void *src, size_t bytes) {
  const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  if (bytes != 0 && d < s + bytes && s < d + bytes)
    fault(this_core(), std::string(op) + ": dst and src overlap (no in-place form)");
}

inline size_t checked_count(const char *op, int count) {
  if (count < 0) fault(this_core(), std::string(op) + ": negative element count " +
                                        std::to_string(count));
  return static_cast<size_t>(count);
}

// Issues one vector instruction that streams `bytes` through the vector unit,
// writing and reading the ranges of `a`. Inlined: the caller's ranges go
// from registers into the step and the compute window, not through memory.
template <typename T>
[[gnu::always_inline]] inline void charge_vector(CoreContext &c, const char *op, const Access &a,
                                                 size_t bytes, size_t elements) {
  element_counter<T>(c) += static_cast<double>(elements);
  issue(c, Step{.op = op, .detail = dtype_name<T>(), .access = a, .amount = bytes});
}
// The same for an instruction writing `dst` and reading `src`, `bytes` each.
template <typename T>
[[gnu::always_inline]] inline void charge_vector(CoreContext &c, const char *op, const void *dst,
                                                 const void *src, size_t bytes, size_t elements) {
  charge_vector<T>(c, op, access_of(dst, dst ? bytes : 0, src, src ? bytes : 0, nullptr, 0), bytes,
                   elements);
}

// Checks and charges one vector instruction that writes dst and reads a and b
// (a source of 0 bytes is none): a and b are T, dst is Dst. T decides which
// dtype's counter the elements go to. A source with bytes is checked, null or
// not, unless it is an operand already checked (the a of an in-place a = a + b).
template <typename T, typename Dst = T>
void vector_op(const char *op, const void *dst, size_t dst_bytes, const void *a, size_t a_bytes,
               const void *b, size_t b_bytes, size_t elements) {
  CoreContext &c = this_core();
  require_vector_operand(c, op, "dst", dst, dst_bytes);
  const auto same = [](const void *p, size_t p_bytes, const void *q, size_t q_bytes) {
    return p == q && p_bytes == q_bytes;
  };
  if (a_bytes != 0 && !same(a, a_bytes, dst, dst_bytes))
    require_vector_operand(c, op, "src0", a, a_bytes);
  if (b_bytes != 0 && !same(b, b_bytes, dst, dst_bytes) && !same(b, b_bytes, a, a_bytes))
    require_vector_operand(c, op, "src1", b, b_bytes);
  if (!c.pending.empty()) [[unlikely]] {  // async copies in flight: the pipe hazards
    if (a_bytes != 0) check_read(c, op, a, a_bytes);
    if (b_bytes != 0) check_read(c, op, b, b_bytes);
    check_write(c, op, dst, dst_bytes);
  }
  const size_t widest = std::max({dst_bytes, a_bytes, b_bytes});
  charge_vector<T>(c, op, access_of(dst, dst_bytes, a, a_bytes, b, b_bytes), widest, elements);
}

// dst[i] = f(a[i], b[i]) (b may be null). GCC computes a half operation in
// float and rounds once to half; doing the same a block at a time lets the
// float loop vectorise, with bit-identical results.
template <typename T, typename F>
void map(T *dst, const T *a, const T *b, size_t n, F f) {
  if constexpr (std::is_same_v<T, half>) {
    constexpr size_t kBlock = 256;
    float fa[kBlock], fb[kBlock], fr[kBlock];  // not zeroed: a call reads what it fills
    for (size_t i = 0; i < n; i += kBlock) {
      const size_t m = std::min(kBlock, n - i);
      half_to_float(fa, a + i, m);
      if (b != nullptr) {
        half_to_float(fb, b + i, m);
        for (size_t j = 0; j < m; ++j) fr[j] = static_cast<float>(f(fa[j], fb[j]));
      } else {
        for (size_t j = 0; j < m; ++j) fr[j] = static_cast<float>(f(fa[j], 0.0f));
      }
      float_to_half(dst + i, fr, m);
    }
  } else if (b != nullptr) {
    for (size_t i = 0; i < n; ++i) dst[i] = f(a[i], b[i]);
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = f(a[i], T{});
  }
}

template <typename T, typename F>
void binary(const char *op, T *dst, const T *a, const T *b, int count, F f) {
  size_t n = checked_count(op, count), bytes = n * sizeof(T);
  vector_op<T>(op, dst, bytes, a, bytes, b, bytes, n);
  on_aligned([n, f](T *d, const T *x, const T *y) { map(d, x, y, n, f); }, Operand{dst, bytes},
             Operand{a, bytes}, Operand{b, bytes});
}

template <typename T, typename F>
void unary(const char *op, T *dst, const T *a, int count, F f) {
  size_t n = checked_count(op, count), bytes = n * sizeof(T);
  vector_op<T>(op, dst, bytes, a, bytes, nullptr, 0, n);
  on_aligned(
      [n, f](T *d, const T *x) {
        map(d, x, static_cast<const T *>(nullptr), n, [f](auto v, auto) { return f(v); });
      },
      Operand{dst, bytes}, Operand{a, bytes});
}

template <typename Dst, typename Src, typename F>
void convert(const char *op, Dst *dst, const Src *src, int count, F f) {
  size_t n = checked_count(op, count);
  vector_op<Src, Dst>(op, dst, n * sizeof(Dst), src, n * sizeof(Src), nullptr, 0, n);
  on_aligned(
      [n, f](Dst *d, const Src *s) {
        for (size_t i = 0; i < n; ++i) d[i] = f(s[i]);
      },
      Operand{dst, n * sizeof(Dst)}, Operand{src, n * sizeof(Src)});
}

template <typename T>
Bits<T> bits_of(T x) {
  Bits<T> b;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
template <typename T>
T from_bits(Bits<T> b) {
  T x;
  std::memcpy(&x, &b, sizeof(T));
  return x;
}

// dst[i] = f(bits of a[i], bits of b[i]) (b may be null: 0), on the raw bits
// so that no value passes through a float conversion (which would quiet a
// signalling NaN pattern of half).
template <typename T, typename F>
void map_bits(T *dst, const T *a, const T *b, size_t n, F f) {
  for (size_t i = 0; i < n; ++i)
    dst[i] = from_bits<T>(f(bits_of(a[i]), b != nullptr ? bits_of(b[i]) : Bits<T>(0)));
}

template <typename T, typename F>
void binary_bits(const char *op, T *dst, const T *a, const T *b, int count, F f) {
  size_t n = checked_count(op, count), bytes = n * sizeof(T);
  const size_t b_bytes = b != nullptr ? bytes : 0;
  vector_op<T>(op, dst, bytes, a, bytes, b, b_bytes, n);
  on_aligned([n, f](T *d, const T *x, const T *y) { map_bits(d, x, y, n, f); }, Operand{dst, bytes},
             Operand{a, bytes}, Operand{b, b_bytes});
}

template <typename T>
T from_fixed(double v, int pos) {  // Cambricon fixed point: real = int * 2^pos
  return static_cast<T>(std::ldexp(v, pos));
}

// An integral double in the integer type Dst, clamped to its range; NaN is 0.
template <typename Dst>
Dst saturated(double v) {
  if (std::isnan(v)) return Dst(0);
  if (v >= static_cast<double>(std::numeric_limits<Dst>::max()))
    return std::numeric_limits<Dst>::max();
  if (v <= static_cast<double>(std::numeric_limits<Dst>::min()))
    return std::numeric_limits<Dst>::min();
  return static_cast<Dst>(v);
}

// Rounding of the conversions' suffixes: _rn nearest even, _dn and _rd down
// (toward -inf), _up up, _tz toward zero.
enum class Rounding { kNearestEven, kDown, kUp, kTowardZero };

// The neighbour of x, a binary float type, toward +inf (up) or -inf: from +-0
// the smallest subnormal of that direction, from an infinity stepping toward
// zero the largest finite value.
template <typename F>
F step(F x, bool up) {
  using B = Bits<F>;
  const B sign = static_cast<B>(B(1) << (8 * sizeof(F) - 1));
  B b = bits_of(x);
  if ((b & static_cast<B>(~sign)) == 0)
    b = up ? B(1) : static_cast<B>(sign | 1);
  else if (((b & sign) == 0) == up)
    ++b;  // away from zero
  else
    --b;  // toward zero
  return from_bits<F>(b);
}

// x (float or double) in the narrower binary float type F, rounded as R
// says: past F's range that is an infinity or the largest finite value; NaN
// stays NaN. The host's conversion gives the nearest value; one step fixes it
// for the directed modes.
template <Rounding R, typename F, typename S>
F round_to(S x) {
  static_assert(std::is_floating_point_v<S>, "round_to: from float or double");
  const F nearest = static_cast<F>(x);
  if constexpr (R == Rounding::kNearestEven) {
    return nearest;
  } else {
    const S got = static_cast<S>(nearest);  // exact: F is narrower
    const bool above = got > x, below = got < x;  // both false for NaN
    const bool down = R == Rounding::kDown || (R == Rounding::kTowardZero && x > 0);
    const bool up = R == Rounding::kUp || (R == Rounding::kTowardZero && x < 0);
    if (down && above) return step(nearest, false);
    if (up && below) return step(nearest, true);
    return nearest;
  }
}

// x + y (elements of T, exact in float) rounded toward zero in T, as the
// _tz additions round. The double sum is exact for half but not for every
// pair of floats (1 - 2^-60 is 1.0 in double), so its error (Knuth's
// TwoSum, exact) decides the one case round_to cannot see: a double sum
// that is itself a T while the exact sum lies just nearer zero.
template <typename T>
T sum_toward_zero(float x, float y) {
  static_assert(is_float_or_half<T>, "the _tz additions: mlusim has them for float and half only");
  const double a = x, b = y, s = a + b;
  const double b_part = s - a;
  const double error = (a - (s - b_part)) + (b - b_part);
  const T rounded = round_to<Rounding::kTowardZero, T>(s);
  // An infinite s has no error (inf - inf is NaN): it stays.
  if (!std::isfinite(s) || error == 0 || static_cast<double>(rounded) != s) return rounded;
  return std::signbit(error) == std::signbit(s) ? rounded : step(rounded, s < 0);
}

// x * y for elements of T in a program built for kArch. On the MLU270 a
// float +0 times anything (NaN, infinity, a negative number) is +0, where
// IEEE gives NaN or -0: the guide says nothing of it, but Cambricon's
// int32 <-> float conversions for MLU200 (mlu-ops' __int322float and
// __float2int32, written for and run on MLU270 boards) give the right
// integers only so (docs/bang_c_intrinsics.md, "The MLU270's multiply").
// mlusim follows it where those conversions rely on it, the float
// __bang_cycle_mul and __bang_mul_scalar (or __bang_mul_const), with +0 as
// src; a select, so that the loop stays SIMD.
template <typename T, int kArch, typename X, typename Y>
auto product(X x, Y y) {
  if constexpr (kArch == 270 && std::is_same_v<T, float>)
    return std::bit_cast<uint32_t>(x) == 0 ? 0.0f : x * y;
  else
    return x * y;
}

// dst[i] = src[i] + s, and src[i] * s, under either of BANG C's names: the
// _scalar forms and MLU200's older _const names are one instruction each.
template <typename T, typename S>
void plus_scalar(const char *op, T *dst, const T *src, S s, int count) {
  unary(op, dst, src, count, [s](auto x) { return x + s; });
}
template <typename T, int kArch, typename S>
void times_scalar(const char *op, T *dst, const T *src, S s, int count) {
  unary(op, dst, src, count, [s](auto x) { return product<T, kArch>(x, s); });
}

}  // namespace mlusim::detail

template <typename T>
using bang_scalar_t = std::type_identity_t<T>;  // scalars take the buffer's dtype

// Element-wise arithmetic: dst[i] = a[i] op b[i]. dst may alias a source.
template <typename T>
void __bang_add(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_add", dst, a, b, count, [](auto x, auto y) { return x + y; });
}
// The sum rounded toward zero (float and half).
template <typename T>
void __bang_add_tz(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_add_tz", dst, a, b, count,
                         [](float x, float y) { return mlusim::detail::sum_toward_zero<T>(x, y); });
}
template <typename T>
void __bang_sub(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_sub", dst, a, b, count, [](auto x, auto y) { return x - y; });
}
template <typename T>
void __bang_mul(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_mul", dst, a, b, count, [](auto x, auto y) { return x * y; });
}
template <typename T>
void __bang_maxequal(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_maxequal", dst, a, b, count,
                         [](auto x, auto y) { return x > y ? x : y; });
}
template <typename T>
void __bang_minequal(T *dst, const T *a, const T *b, int count) {
  mlusim::detail::binary("__bang_minequal", dst, a, b, count,
                         [](auto x, auto y) { return x < y ? x : y; });
}

// IEEE 754-2019 extremes of float and half, -0 below +0. __bang_maximum and
// __bang_minimum return the other operand when one is NaN (maximumNumber);
// the __bang_nan_ forms return NaN when either is (maximum).
namespace mlusim::detail {
// Written with selects rather than branches so that the loop over a vector
// compiles to SIMD code.
template <bool kMax, bool kPropagateNan>
float pick_extreme(float a, float b) {
  const bool a_nan = a != a, b_nan = b != b;
  const float ordered = kMax ? (a > b ? a : b) : (a < b ? a : b);
  // Equal values differ at most in the sign of a zero: the maximum has a sign
  // bit only if both have one, the minimum if either has.
  const uint32_t ua = std::bit_cast<uint32_t>(a), ub = std::bit_cast<uint32_t>(b);
  const float tie = std::bit_cast<float>(kMax ? (ua & ub) : (ua | ub));
  const float number = a == b ? tie : ordered;
  if constexpr (kPropagateNan)
    return a_nan ? a : (b_nan ? b : number);
  else
    return a_nan ? b : (b_nan ? a : number);
}
}  // namespace mlusim::detail
#define MLUSIM_EXTREME(name, is_max, propagate_nan)                                      \
  template <typename T>                                                                  \
  void name(T *dst, const T *a, const T *b, int count) {                                 \
    static_assert(mlusim::detail::is_float_or_half<T>,                                   \
                  #name ": mlusim has it for float and half only");                      \
    mlusim::detail::binary(#name, dst, a, b, count, [](float x, float y) {               \
      return mlusim::detail::pick_extreme<is_max, propagate_nan>(x, y);                  \
    });                                                                                  \
  }
MLUSIM_EXTREME(__bang_maximum, true, false)
MLUSIM_EXTREME(__bang_minimum, false, false)
MLUSIM_EXTREME(__bang_nan_maximum, true, true)
MLUSIM_EXTREME(__bang_nan_minimum, false, true)
#undef MLUSIM_EXTREME

// Comparisons and logic produce 1 or 0 in the operands' dtype.
#define MLUSIM_COMPARE(name, expr)                                                  \
  template <typename T>                                                             \
  void __bang_##name(T *dst, const T *a, const T *b, int count) {                   \
    mlusim::detail::binary("__bang_" #name, dst, a, b, count,                       \
                           [](auto x, auto y) { return (expr) ? decltype(x)(1) : decltype(x)(0); });     \
  }                                                                                 \
  template <typename T>                                                             \
  void __bang_##name##_scalar(T *dst, const T *a, bang_scalar_t<T> y, int count) {  \
    mlusim::detail::unary("__bang_" #name "_scalar", dst, a, count,                 \
                          [y](auto x) { return (expr) ? decltype(x)(1) : decltype(x)(0); });          \
  }
// The six comparisons of x and y, for every family that has a form of each
// (here and the _bitindex forms of select.h).
#define MLUSIM_COMPARISONS(form)                                     \
  form(eq, x == y) form(ne, x != y) form(gt, x > y) form(ge, x >= y) \
      form(lt, x < y) form(le, x <= y)
MLUSIM_COMPARISONS(MLUSIM_COMPARE)
MLUSIM_COMPARE(and, x != T(0) && y != T(0))
MLUSIM_COMPARE(or, x != T(0) || y != T(0))
#undef MLUSIM_COMPARE

template <typename T>
void __bang_not(T *dst, const T *a, int count) {
  mlusim::detail::unary("__bang_not", dst, a, count,
                        [](T x) -> T { return x == T(0) ? T(1) : T(0); });
}

// Bitwise operations on the raw bits (BANG callers often pass int8 views and byte counts).
#define MLUSIM_BITWISE(name, op)                                                           \
  template <typename T>                                                                    \
  void __bang_##name(T *dst, const T *a, const T *b, int count) {                          \
    mlusim::detail::binary_bits("__bang_" #name, dst, a, b, count,                         \
                                [](auto p, auto q) { return p op q; });                    \
  }
MLUSIM_BITWISE(band, &)
MLUSIM_BITWISE(bor, |)
MLUSIM_BITWISE(bxor, ^)
#undef MLUSIM_BITWISE
template <typename T>
void __bang_band_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  const auto mask = mlusim::detail::bits_of<T>(s);
  mlusim::detail::binary_bits("__bang_band_scalar", dst, src, static_cast<const T *>(nullptr),
                              count, [mask](auto p, auto) { return p & mask; });
}
template <typename T>
void __bang_bnot(T *dst, const T *src, int count) {
  mlusim::detail::binary_bits("__bang_bnot", dst, src, static_cast<const T *>(nullptr), count,
                              [](auto p, auto) { return static_cast<decltype(p)>(~p); });
}
// Logical shift right of integers: zeros come in from the top, whatever T's
// sign; a shift by the width or more leaves 0.
template <typename T>
void __bang_srl(T *dst, const T *src, int shift, int count) {
  static_assert(std::is_integral_v<T>, "__bang_srl: integer dtypes only");
  if (shift < 0)
    mlusim::detail::fault(mlusim::this_core(),
                          "__bang_srl: negative shift " + std::to_string(shift));
  const unsigned by = static_cast<unsigned>(shift);
  mlusim::detail::binary_bits("__bang_srl", dst, src, static_cast<const T *>(nullptr), count,
                              [by](auto p, auto) {
                                using B = decltype(p);
                                return by >= 8 * sizeof(B) ? B(0) : static_cast<B>(p >> by);
                              });
}

// Scalar forms: dst[i] = src[i] op s.
template <typename T>
void __bang_add_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::plus_scalar("__bang_add_scalar", dst, src, s, count);
}
template <typename T>
void __bang_sub_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::unary("__bang_sub_scalar", dst, src, count, [s](auto x) { return x - s; });
}
// kArch, the program's __BANG_ARCH__, is a template argument: programs built
// for different architectures and linked together keep their own products.
template <typename T, int kArch = mlusim::bang::kTargetArch>
void __bang_mul_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::times_scalar<T, kArch>("__bang_mul_scalar", dst, src, s, count);
}
template <typename T>
void __bang_maxeq_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::unary("__bang_maxeq_scalar", dst, src, count,
                        [s](auto x) { return x > s ? x : s; });
}
template <typename T>
void __bang_mineq_scalar(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::unary("__bang_mineq_scalar", dst, src, count,
                        [s](auto x) { return x < s ? x : s; });
}

namespace mlusim::detail {
// dst[i] = f(src[i], cyc[i % cyc_count]); count must be a multiple of
// cyc_count. Arithmetic goes a row of cyc at a time through map(), which
// takes half a block at a time through float (one rounding, as the
// element-wise half operation: see map()); comparisons and picks go element
// by element in the operands' type.
template <bool kArithmetic, typename T, typename F>
void cycle(const char *op, T *dst, const T *src, const T *cyc, int count, int cyc_count, F f) {
  const size_t n = checked_count(op, count), m = checked_count(op, cyc_count);
  if (m == 0 || n % m != 0)
    fault(this_core(), std::string(op) + ": count " + std::to_string(n) +
                           " is not a multiple of cyc_count " + std::to_string(m));
  vector_op<T>(op, dst, n * sizeof(T), src, n * sizeof(T), cyc, m * sizeof(T), n);
  on_aligned(
      [n, m, f](T *d, const T *s, const T *y) {
        for (size_t row = 0; row < n; row += m) {  // no division per element
          if constexpr (kArithmetic)
            map(d + row, s + row, y, m, f);
          else
            for (size_t j = 0; j < m; ++j) d[row + j] = f(s[row + j], y[j]);
        }
      },
      Operand{dst, n * sizeof(T)}, Operand{src, n * sizeof(T)}, Operand{cyc, m * sizeof(T)});
}
}  // namespace mlusim::detail

// kArch as in __bang_mul_scalar: the products depend on it.
#define MLUSIM_CYCLE(name, arithmetic, expr)                                              \
  template <typename T, int kArch = mlusim::bang::kTargetArch>                            \
  void __bang_cycle_##name(T *dst, const T *src, const T *cyc, int count, int cyc_count) { \
    mlusim::detail::cycle<arithmetic>("__bang_cycle_" #name, dst, src, cyc, count,        \
                                      cyc_count, [](auto x, auto y) { return expr; });    \
  }
#define MLUSIM_CYCLE_BITS(name, op)                                                       \
  MLUSIM_CYCLE(name, false,                                                               \
               mlusim::detail::from_bits<T>(mlusim::detail::bits_of(x) op                 \
                                            mlusim::detail::bits_of(y)))
MLUSIM_CYCLE(add, true, x + y)
MLUSIM_CYCLE(add_tz, true, mlusim::detail::sum_toward_zero<T>(x, y))
MLUSIM_CYCLE(sub, true, x - y)
MLUSIM_CYCLE(mul, true, (mlusim::detail::product<T, kArch>(x, y)))
MLUSIM_CYCLE(maxequal, false, x > y ? x : y)
MLUSIM_CYCLE(minequal, false, x < y ? x : y)
MLUSIM_CYCLE(eq, false, x == y ? T(1) : T(0))
MLUSIM_CYCLE(ne, false, x != y ? T(1) : T(0))
MLUSIM_CYCLE(gt, false, x > y ? T(1) : T(0))
MLUSIM_CYCLE(ge, false, x >= y ? T(1) : T(0))
MLUSIM_CYCLE(lt, false, x < y ? T(1) : T(0))
MLUSIM_CYCLE(le, false, x <= y ? T(1) : T(0))
MLUSIM_CYCLE(and, false, x != T(0) && y != T(0) ? T(1) : T(0))
MLUSIM_CYCLE_BITS(band, &)
MLUSIM_CYCLE_BITS(bor, |)
#undef MLUSIM_CYCLE_BITS
#undef MLUSIM_CYCLE

namespace mlusim::detail {
// MLU500's channel expansion (mlu-ops r1.11's ms_deform_attn for mtp_592):
// dst[i][j] = a[i] * b[i][j] (+ add[i][j]) over `rows` rows of `channels`
// elements. Cambricon documents neither; mlu-ops' comments give the shapes
// ("value_wp (qlpc) <= tmp_wp (1,qlp,1,1) x ones (c,1,1,1) * value (qlpc) +
// value_wp (qlpc)"), and its kernels pass a WRAM buffer as the device's
// scratch, which mlusim neither reads nor writes. One vector instruction;
// half computed in float and rounded once.
template <typename T>
void expand_channel_mul(const char *op, T *dst, const T *a, const T *b, const T *add, int rows,
                        int channels) {
  const size_t n = checked_count(op, rows), c = checked_count(op, channels), all = n * c;
  if (add != nullptr) {
    require_vector_operand(this_core(), op, "src2", add, all * sizeof(T));
    check_read(this_core(), op, add, all * sizeof(T));
  }
  vector_op<T>(op, dst, all * sizeof(T), b, all * sizeof(T), a, n * sizeof(T), all);
  on_aligned(
      [n, c](T *d, const T *x, const T *y, const T *z) {
        using Wide = std::conditional_t<std::is_same_v<T, half>, float, T>;
        for (size_t i = 0; i < n; ++i)
          for (size_t j = 0; j < c; ++j) {
            Wide v = static_cast<Wide>(y[i]) * static_cast<Wide>(x[i * c + j]);
            if (z != nullptr) v += static_cast<Wide>(z[i * c + j]);
            d[i * c + j] = static_cast<T>(v);
          }
      },
      Operand{dst, all * sizeof(T)}, Operand{b, all * sizeof(T)}, Operand{a, n * sizeof(T)},
      Operand{add, add != nullptr ? all * sizeof(T) : 0});
}
}  // namespace mlusim::detail

template <typename T>
void __bang_expand_channel_mul(T *dst, const T *a, T *wram, const T *b, int rows, int channels) {
  (void)wram;
  mlusim::detail::expand_channel_mul<T>("__bang_expand_channel_mul", dst, a, b, nullptr, rows,
                                        channels);
}
template <typename T>
void __bang_expand_channel_mul_add(T *dst, const T *a, T *wram, const T *b, const T *add,
                                   int rows, int channels) {
  (void)wram;
  mlusim::detail::expand_channel_mul<T>("__bang_expand_channel_mul_add", dst, a, b, add, rows,
                                        channels);
}

// Fills count elements of the *value's* dtype, as BANG does: pass (T)0, not 0,
// to fill a half buffer.
template <typename V>
void __bang_write_value(void *dst, int count, V value) {
  const char *op = "__bang_write_value";
  size_t n = mlusim::detail::checked_count(op, count);
  mlusim::detail::vector_op<V>(op, dst, n * sizeof(V), nullptr, 0, nullptr, 0, n);
  mlusim::detail::on_aligned(
      [n, value](V *d) {
        for (size_t i = 0; i < n; ++i) d[i] = value;
      },
      mlusim::detail::Operand{static_cast<V *>(dst), n * sizeof(V)});
}
template <typename T>
void __bang_write_zero(T *dst, int count) {
  __bang_write_value(dst, count, T(0));
}

namespace mlusim::detail {
// dst = src (rows x cols, row-major) transposed, elements of 1, 2, 4 or 8
// bytes (runtime/bang/transpose.cpp).
void transpose(void *dst, const void *src, size_t rows, size_t cols, size_t element_bytes);
}  // namespace mlusim::detail

// src is rows x cols (row-major); dst becomes cols x rows. No in-place.
template <typename T>
void __bang_transpose(T *dst, const T *src, int rows, int cols) {
  const char *op = "__bang_transpose";
  auto &c = mlusim::this_core();
  size_t r = mlusim::detail::checked_count(op, rows), k = mlusim::detail::checked_count(op, cols);
  if ((r * sizeof(T)) % c.rules.transpose_align != 0 ||
      (k * sizeof(T)) % c.rules.transpose_align != 0)
    mlusim::detail::fault(c, std::string(op) + ": rows*sizeof(T) = " +
                                 std::to_string(r * sizeof(T)) + " and cols*sizeof(T) = " +
                                 std::to_string(k * sizeof(T)) + " must be multiples of " +
                                 std::to_string(c.rules.transpose_align) + " bytes");
  size_t bytes = r * k * sizeof(T);
  mlusim::detail::require_apart(op, dst, src, bytes);
  mlusim::detail::vector_op<T>(op, dst, bytes, src, bytes, nullptr, 0, r * k);
  static_assert(sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0);
  mlusim::detail::on_aligned(
      [r, k](T *d, const T *s) { mlusim::detail::transpose(d, s, r, k, sizeof(T)); },
      mlusim::detail::Operand{dst, bytes}, mlusim::detail::Operand{src, bytes});
}

// Type conversions. Fixed-point positions follow Cambricon: real = int * 2^pos.
inline void __bang_float2half_rn(half *dst, const float *src, int count) {
  mlusim::detail::convert("__bang_float2half_rn", dst, src, count,
                          [](float x) { return static_cast<half>(x); });
}
inline void __bang_float2half(half *dst, const float *src, int count) {
  __bang_float2half_rn(dst, src, count);
}
// Float to a narrower float with the suffix's rounding (Rounding above).
#define MLUSIM_ROUNDED(name, Dst, Src, mode)                                            \
  inline void name(Dst *dst, const Src *src, int count) {                               \
    mlusim::detail::convert(#name, dst, src, count, [](Src x) {                         \
      return mlusim::detail::round_to<mlusim::detail::Rounding::mode, Dst>(x);          \
    });                                                                                 \
  }
MLUSIM_ROUNDED(__bang_float2half_dn, half, float, kDown)
MLUSIM_ROUNDED(__bang_float2half_rd, half, float, kDown)
MLUSIM_ROUNDED(__bang_float2half_tz, half, float, kTowardZero)
MLUSIM_ROUNDED(__bang_float2bfloat16_rn, bfloat16_t, float, kNearestEven)
MLUSIM_ROUNDED(__bang_float2bfloat16_tz, bfloat16_t, float, kTowardZero)
#undef MLUSIM_ROUNDED
inline void __bang_bfloat162float(float *dst, const bfloat16_t *src, int count) {
  mlusim::detail::convert("__bang_bfloat162float", dst, src, count,
                          [](bfloat16_t x) { return static_cast<float>(x); });
}
inline void __bang_half2float(float *dst, const half *src, int count) {
  mlusim::detail::convert("__bang_half2float", dst, src, count,
                          [](half x) { return static_cast<float>(x); });
}
inline void __bang_int322float(float *dst, const int32_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int322float", dst, src, count, [pos](int32_t x) {
    return mlusim::detail::from_fixed<float>(x, pos);
  });
}
// int32 x 2^pos to float: an int32 above 2^24 in magnitude needs rounding.
#define MLUSIM_INT322FLOAT(name, mode)                                                  \
  inline void name(float *dst, const int32_t *src, int count, int pos) {                \
    mlusim::detail::convert(#name, dst, src, count, [pos](int32_t x) {                  \
      return mlusim::detail::round_to<mlusim::detail::Rounding::mode, float>(           \
          std::ldexp(static_cast<double>(x), pos));                                     \
    });                                                                                 \
  }
MLUSIM_INT322FLOAT(__bang_int322float_rn, kNearestEven)
MLUSIM_INT322FLOAT(__bang_int322float_rd, kDown)
#undef MLUSIM_INT322FLOAT
inline void __bang_int322half(half *dst, const int32_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int322half", dst, src, count, [pos](int32_t x) {
    return mlusim::detail::from_fixed<half>(x, pos);
  });
}
inline void __bang_int82float(float *dst, const int8_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int82float", dst, src, count, [pos](int8_t x) {
    return mlusim::detail::from_fixed<float>(x, pos);
  });
}
inline void __bang_int82half(half *dst, const int8_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int82half", dst, src, count, [pos](int8_t x) {
    return mlusim::detail::from_fixed<half>(x, pos);
  });
}
inline void __bang_int162float(float *dst, const int16_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int162float", dst, src, count, [pos](int16_t x) {
    return mlusim::detail::from_fixed<float>(x, pos);
  });
}
inline void __bang_int162half(half *dst, const int16_t *src, int count, int pos) {
  mlusim::detail::convert("__bang_int162half", dst, src, count, [pos](int16_t x) {
    return mlusim::detail::from_fixed<half>(x, pos);
  });
}
// Float to integer: _rn to nearest even, _tz toward zero, _rd down. Saturates.
#define MLUSIM_TO_INT(name, Dst, Src, rounding)                                        \
  inline void name(Dst *dst, const Src *src, int count, int pos) {                     \
    mlusim::detail::convert(#name, dst, src, count, [pos](Src x) {                     \
      return mlusim::detail::saturated<Dst>(                                           \
          rounding(std::ldexp(static_cast<double>(x), -pos)));                         \
    });                                                                                \
  }
MLUSIM_TO_INT(__bang_float2int32, int32_t, float, std::nearbyint)
MLUSIM_TO_INT(__bang_float2int32_rn, int32_t, float, std::nearbyint)
MLUSIM_TO_INT(__bang_float2int32_tz, int32_t, float, std::trunc)
MLUSIM_TO_INT(__bang_float2int32_rd, int32_t, float, std::floor)
MLUSIM_TO_INT(__bang_float2int16_rd, int16_t, float, std::floor)
MLUSIM_TO_INT(__bang_float2int16_tz, int16_t, float, std::trunc)
MLUSIM_TO_INT(__bang_half2int16_rd, int16_t, half, std::floor)
MLUSIM_TO_INT(__bang_half2int16_tz, int16_t, half, std::trunc)
MLUSIM_TO_INT(__bang_half2int32_rd, int32_t, half, std::floor)
MLUSIM_TO_INT(__bang_float2int16_dn, int16_t, float, std::floor)
MLUSIM_TO_INT(__bang_half2int16_dn, int16_t, half, std::floor)
MLUSIM_TO_INT(__bang_float2int8_rd, int8_t, float, std::floor)
MLUSIM_TO_INT(__bang_float2int8_dn, int8_t, float, std::floor)
MLUSIM_TO_INT(__bang_half2int8_rd, int8_t, half, std::floor)
MLUSIM_TO_INT(__bang_half2int8_dn, int8_t, half, std::floor)
MLUSIM_TO_INT(__bang_half2int32_tz, int32_t, half, std::trunc)
#undef MLUSIM_TO_INT
inline void __bang_int322int16(int16_t *dst, const int32_t *src, int count, int dst_pos,
                               int src_pos) {
  mlusim::detail::convert("__bang_int322int16", dst, src, count, [=](int32_t x) {
    long long v = static_cast<long long>(std::ldexp(static_cast<double>(x), src_pos - dst_pos));
    return static_cast<int16_t>(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
  });
}

// dst[i] = table[idx[i]], table of table_len entries (BANG: 64); an index
// outside the table leaves dst[i] as it was (noted). The indices
// are T itself or integers of T's width (mlu-ops passes uint16_t or uint32_t
// indices with int16_t or int32_t tables).
template <typename T, typename I>
void __bang_lut(T *dst, const I *idx, const T *table, int count, int table_len) {
  static_assert(std::is_same_v<I, T> || (std::is_integral_v<I> && sizeof(I) == sizeof(T)),
                "__bang_lut: the indices are T or an integer type of T's width");
  const char *op = "__bang_lut";
  size_t n = mlusim::detail::checked_count(op, count);
  size_t m = mlusim::detail::checked_count(op, table_len);
  mlusim::detail::vector_op<T>(op, dst, n * sizeof(T), idx, n * sizeof(I), table,
                               m * sizeof(T), n);
  mlusim::detail::on_aligned(
      [n, m](T *d, const I *index, const T *entries) {
        size_t outside = n;  // the first element whose index is outside the table
        for (size_t i = 0; i < n; ++i) {
          const auto k = static_cast<long long>(index[i]);
          if (k >= 0 && static_cast<size_t>(k) < m)
            d[i] = entries[k];
          else if (outside == n)
            outside = i;
        }
        if (outside != n) [[unlikely]]
          mlusim::detail::note_lut_index_outside(
              mlusim::this_core(), static_cast<long long>(index[outside]), outside, m);
      },
      mlusim::detail::Operand{dst, n * sizeof(T)}, mlusim::detail::Operand{idx, n * sizeof(I)},
      mlusim::detail::Operand{table, m * sizeof(T)});
}

namespace mlusim::detail {
// Packs the src elements whose mask is non-zero to the front of dst; returns
// how many. dst may be src (each element moves down or stays).
template <typename T>
unsigned collect(const char *op, T *dst, const T *src, const T *mask, int count) {
  size_t n = checked_count(op, count), bytes = n * sizeof(T);
  vector_op<T>(op, dst, bytes, src, bytes, mask, bytes, n);
  await_result(this_core(), kVectorPipe, op);
  return on_aligned(
      [n](T *d, const T *s, const T *m) {
        unsigned kept = 0;
        for (size_t i = 0; i < n; ++i)
          if (m[i] != T(0)) d[kept++] = s[i];
        return kept;
      },
      Operand{dst, bytes}, Operand{src, bytes}, Operand{mask, bytes});
}
}  // namespace mlusim::detail

template <typename T>
unsigned __bang_collect(T *dst, const T *src, const T *mask, int count) {
  return mlusim::detail::collect("__bang_collect", dst, src, mask, count);
}
template <typename T>
unsigned __bang_select(T *dst, const T *src, const T *mask, int count) {
  return mlusim::detail::collect("__bang_select", dst, src, mask, count);
}
// The MLU300 name: dst past the kept count keeps what it held.
template <typename T>
unsigned __bang_filter(T *dst, const T *src, const T *mask, int count) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_filter: mlusim has it for float and half only");
  return mlusim::detail::collect("__bang_filter", dst, src, mask, count);
}

// The older names of the scalar forms (MLU200-era programs).
template <typename T, int kArch = mlusim::bang::kTargetArch>
void __bang_mul_const(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::times_scalar<T, kArch>("__bang_mul_const", dst, src, s, count);
}
template <typename T>
void __bang_add_const(T *dst, const T *src, bang_scalar_t<T> s, int count) {
  mlusim::detail::plus_scalar("__bang_add_const", dst, src, s, count);
}

template <typename T>
void __bang_square(T *dst, const T *src, int count) {
  mlusim::detail::unary("__bang_square", dst, src, count, [](auto x) { return x * x; });
}

// Bytes to half and back; _dn rounds down, saturating to [0, 255].
inline void __bang_uchar2half(half *dst, const uint8_t *src, int count) {
  mlusim::detail::convert("__bang_uchar2half", dst, src, count,
                          [](uint8_t x) { return static_cast<half>(x); });
}
inline void __bang_half2uchar_dn(uint8_t *dst, const half *src, int count) {
  mlusim::detail::convert("__bang_half2uchar_dn", dst, src, count, [](half x) {
    const float v = std::floor(static_cast<float>(x));
    return static_cast<uint8_t>(std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 255.0f));
  });
}

// dst[i] = i for 32- and 64-bit integers.
template <typename T>
void __bang_incseq(T *dst, int count) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "__bang_incseq: 32- and 64-bit integer dtypes");
  const char *op = "__bang_incseq";
  const size_t n = mlusim::detail::checked_count(op, count);
  mlusim::detail::vector_op<T>(op, dst, n * sizeof(T), nullptr, 0, nullptr, 0, n);
  mlusim::detail::on_aligned(
      [n](T *d) {
        for (size_t i = 0; i < n; ++i) d[i] = static_cast<T>(i);
      },
      mlusim::detail::Operand{dst, n * sizeof(T)});
}

// dst[i] = src[i] % divisor, C's remainder (the sign of src[i]): integers,
// and float (mlu-ops r1.11's fft on MLU500 takes the remainder of
// non-negative float offsets, where fmod and a floored remainder agree;
// **guess** for negative elements: fmod).
template <typename T>
void __bang_rem(T *dst, const T *src, bang_scalar_t<T> divisor, int count) {
  static_assert(std::is_integral_v<T> || std::is_same_v<T, float>,
                "__bang_rem: integer dtypes and float");
  if (divisor == 0) mlusim::detail::fault(mlusim::this_core(), "__bang_rem: divisor 0");
  mlusim::detail::unary("__bang_rem", dst, src, count, [divisor](T x) -> T {
    if constexpr (std::is_same_v<T, float>) {
      return std::fmod(x, divisor);
    } else {
      if constexpr (std::is_signed_v<T>)
        if (divisor == -1) return T(0);  // INT_MIN % -1 would trap on the host
      return static_cast<T>(x % divisor);
    }
  });
}

// Copies `bytes` bytes within NRAM on the vector unit (dst may overlap src).
inline void __bang_move(void *dst, const void *src, int bytes) {
  const char *op = "__bang_move";
  const size_t n = mlusim::detail::checked_count(op, bytes);
  mlusim::detail::vector_op<int8_t>(op, dst, n, src, n, nullptr, 0, n);
  std::memmove(dst, src, n);
}
// `segments` segments of `size` bytes, dst_stride and src_stride apart
// (mlu-ops r1.11's fft interleaves cos and sin so: `segments` is the count,
// as its pad_col elements are, not one less as a copy's segnum is).
inline void __bang_move(void *dst, const void *src, int size, int dst_stride, int src_stride,
                        int segments) {
  const char *op = "__bang_move";
  const size_t n = mlusim::detail::checked_count(op, size),
               k = mlusim::detail::checked_count(op, segments),
               ds = mlusim::detail::checked_count(op, dst_stride),
               ss = mlusim::detail::checked_count(op, src_stride);
  if (k == 0) return;
  const size_t dst_extent = (k - 1) * ds + n, src_extent = (k - 1) * ss + n;
  mlusim::detail::vector_op<int8_t>(op, dst, dst_extent, src, src_extent, nullptr, 0, n * k);
  auto *to = static_cast<std::byte *>(dst);
  const auto *from = static_cast<const std::byte *>(src);
  for (size_t i = 0; i < k; ++i) std::memmove(to + i * ds, from + i * ss, n);
}
