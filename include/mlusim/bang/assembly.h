// What mlusim-cncc turns inline MLISA assembly of device code into
// (tools/cncc/mlisa.h lists the instructions): each checks its operands and
// charges the core as the vector intrinsics do (include/mlusim/bang/vector.h).
// The meanings are those mlu-ops' kernels rely on where they write the
// instructions: the comments next to them and the intrinsic code they replace
// on other architectures.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "mlusim/bang/vector.h"

namespace mlusim::bang {

// findlast1.gpr.b32: the index of the highest set bit (mlu-ops:
// "base_num = 2^exp"; findlast1 of a count c gives the largest power of two
// not above it, which the doubling loop after it needs). Of 0 the device's
// answer is not known: a fault.
inline uint32_t asm_findlast1(uint32_t x) {
  if (x == 0)
    ::mlusim::detail::fault(this_core(), "findlast1.gpr.b32 of 0: mlusim does not know its result");
  return 31u - static_cast<uint32_t>(std::countl_zero(x));
}

// The operations of a fuse chain. Comparisons give 1 or 0 of the element type
// (mutual_information's ".ge(...), .mul(-1), .and([x])" keeps x where the test
// holds); and, or, xor are bitwise, on integer types only; div (of
// div.scalar) on floating-point types only.
enum class FuseOp : uint8_t { kAdd, kSub, kMul, kDiv, kEq, kNe, kLt, kLe, kGt, kGe, kAnd, kOr, kXor };

template <typename T>
struct FuseStep {
  FuseOp op;
  const T *vector;  // an NRAM vector, or null: the scalar
  T scalar;
};

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T> || std::is_same_v<T, _Float16>;

// A register operand as an instruction on T reads it: a number of the same
// kind converts; an integer register read as floating point (or back) keeps
// its bits, as a register does.
template <typename T, typename S>
T register_value(const S &s) {
  using V = std::remove_cvref_t<S>;
  if constexpr (kFloating<T> == kFloating<V> || !std::is_arithmetic_v<V>) {
    return static_cast<T>(s);
  } else {
    static_assert(sizeof(T) == sizeof(V), "mlusim: an asm register operand of another size");
    return std::bit_cast<T>(s);
  }
}

template <typename T, typename S>
FuseStep<T> fuse_scalar(FuseOp op, const S &s) {
  return {op, nullptr, register_value<T>(s)};
}
template <typename T>
FuseStep<T> fuse_vector(FuseOp op, const void *v) {
  return {op, static_cast<const T *>(v), T{}};
}

namespace assembly {

// What a step computes in: float for floating-point T (rounded to T after
// each step), the unsigned integer of T's width otherwise (so it wraps, as the
// device's integer arithmetic does).
template <typename T>
auto computed_as() {
  if constexpr (kFloating<T>) return float{};
  else return std::make_unsigned_t<T>{};
}

template <typename T>
T fuse_apply(FuseOp op, T a, T b) {
  using C = decltype(computed_as<T>());
  const C x = static_cast<C>(a), y = static_cast<C>(b);
  switch (op) {
    case FuseOp::kAdd: return static_cast<T>(x + y);
    case FuseOp::kSub: return static_cast<T>(x - y);
    case FuseOp::kMul: return static_cast<T>(x * y);
    case FuseOp::kDiv:
      if constexpr (kFloating<T>) return static_cast<T>(x / y);
      break;
    case FuseOp::kEq: return static_cast<T>(a == b);
    case FuseOp::kNe: return static_cast<T>(a != b);
    case FuseOp::kLt: return static_cast<T>(a < b);
    case FuseOp::kLe: return static_cast<T>(a <= b);
    case FuseOp::kGt: return static_cast<T>(a > b);
    case FuseOp::kGe: return static_cast<T>(a >= b);
    case FuseOp::kAnd:
      if constexpr (!kFloating<T>) return static_cast<T>(x & y);
      break;
    case FuseOp::kOr:
      if constexpr (!kFloating<T>) return static_cast<T>(x | y);
      break;
    case FuseOp::kXor:
      if constexpr (!kFloating<T>) return static_cast<T>(x ^ y);
      break;
  }
  return T{};
}

// out[i] = in[i], then each step in order on it.
template <typename T>
void fuse_chain(T *out, const T *in, size_t n, const FuseStep<T> *steps, size_t step_count) {
  for (size_t i = 0; i < n; ++i) {
    T acc = in[i];
    for (const FuseStep<T> *s = steps; s != steps + step_count; ++s)
      acc = fuse_apply(s->op, acc, s->vector != nullptr ? s->vector[i] : s->scalar);
    out[i] = acc;
  }
}

// The chain on aligned copies of its operands (detail/unaligned.h), for an
// operand off its element's alignment.
template <typename T>
[[gnu::noinline]] void fuse_chain_on_copies(void *dst, const void *src, size_t n,
                                          std::initializer_list<FuseStep<T>> steps) {
  using ::mlusim::detail::StagedOperand;
  const ::mlusim::detail::HeapHeld held(this_core());
  const size_t bytes = n * sizeof(T);
  std::vector<StagedOperand> staged{
      {reinterpret_cast<uintptr_t>(dst), bytes, alignof(T), true, 0},
      {reinterpret_cast<uintptr_t>(src), bytes, alignof(T), false, 0}};
  for (const FuseStep<T> &s : steps)
    staged.push_back({reinterpret_cast<uintptr_t>(s.vector), s.vector != nullptr ? bytes : 0,
                      alignof(T), false, 0});
  const ::mlusim::detail::Staging staging(this_core(), staged.data(), staged.size());
  std::vector<FuseStep<T>> on_copies(steps);
  for (size_t i = 0; i < on_copies.size(); ++i)
    if (on_copies[i].vector != nullptr)
      on_copies[i].vector = reinterpret_cast<const T *>(staged[2 + i].copy);
  fuse_chain(reinterpret_cast<T *>(staged[0].copy), reinterpret_cast<const T *>(staged[1].copy), n,
             on_copies.data(), on_copies.size());
  staging.write_back();
}

}  // namespace assembly

// fuse.nram.<t> [dst], count, [src], .op(x), ... (and div.scalar.nram.<t>, a
// one-step chain): dst[i] = src[i], then each step in order on it. One vector
// instruction reading src and every vector step operand, writing dst (its
// start waits for earlier instructions writing src or the first vector step
// operand; the others are checked against unfenced copies only).
template <typename T>
void asm_fuse(const char *instruction, void *dst, int count, const void *src,
              std::initializer_list<FuseStep<T>> steps) {
  CoreContext &c = this_core();
  const size_t n = ::mlusim::detail::checked_count(instruction, count), bytes = n * sizeof(T);
  const T *first_vector = nullptr;
  uintptr_t starts = reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src);
  for (const FuseStep<T> &s : steps) {
    if (s.vector == nullptr) continue;
    require_vector_operand(c, instruction, "step operand", s.vector, bytes);
    check_read(c, instruction, s.vector, bytes);
    if (first_vector == nullptr) first_vector = s.vector;
    starts |= reinterpret_cast<uintptr_t>(s.vector);
  }
  ::mlusim::detail::vector_op<T>(instruction, dst, bytes, src, bytes, first_vector,
                       first_vector != nullptr ? bytes : 0, n);
  if ((starts & (alignof(T) - 1)) == 0) [[likely]]
    assembly::fuse_chain(static_cast<T *>(dst), static_cast<const T *>(src), n, steps.begin(),
                         steps.size());
  else
    assembly::fuse_chain_on_copies(dst, src, n, steps);
}

