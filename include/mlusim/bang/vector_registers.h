// BANG C's vector registers: __mlu_vector__ functions, the vv_* register types
// and the __vv_* intrinsics, as mlu-ops' kernels/utils/common.h uses them for
// mtp_372 (__mluop_get_indices, __mluop_arange_vv_: an arange written one
// register at a time). A register holds __vv_get_length() bytes, 256: mlu-ops
// stores eight registers as one 2048-byte block ("GuGenSize"). Each
// intrinsic is one instruction on the vector pipe (latency plus 256 bytes at
// the vector unit's width); __vv_load and __vv_store check their NRAM range
// as vector operands are checked. The integer operations (and, or, xor,
// trixor, mulh) are those of mlu-ops' Philox generator.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/target.h"
#include "mlusim/bang/vector.h"

#ifndef __MLUSIM_CNCC__  // mlusim-cncc translates the qualifier itself
#define __mlu_vector__ inline
#endif

namespace mlusim::bang {
constexpr unsigned kVectorRegisterBytes = 256;
}  // namespace mlusim::bang

// A vector register holding elements of T.
template <typename T>
struct mlusim_vector_register {
  static constexpr unsigned kLanes = mlusim::bang::kVectorRegisterBytes / sizeof(T);
  T lanes[kLanes];
};
typedef mlusim_vector_register<float> vv_float;
typedef mlusim_vector_register<_Float16> vv_half;
typedef mlusim_vector_register<int32_t> vv_int32;
typedef mlusim_vector_register<uint32_t> vv_uint32;
typedef mlusim_vector_register<int16_t> vv_int16;
typedef mlusim_vector_register<uint16_t> vv_uint16;
typedef mlusim_vector_register<int8_t> vv_int8;
typedef mlusim_vector_register<uint8_t> vv_uint8;

namespace mlusim::bang::registers {

template <typename T>
using Register = mlusim_vector_register<T>;

// One register instruction touching `memory` (a load's source, a store's
// destination; none for register arithmetic).
template <typename T>
void issue(const char *op, const void *memory_write, const void *memory_read, size_t bytes) {
  CoreContext &c = this_core();
  const Access a = access_of(memory_write, memory_write ? bytes : 0, memory_read,
                             memory_read ? bytes : 0, nullptr, 0);
  ::mlusim::detail::charge_vector<T>(c, op, a, kVectorRegisterBytes, Register<T>::kLanes);
}

// A count of lanes a load or store moves: at most a register's.
template <typename T>
size_t lanes(const char *op, unsigned count) {
  if (count > Register<T>::kLanes)
    ::mlusim::detail::fault(this_core(), std::string(op) + ": " + std::to_string(count) +
                                   " elements, a register holds " +
                                   std::to_string(Register<T>::kLanes));
  return count;
}

// The `count` lanes a store writes to (or a load reads from) NRAM at p:
// checked, issued; their bytes.
template <typename T>
size_t nram_lanes(const char *op, const T *p, unsigned count, bool store) {
  const size_t bytes = lanes<T>(op, count) * sizeof(T);
  CoreContext &c = this_core();
  require_onchip(c, op, store ? "dst" : "src", Space::kNram, p, bytes);
  if (store) check_write(c, op, p, bytes);
  else check_read(c, op, p, bytes);
  issue<T>(op, store ? p : nullptr, store ? nullptr : p, bytes);
  return bytes;
}

// What a lane computes in: float for half (rounded back), the unsigned type
// of T's width for integers (so it wraps), T otherwise.
template <typename T>
auto computed_as() {
  if constexpr (std::is_same_v<T, _Float16>) return float{};
  else if constexpr (std::is_integral_v<T>) return std::make_unsigned_t<T>{};
  else return T{};
}
template <typename T>
using Computed = decltype(computed_as<T>());

// An operand of a register operation: a register's lane, or a scalar in every lane.
template <typename T, typename B>
Computed<T> lane(const B &b, unsigned i) {
  if constexpr (std::is_same_v<B, Register<T>>) return static_cast<Computed<T>>(b.lanes[i]);
  else return static_cast<Computed<T>>(static_cast<T>(b));
}

template <typename T, typename B, typename F>
void elementwise(const char *op, Register<T> &dst, const Register<T> &a, const B &b, F f) {
  issue<T>(op, nullptr, nullptr, 0);
  for (unsigned i = 0; i < Register<T>::kLanes; ++i)
    dst.lanes[i] = static_cast<T>(f(static_cast<Computed<T>>(a.lanes[i]), lane<T>(b, i)));
}

}  // namespace mlusim::bang::registers

