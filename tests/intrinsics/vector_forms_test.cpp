// The element-wise additions to vector.h: cycle comparisons and extremes, the
// _const spellings of the scalar forms, square, and byte <-> half conversions.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

using Cycle = void (*)(float *, const float *, const float *, int, int);

__mlu_global__ void cycle_kernel(Cycle f, float *out, const float *in, const float *row) {
  __nram_buffer__(float, x, 128);
  __nram_buffer__(float, r, 32);
  __memcpy(x, in, 128 * sizeof(float), GDRAM2NRAM);
  __memcpy(r, row, 32 * sizeof(float), GDRAM2NRAM);
  f(x, x, r, 128, 32);
  __memcpy(out, x, 128 * sizeof(float), NRAM2GDRAM);
}

TEST(VectorForms, CycleComparisonsAndExtremes) {
  struct Case {
    Cycle f;
    double (*reference)(double, double);
  };
  const Case cases[] = {
      {__bang_cycle_maxequal<float>, [](double a, double b) { return std::max(a, b); }},
      {__bang_cycle_minequal<float>, [](double a, double b) { return std::min(a, b); }},
      {__bang_cycle_eq<float>, [](double a, double b) { return double(a == b); }},
      {__bang_cycle_ne<float>, [](double a, double b) { return double(a != b); }},
      {__bang_cycle_gt<float>, [](double a, double b) { return double(a > b); }},
      {__bang_cycle_ge<float>, [](double a, double b) { return double(a >= b); }},
      {__bang_cycle_lt<float>, [](double a, double b) { return double(a < b); }},
      {__bang_cycle_le<float>, [](double a, double b) { return double(a <= b); }},
  };
  mlusim::harness::Random random(4);
  std::vector<int> xi = random.ints(128, -3, 3), ri = random.ints(32, -3, 3);  // many ties
  std::vector<float> x(xi.begin(), xi.end()), row(ri.begin(), ri.end());
  for (size_t k = 0; k < std::size(cases); ++k) {
    SCOPED_TRACE(k);
    DeviceBuffer<float> in(x), r(row), out(128);
    run_on_one_core(cycle_kernel, cases[k].f, out.get(), static_cast<const float *>(in.get()),
                    static_cast<const float *>(r.get()));
    auto v = out.download();
    for (int i = 0; i < 128; ++i) ASSERT_EQ(v[i], cases[k].reference(x[i], row[i % 32])) << i;
  }
}

__mlu_global__ void const_forms(half *out) {
  __nram_buffer__(half, h, 64);
  __bang_write_value(h, 64, half(1.5));
  __bang_mul_const(h, h, half(4), 64);   // 6
  __bang_add_const(h, h, half(-2), 64);  // 4
  __bang_square(h, h, 64);               // 16
  __memcpy(out, h, 64 * sizeof(half), NRAM2GDRAM);
}

TEST(VectorForms, ConstSpellingsAndSquare) {
  DeviceBuffer<half> out(64);
  run_on_one_core(const_forms, out.get());
  for (half v : out.download()) EXPECT_EQ(static_cast<float>(v), 16.0f);
}

__mlu_global__ void bytes_and_half(uint8_t *back, half *as_half, const uint8_t *in,
                                   const half *h_in) {
  __nram_buffer__(uint8_t, b, 128);
  __nram_buffer__(half, h, 128);
  __memcpy(b, in, 128, GDRAM2NRAM);
  __bang_uchar2half(h, b, 128);
  __memcpy(as_half, h, 128 * sizeof(half), NRAM2GDRAM);
  __memcpy(h, h_in, 128 * sizeof(half), GDRAM2NRAM);
  __bang_half2uchar_dn(b, h, 128);
  __memcpy(back, b, 128, NRAM2GDRAM);
}

TEST(VectorForms, ByteHalfConversionsRoundDownAndSaturate) {
  std::vector<uint8_t> bytes(128);
  std::vector<half> halves(128);
  for (int i = 0; i < 128; ++i) {
    bytes[i] = static_cast<uint8_t>(i * 2 + 1);
    halves[i] = static_cast<half>(i * 2.75f - 40.0f);  // -40 .. 309.25
  }
  DeviceBuffer<uint8_t> in(bytes), back(128);
  DeviceBuffer<half> h_in(halves), as_half(128);
  run_on_one_core(bytes_and_half, back.get(), as_half.get(),
                  static_cast<const uint8_t *>(in.get()), static_cast<const half *>(h_in.get()));
  auto h = as_half.download();
  auto b = back.download();
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(h[i]), static_cast<float>(bytes[i])) << i;
    const double want = std::clamp(std::floor(static_cast<double>(halves[i])), 0.0, 255.0);
    EXPECT_EQ(b[i], static_cast<uint8_t>(want)) << i;
  }
}

