// cnrtCastDataType_V2 against IEEE 754 facts written out by hand (bit patterns
// of half and bfloat16, ties, overflow, subnormals) and against an independent
// decoder of half's bit fields; quantization against the formula in cnrt.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cnrt.h"

namespace {

template <typename To, typename From>
To cast_one(From value, cnrtDataType_V2_t from, cnrtDataType_V2_t to,
            cnrtRoundingMode_t mode = cnrtRounding_rn, cnrtQuantizedParam_t param = nullptr) {
  To out{};
  EXPECT_EQ(cnrtCastDataType_V2(&value, from, &out, to, 1, param, mode), cnrtSuccess);
  return out;
}

uint16_t to_half(float f, cnrtRoundingMode_t mode) {
  return cast_one<uint16_t>(f, cnrtFloat, cnrtHalf, mode);
}

uint16_t to_bfloat(float f, cnrtRoundingMode_t mode) {
  return cast_one<uint16_t>(f, cnrtFloat, cnrtBfloat, mode);
}

// Half from its fields, without any conversion code under test.
double decode_half(uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(fraction, -24);
  else if (exponent == 31)
    magnitude = fraction == 0 ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  else
    magnitude = std::ldexp(1024 + fraction, exponent - 25);
  return sign ? -magnitude : magnitude;
}

TEST(CastDataType, FloatToHalfBitPatterns) {
  EXPECT_EQ(to_half(1.0f, cnrtRounding_rn), 0x3C00);
  EXPECT_EQ(to_half(-2.0f, cnrtRounding_rn), 0xC000);
  EXPECT_EQ(to_half(65504.0f, cnrtRounding_rn), 0x7BFF);  // largest half
  EXPECT_EQ(to_half(std::ldexp(1.0f, -24), cnrtRounding_rn), 0x0001);  // smallest subnormal
  EXPECT_EQ(to_half(std::ldexp(1.0f, -14), cnrtRounding_rn), 0x0400);  // smallest normal
  EXPECT_EQ(to_half(0.1f, cnrtRounding_rn), 0x2E66);
  EXPECT_EQ(to_half(std::numeric_limits<float>::infinity(), cnrtRounding_rn), 0x7C00);
  EXPECT_EQ(to_half(-0.0f, cnrtRounding_rn), 0x8000);
  const uint16_t nan = to_half(std::numeric_limits<float>::quiet_NaN(), cnrtRounding_rn);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
}

TEST(CastDataType, FloatToHalfRoundingModes) {
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 0x3C00 and 0x3C01
  EXPECT_EQ(to_half(tie, cnrtRounding_rn), 0x3C00);  // to even
  EXPECT_EQ(to_half(tie, cnrtRounding_rm), 0x3C01);  // away from zero
  EXPECT_EQ(to_half(-tie, cnrtRounding_rm), 0xBC01);
  const float odd_tie = 1.0f + 3 * std::ldexp(1.0f, -11);  // between 0x3C01 and 0x3C02
  EXPECT_EQ(to_half(odd_tie, cnrtRounding_rn), 0x3C02);
  const float just_above_one = std::nextafter(1.0f, 2.0f);
  EXPECT_EQ(to_half(just_above_one, cnrtRounding_rz), 0x3C00);
  EXPECT_EQ(to_half(just_above_one, cnrtRounding_rd), 0x3C00);
  EXPECT_EQ(to_half(just_above_one, cnrtRounding_ru), 0x3C01);
  EXPECT_EQ(to_half(just_above_one, cnrtRounding_ro), 0x3C01);
  EXPECT_EQ(to_half(-just_above_one, cnrtRounding_rd), 0xBC01);
  EXPECT_EQ(to_half(-just_above_one, cnrtRounding_ru), 0xBC00);
  // Half of the smallest subnormal: a tie between 0 and 0x0001.
  EXPECT_EQ(to_half(std::ldexp(1.0f, -25), cnrtRounding_rn), 0x0000);
  EXPECT_EQ(to_half(std::ldexp(1.0f, -25), cnrtRounding_rm), 0x0001);
}

TEST(CastDataType, FloatToHalfOverflow) {
  EXPECT_EQ(to_half(65519.0f, cnrtRounding_rn), 0x7BFF);  // below the halfway point
  EXPECT_EQ(to_half(65520.0f, cnrtRounding_rn), 0x7C00);  // the halfway point rounds to inf
  EXPECT_EQ(to_half(1e6f, cnrtRounding_rz), 0x7BFF);
  EXPECT_EQ(to_half(1e6f, cnrtRounding_rd), 0x7BFF);
  EXPECT_EQ(to_half(1e6f, cnrtRounding_ru), 0x7C00);
  EXPECT_EQ(to_half(-1e6f, cnrtRounding_rd), 0xFC00);
  EXPECT_EQ(to_half(-1e6f, cnrtRounding_ru), 0xFBFF);
}

TEST(CastDataType, EveryHalfWidensExactlyToFloat) {
  std::vector<uint16_t> halves(1 << 16);
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = static_cast<uint16_t>(i);
  std::vector<float> floats(halves.size());
  ASSERT_EQ(cnrtCastDataType_V2(halves.data(), cnrtHalf, floats.data(), cnrtFloat,
                                static_cast<int>(halves.size()), nullptr, cnrtRounding_rm),
            cnrtSuccess);
  for (size_t i = 0; i < halves.size(); ++i) {
    const double expected = decode_half(halves[i]);
    if (std::isnan(expected))
      EXPECT_TRUE(std::isnan(floats[i])) << i;
    else
      ASSERT_EQ(static_cast<double>(floats[i]), expected) << std::hex << i;
  }
}

TEST(CastDataType, BfloatKeepsTheUpperHalfOfFloat) {
  EXPECT_EQ(to_bfloat(1.0f, cnrtRounding_rn), 0x3F80);
  EXPECT_EQ(to_bfloat(-3.0f, cnrtRounding_rn), 0xC040);
  const float tie = 1.0f + std::ldexp(1.0f, -8);  // halfway between 0x3F80 and 0x3F81
  EXPECT_EQ(to_bfloat(tie, cnrtRounding_rn), 0x3F80);
  EXPECT_EQ(to_bfloat(tie, cnrtRounding_rm), 0x3F81);
  EXPECT_EQ(to_bfloat(std::numeric_limits<float>::max(), cnrtRounding_rn), 0x7F80);  // inf
  EXPECT_EQ(to_bfloat(std::numeric_limits<float>::max(), cnrtRounding_rz), 0x7F7F);
  const uint16_t bits = 0x4049;  // 3.140625
  EXPECT_EQ(cast_one<float>(bits, cnrtBfloat, cnrtFloat), 3.140625f);
}

TEST(CastDataType, FloatToIntegersRoundAndSaturate) {
  EXPECT_EQ(cast_one<int32_t>(2.5f, cnrtFloat, cnrtInt, cnrtRounding_rn), 2);
  EXPECT_EQ(cast_one<int32_t>(3.5f, cnrtFloat, cnrtInt, cnrtRounding_rn), 4);
  EXPECT_EQ(cast_one<int32_t>(2.5f, cnrtFloat, cnrtInt, cnrtRounding_rm), 3);
  EXPECT_EQ(cast_one<int32_t>(-2.5f, cnrtFloat, cnrtInt, cnrtRounding_rm), -3);
  EXPECT_EQ(cast_one<int32_t>(2.1f, cnrtFloat, cnrtInt, cnrtRounding_ro), 3);
  EXPECT_EQ(cast_one<int32_t>(-2.1f, cnrtFloat, cnrtInt, cnrtRounding_rd), -3);
  EXPECT_EQ(cast_one<int32_t>(-2.9f, cnrtFloat, cnrtInt, cnrtRounding_rz), -2);
  EXPECT_EQ(cast_one<int32_t>(2.1f, cnrtFloat, cnrtInt, cnrtRounding_ru), 3);
  EXPECT_EQ(cast_one<int8_t>(300.0f, cnrtFloat, cnrtChar), 127);
  EXPECT_EQ(cast_one<int8_t>(-300.0f, cnrtFloat, cnrtChar), -128);
  EXPECT_EQ(cast_one<uint8_t>(-5.0f, cnrtFloat, cnrtUchar), 0);
  EXPECT_EQ(cast_one<int16_t>(std::numeric_limits<float>::quiet_NaN(), cnrtFloat, cnrtShort), 0);
  EXPECT_EQ(cast_one<uint32_t>(4e9f, cnrtFloat, cnrtUint), 4000000000u);
  EXPECT_EQ(cast_one<int64_t>(-1e18f, cnrtFloat, cnrtLonglong), -999999984306749440LL);
  EXPECT_EQ(cast_one<uint8_t>(0.25f, cnrtFloat, cnrtBoolean), 1);
  EXPECT_EQ(cast_one<uint8_t>(0.0f, cnrtFloat, cnrtBoolean), 0);
}

TEST(CastDataType, IntegersToHalfRoundOnce) {
  EXPECT_EQ(cast_one<uint16_t>(int64_t{2049}, cnrtLonglong, cnrtHalf, cnrtRounding_rn), 0x6800);
  EXPECT_EQ(cast_one<uint16_t>(int64_t{2049}, cnrtLonglong, cnrtHalf, cnrtRounding_rm), 0x6801);
  EXPECT_EQ(cast_one<uint16_t>(uint8_t{255}, cnrtUchar, cnrtHalf), 0x5BF8);
  EXPECT_EQ(cast_one<uint16_t>(int8_t{-128}, cnrtChar, cnrtHalf), 0xD800);
  EXPECT_EQ(cast_one<uint16_t>(int32_t{70000}, cnrtInt, cnrtHalf), 0x7C00);
  // 2^63 + 2^39 + 1 is just above the midpoint of two floats (ulp 2^40): rounded
  // once it goes up; rounded through double first (to 2^63 + 2^39, a tie) it
  // would go down to 2^63.
  const uint64_t big = (uint64_t{1} << 63) + (uint64_t{1} << 39) + 1;
  EXPECT_EQ(cast_one<float>(big, cnrtUlonglong, cnrtFloat),
            std::ldexp(1.0f, 63) + std::ldexp(1.0f, 40));
  EXPECT_EQ(cast_one<uint8_t>(int16_t{-7}, cnrtShort, cnrtBoolean), 1);
  EXPECT_EQ(cast_one<float>(uint8_t{1}, cnrtBoolean, cnrtFloat), 1.0f);
  EXPECT_EQ(cast_one<double>(-3.75f, cnrtFloat, cnrtDouble), -3.75);
}

TEST(CastDataType, QuantizationFollowsTheFormula) {
  cnrtQuantizedParam_t param = nullptr;
  ASSERT_EQ(cnrtCreateQuantizedParam(&param, 2, 0.5f, 3), cnrtSuccess);
  // real = (q - offset) * 2^pos / scale = (11 - 3) * 4 / 0.5 = 64
  EXPECT_EQ(cast_one<float>(int8_t{11}, cnrtChar, cnrtFloat, cnrtRounding_rm, param), 64.0f);
  EXPECT_EQ(cast_one<float>(int16_t{-5}, cnrtShort, cnrtFloat, cnrtRounding_rm, param), -64.0f);
  // q = real * scale / 2^pos + offset = 10 * 0.5 / 4 + 3 = 4.25 -> 4
  EXPECT_EQ(cast_one<int8_t>(10.0f, cnrtFloat, cnrtChar, cnrtRounding_rn, param), 4);
  EXPECT_EQ(cast_one<int8_t>(1000.0f, cnrtFloat, cnrtChar, cnrtRounding_rn, param), 127);
  uint16_t half = 0;
  float one = 1.0f;
  EXPECT_EQ(cnrtCastDataType_V2(&one, cnrtFloat, &half, cnrtHalf, 1, param, cnrtRounding_rn),
            cnrtErrorArgsInvalid);  // quantization needs an integer side
  EXPECT_EQ(cnrtDestroyQuantizedParam(param), cnrtSuccess);
  EXPECT_EQ(cnrtDestroyQuantizedParam(param), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCreateQuantizedParam(&param, 0, 0.0f, 0), cnrtErrorArgsInvalid);
  cnrtGetLastError();
}

TEST(CastDataType, BadArgumentsAreRefused) {
  float in[2] = {1, 2};
  float out[2] = {0, 0};
  EXPECT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtFloat, 0, nullptr, cnrtRounding_rn),
            cnrtSuccess);
  EXPECT_EQ(cnrtCastDataType_V2(nullptr, cnrtFloat, nullptr, cnrtHalf, 0, nullptr,
                                cnrtRounding_rn),
            cnrtSuccess);  // count 0 does nothing
  EXPECT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtFloat, -1, nullptr, cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(in, static_cast<cnrtDataType_V2_t>(0x7), out, cnrtFloat, 1,
                                nullptr, cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  // 7 lies in the enumeration's range and names no mode (a value outside
  // the range would make the cast itself undefined in C++).
  EXPECT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtFloat, 1, nullptr,
                                static_cast<cnrtRoundingMode_t>(7)),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(in, cnrtFloat, nullptr, cnrtFloat, 1, nullptr, cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  int not_a_param = 0;
  EXPECT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtInt, 1,
                                reinterpret_cast<cnrtQuantizedParam_t>(&not_a_param),
                                cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorArgsInvalid);
  EXPECT_EQ(out[0], 0.0f);  // nothing was written by the refused calls
}

}  // namespace