inline unsigned __vv_get_length() { return mlusim::bang::kVectorRegisterBytes; }

// Every lane of dst: a scalar, or another register's lane.
template <typename T, typename S>
void __vv_move(mlusim_vector_register<T> &dst, const S &value) {
  namespace r = mlusim::bang::registers;
  r::issue<T>("__vv_move", nullptr, nullptr, 0);
  for (unsigned i = 0; i < dst.kLanes; ++i) dst.lanes[i] = static_cast<T>(r::lane<T>(value, i));
}

// dst[i] = start + i * step.
template <typename T, typename S, typename U>
void __vv_index(mlusim_vector_register<T> &dst, S start, U step) {
  namespace r = mlusim::bang::registers;
  r::issue<T>("__vv_index", nullptr, nullptr, 0);
  const auto first = static_cast<r::Computed<T>>(static_cast<T>(start));
  const auto stride = static_cast<r::Computed<T>>(static_cast<T>(step));
  for (unsigned i = 0; i < dst.kLanes; ++i)
    dst.lanes[i] = static_cast<T>(first + static_cast<r::Computed<T>>(i) * stride);
}

// dst = a op b, b a register or a scalar.
template <typename T, typename B>
void __vv_add(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_add", dst, a, b, [](auto x, auto y) { return x + y; });
}
template <typename T, typename B>
void __vv_sub(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_sub", dst, a, b, [](auto x, auto y) { return x - y; });
}
template <typename T, typename B>
void __vv_mul(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_mul", dst, a, b, [](auto x, auto y) { return x * y; });
}

// The first `count` lanes (default: all) to or from NRAM.
template <typename T>
void __vv_store(T *dst, const mlusim_vector_register<T> &src,
                unsigned count = mlusim_vector_register<T>::kLanes) {
  std::memcpy(dst, src.lanes, mlusim::bang::registers::nram_lanes("__vv_store", dst, count, true));
}
template <typename T>
void __vv_load(mlusim_vector_register<T> &dst, const T *src,
               unsigned count = mlusim_vector_register<T>::kLanes) {
  std::memcpy(dst.lanes, src, mlusim::bang::registers::nram_lanes("__vv_load", src, count, false));
}

// Bitwise operations of integer registers (b a register or a scalar).
template <typename T, typename B>
  requires std::is_integral_v<T>
void __vv_and(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_and", dst, a, b, [](auto x, auto y) { return x & y; });
}
template <typename T, typename B>
  requires std::is_integral_v<T>
void __vv_or(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_or", dst, a, b, [](auto x, auto y) { return x | y; });
}
template <typename T, typename B>
  requires std::is_integral_v<T>
void __vv_xor(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  mlusim::bang::registers::elementwise("__vv_xor", dst, a, b, [](auto x, auto y) { return x ^ y; });
}

// The high half of each lane's full-width product, signed or not as T is
// (Philox's multiply-high: mlu-ops' philox_generator.h).
template <typename T, typename B>
  requires std::is_integral_v<T>
void __vv_mulh(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a, const B &b) {
  using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  mlusim::bang::registers::elementwise("__vv_mulh", dst, a, b, [](auto x, auto y) {
    return static_cast<Wide>(static_cast<T>(x)) * static_cast<Wide>(static_cast<T>(y)) >>
           (8 * sizeof(T));
  });
}

// dst = a ^ b ^ c in one instruction (MLU500: architecture.h gates it); c a
// register or a scalar.
template <typename T, typename C>
  requires std::is_integral_v<T>
void __vv_trixor(mlusim_vector_register<T> &dst, const mlusim_vector_register<T> &a,
                 const mlusim_vector_register<T> &b, const C &c) {
  namespace r = mlusim::bang::registers;
  r::issue<T>("__vv_trixor", nullptr, nullptr, 0);
  for (unsigned i = 0; i < dst.kLanes; ++i)
    dst.lanes[i] = static_cast<T>(r::lane<T>(a, i) ^ r::lane<T>(b, i) ^ r::lane<T>(c, i));
}