__mlu_global__ void int8_and_rounding(float *from_int8, int16_t *down16, int8_t *down8,
                                      half *half_from_int8, int16_t *half_down16,
                                      const int8_t *bytes, const float *values) {
  __nram_buffer__(int8_t, b, 128);
  __nram_buffer__(float, f, 128);
  __nram_buffer__(int16_t, s, 128);
  __nram_buffer__(half, h, 128);
  __memcpy(b, bytes, 128, GDRAM2NRAM);
  __bang_int82half(h, b, 128, 1);  // b * 2
  __memcpy(half_from_int8, h, 128 * sizeof(half), NRAM2GDRAM);
  __memcpy(f, values, 128 * sizeof(float), GDRAM2NRAM);
  __bang_float2half_rn(h, f, 128);
  __bang_half2int16_dn(s, h, 128, 0);  // floor(half(v))
  __memcpy(half_down16, s, 128 * sizeof(int16_t), NRAM2GDRAM);
  __bang_int82float(f, b, 128, -2);  // b * 2^-2
  __memcpy(from_int8, f, 128 * sizeof(float), NRAM2GDRAM);
  __memcpy(f, values, 128 * sizeof(float), GDRAM2NRAM);
  __bang_float2int16_dn(s, f, 128, 1);  // floor(v / 2)
  __memcpy(down16, s, 128 * sizeof(int16_t), NRAM2GDRAM);
  __bang_float2int8_rd(b, f, 128, 0);  // floor(v), saturated
  __memcpy(down8, b, 128, NRAM2GDRAM);
}

TEST(VectorForms, Int8AndRoundDownConversions) {
  std::vector<int8_t> bytes(128);
  std::vector<float> values(128);
  for (int i = 0; i < 128; ++i) {
    bytes[i] = static_cast<int8_t>(i * 2 - 128);
    values[i] = i * 3.3f - 200.0f;
  }
  DeviceBuffer<int8_t> b(bytes), down8(128);
  DeviceBuffer<float> v(values), from_int8(128);
  DeviceBuffer<int16_t> down16(128), half_down16(128);
  DeviceBuffer<half> half_from_int8(128);
  run_on_one_core(int8_and_rounding, from_int8.get(), down16.get(), down8.get(),
                  half_from_int8.get(), half_down16.get(), static_cast<const int8_t *>(b.get()),
                  static_cast<const float *>(v.get()));
  auto f = from_int8.download();
  auto s = down16.download();
  auto d = down8.download();
  auto hf = half_from_int8.download();
  auto hs = half_down16.download();
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(hf[i]), bytes[i] * 2.0f) << i;
    EXPECT_EQ(hs[i], static_cast<int16_t>(std::floor(static_cast<double>(half(values[i])))))
        << i;
    EXPECT_EQ(f[i], bytes[i] / 4.0f) << i;
    EXPECT_EQ(s[i], static_cast<int16_t>(std::floor(values[i] / 2.0))) << i;
    EXPECT_EQ(d[i], static_cast<int8_t>(std::clamp(std::floor(double(values[i])), -128.0, 127.0)))
        << i;
  }
}

__mlu_global__ void move_overlapping(float *out, const float *in) {
  __nram_buffer__(float, buf, 96);
  __memcpy(buf, in, 96 * sizeof(float), GDRAM2NRAM);
  __bang_move(buf + 32, buf, 64 * sizeof(float));  // overlapping, forward
  __memcpy(out, buf, 96 * sizeof(float), NRAM2GDRAM);
}

TEST(VectorForms, MoveCopiesBytesLikeMemmove) {
  std::vector<float> in(96);
  for (int i = 0; i < 96; ++i) in[i] = static_cast<float>(i);
  DeviceBuffer<float> src(in), dst(96);
  run_on_one_core(move_overlapping, dst.get(), static_cast<const float *>(src.get()));
  auto v = dst.download();
  for (int i = 0; i < 96; ++i) EXPECT_EQ(v[i], i < 32 ? i : i - 32) << i;
}

__mlu_global__ void to_half_down(half *out, const float *in) {
  __nram_buffer__(float, f, 64);
  __nram_buffer__(half, h, 64);
  __memcpy(f, in, 64 * sizeof(float), GDRAM2NRAM);
  __bang_float2half_dn(h, f, 64);
  __memcpy(out, h, 64 * sizeof(half), NRAM2GDRAM);
}

