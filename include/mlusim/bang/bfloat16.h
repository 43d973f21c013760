// BANG C's bfloat16_t: the upper half of a float's bits. It
// is stored as bfloat16 and computes as float: every operation converts to
// float, and storing a float rounds to nearest even (NaN stays a quiet NaN),
// as the device's _rn conversion does.
#pragma once

#include <bit>
#include <cstdint>

struct bfloat16_t {
  uint16_t bits;

  bfloat16_t() = default;
  constexpr bfloat16_t(float f) : bits(from_float(f)) {}  // NOLINT: converts like a float
  constexpr operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

  bfloat16_t &operator+=(float v) { return *this = float(*this) + v; }
  bfloat16_t &operator-=(float v) { return *this = float(*this) - v; }
  bfloat16_t &operator*=(float v) { return *this = float(*this) * v; }
  bfloat16_t &operator/=(float v) { return *this = float(*this) / v; }
  bfloat16_t &operator++() { return *this += 1.0f; }
  bfloat16_t &operator--() { return *this -= 1.0f; }
  bfloat16_t operator++(int) {
    const bfloat16_t old = *this;
    *this += 1.0f;
    return old;
  }
  bfloat16_t operator--(int) {
    const bfloat16_t old = *this;
    *this -= 1.0f;
    return old;
  }

  static constexpr uint16_t from_float(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);  // quiet NaN
    const uint32_t round = 0x7fffu + ((u >> 16) & 1u);  // ties to the even neighbour
    return static_cast<uint16_t>((u + round) >> 16);
  }
};
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t is two bytes, as on the device");
// bang_half_t and bang_bfloat16_t are not the SDK's: programs declare them
// (mlu-ops' bangc_helper_dtype.h, as incomplete structs that name half and
// bfloat16_t across host and device code).