// gather.vector.nram.nram.nram.u32 [dst], [src], [offsets], size, count,
// stride: `size` bytes from src + offsets[i] bytes to dst + i * stride, for
// each of `count` uint32 offsets (mlu-ops r1.11's fft on MLU500 moves one
// float each: size 4, stride 4). Every byte read must lie in NRAM.
inline void asm_gather(const char *instruction, void *dst, const void *src, const void *offsets,
                       int size, int count, int stride) {
  CoreContext &c = this_core();
  const size_t n = ::mlusim::detail::checked_count(instruction, count);
  const size_t each = ::mlusim::detail::checked_count(instruction, size);
  const size_t step = ::mlusim::detail::checked_count(instruction, stride);
  const size_t dst_bytes = n == 0 ? 0 : (n - 1) * step + each;
  ::mlusim::detail::vector_op<uint32_t>(instruction, dst, dst_bytes, offsets,
                                        n * sizeof(uint32_t), nullptr, 0, n);
  // Offsets and dst move by bytes: they may start anywhere.
  const auto offset = [offsets](size_t i) {
    uint32_t o;
    std::memcpy(&o, static_cast<const std::byte *>(offsets) + i * sizeof(o), sizeof(o));
    return o;
  };
  for (size_t i = 0; i < n; ++i) {
    const std::byte *p = static_cast<const std::byte *>(src) + offset(i);
    require_onchip(c, instruction, "src", Space::kNram, p, each);
    check_read(c, instruction, p, each);
  }
  for (size_t i = 0; i < n; ++i)
    std::memcpy(static_cast<std::byte *>(dst) + i * step,
                static_cast<const std::byte *>(src) + offset(i), each);
}

// gather.clean.nram.nram.nram.b32.u32 [dst], [src], [offsets], count:
// dst[i] = the 32 bits at src + offsets[i] bytes (fft: "offset should mul
// sizeof(float)").
inline void asm_gather_b32(const char *instruction, void *dst, const void *src,
                           const void *offsets, int count) {
  asm_gather(instruction, dst, src, offsets, sizeof(uint32_t), count, sizeof(uint32_t));
}

}  // namespace mlusim::bang