TEST(VectorForms, FloatToHalfDownNeverRoundsUp) {
  mlusim::harness::Random random(12);
  std::vector<float> in = random.floats(64, -3000, 3000);
  in[0] = 1.0f + std::ldexp(1.0f, -11) * 1.5f;  // nearest would round up
  in[1] = -1.0f - std::ldexp(1.0f, -12);       // nearest is -1; down is -(1 + 2^-10)
  in[2] = 70000.0f;                             // above the largest half
  in[3] = -1e-9f;                               // below zero, above every negative half
  in[4] = 2.0f;                                 // exact
  DeviceBuffer<float> src(in);
  DeviceBuffer<half> out(64);
  run_on_one_core(to_half_down, out.get(), static_cast<const float *>(src.get()));
  auto v = out.download();
  for (int i = 0; i < 64; ++i) {
    const double got = static_cast<double>(v[i]);
    EXPECT_LE(got, in[i]) << i;
    // the next half above got exceeds x: got is the largest half <= x
    uint16_t bits;
    std::memcpy(&bits, &v[i], 2);
    half next_up;
    const uint16_t up = (bits & 0x8000) ? (bits == 0x8000 ? 0x0001 : bits - 1) : bits + 1;
    std::memcpy(&next_up, &up, 2);
    EXPECT_GT(static_cast<double>(next_up), in[i]) << i;
  }
  EXPECT_EQ(static_cast<float>(v[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(v[1]), -1.0f - std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(v[2]), 65504.0f);
  EXPECT_EQ(static_cast<float>(v[4]), 2.0f);
}

TEST(VectorForms, ScalarFloatToIntRoundings) {
  EXPECT_EQ(__float2int_dn(-1.5f), -2);
  EXPECT_EQ(__float2int_up(-1.5f), -1);
  EXPECT_EQ(__float2int_dn(2.99f), 2);
  EXPECT_EQ(__float2int_up(2.01f), 3);
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_tz(-2.7f), -2);
}

}  // namespace
}  // namespace intrinsics_test

namespace intrinsics_test {
namespace {

// dst = (src0 op1 src1) op2 src2 with vector and scalar operands.
__mlu_global__ void fusions(float *out, const float *a, const float *b, const float *c) {
  __nram_buffer__(float, x, 6 * 64);
  __nram_buffer__(float, y, 64);
  __nram_buffer__(float, z, 64);
  __memcpy(x, a, 64 * sizeof(float), GDRAM2NRAM);
  __memcpy(y, b, 64 * sizeof(float), GDRAM2NRAM);
  __memcpy(z, c, 64 * sizeof(float), GDRAM2NRAM);
  __bang_fusion(FUSION_FMA, x + 64, x, y, z, 64, 64);
  __bang_fusion(FUSION_FMS, x + 128, x, 2.0f, z, 64);
  __bang_fusion(FUSION_FAM, x + 192, x, y, -1.0f, 64);
  __bang_fusion(FUSION_FSM, x + 256, x, y, z, 64);
  __bang_fusion(FUSION_FAS, x + 320, x, y, z, 64);
  __bang_fusion(FUSION_FSA, x, x, y, 0.5f, 64);  // in place, last
  __memcpy(out, x, 6 * 64 * sizeof(float), NRAM2GDRAM);
}

TEST(VectorForms, FusionAppliesBothOperationsInOrder) {
  mlusim::harness::Random random(8);
  auto a = random.floats(64, -2, 2), b = random.floats(64, -2, 2), c = random.floats(64, -2, 2);
  DeviceBuffer<float> da(a), db(b), dc(c), out(6 * 64);
  run_on_one_core(fusions, out.get(), static_cast<const float *>(da.get()),
                  static_cast<const float *>(db.get()), static_cast<const float *>(dc.get()));
  auto v = out.download();
  for (int i = 0; i < 64; ++i) {
    EXPECT_FLOAT_EQ(v[64 + i], a[i] * b[i] + c[i]);
    EXPECT_FLOAT_EQ(v[128 + i], a[i] * 2.0f - c[i]);
    EXPECT_FLOAT_EQ(v[192 + i], (a[i] + b[i]) * -1.0f);
    EXPECT_FLOAT_EQ(v[256 + i], (a[i] - b[i]) * c[i]);
    EXPECT_FLOAT_EQ(v[320 + i], (a[i] + b[i]) - c[i]);
    EXPECT_FLOAT_EQ(v[i], (a[i] - b[i]) + 0.5f);
  }
}

}  // namespace
}  // namespace intrinsics_test
