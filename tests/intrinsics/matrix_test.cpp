// __bang_matmul and __bang_conv against double references: float and half
// sources, fixed-point int16/int8 with a position, bias; operand-space faults;
// the matrix unit's throughput in the cost model.
#include <cmath>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

struct Mm {
  int m, k, n;
};

template <typename D, typename S>
__mlu_global__ void matmul_kernel(Mm s, D *out, const S *a, const S *b) {
  __nram_buffer__(S, left, s.m * s.k);
  __wram_buffer__(S, weights, s.n * s.k);
  __nram_buffer__(D, result, s.m * s.n);
  __memcpy(left, a, s.m * s.k * sizeof(S), GDRAM2NRAM);
  __memcpy(weights, b, s.n * s.k * sizeof(S), GDRAM2WRAM);
  __bang_matmul(result, left, weights, s.m, s.k, s.n);
  __memcpy(out, result, s.m * s.n * sizeof(D), NRAM2GDRAM);
}

// dst[i][j] = sum_k a[i][k] * b[j][k] (weights stored one output column per row).
std::vector<double> matmul_reference(const Mm &s, const std::vector<double> &a,
                                     const std::vector<double> &b, int pos = 0) {
  std::vector<double> out;
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      double sum = 0;
      for (int k = 0; k < s.k; ++k) sum += a[i * s.k + k] * b[j * s.k + k];
      out.push_back(std::ldexp(sum, pos));
    }
  return out;
}

template <typename D, typename S>
void check_matmul(const Mm &s) {
  auto a = sample<S>(s.m * s.k, -1, 1, 21), b = sample<S>(s.n * s.k, -1, 1, 22);
  DeviceBuffer<S> da(a.values), db(b.values);
  DeviceBuffer<D> out(s.m * s.n);
  run_on_one_core(matmul_kernel<D, S>, s, out.get(), static_cast<const S *>(da.get()),
                  static_cast<const S *>(db.get()));
  expect_close(out.download(), matmul_reference(s, a.exact, b.exact));
}

TEST(Matmul, FloatAndHalfSources) {
  const Mm s{16, 96, 64};
  check_matmul<float, float>(s);
  check_matmul<float, half>(s);
  check_matmul<half, half>(s);
  check_matmul<float, float>(Mm{1, 1, 1});
}

__mlu_global__ void matmul_fixed(float *out, const int16_t *a, const int8_t *b) {
  __nram_buffer__(int16_t, left, 4 * 64);
  __wram_buffer__(int8_t, weights, 32 * 64);
  __nram_buffer__(float, result, 4 * 32);
  __memcpy(left, a, 4 * 64 * sizeof(int16_t), GDRAM2NRAM);
  __memcpy(weights, b, 32 * 64, GDRAM2WRAM);
  __bang_matmul(result, left, weights, 4, 64, 32, -6);
  __memcpy(out, result, 4 * 32 * sizeof(float), NRAM2GDRAM);
}

TEST(Matmul, FixedPointIsExactTimesTwoToThePosition) {
  mlusim::harness::Random random(3);
  std::vector<int> ai = random.ints(4 * 64, -300, 300), bi = random.ints(32 * 64, -100, 100);
  std::vector<int16_t> a(ai.begin(), ai.end());
  std::vector<int8_t> b(bi.begin(), bi.end());
  DeviceBuffer<int16_t> da(a);
  DeviceBuffer<int8_t> db(b);
  DeviceBuffer<float> out(4 * 32);
  run_on_one_core(matmul_fixed, out.get(), static_cast<const int16_t *>(da.get()),
                  static_cast<const int8_t *>(db.get()));
  auto reference = matmul_reference(Mm{4, 64, 32}, std::vector<double>(ai.begin(), ai.end()),
                                    std::vector<double>(bi.begin(), bi.end()), -6);
  auto v = out.download();
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], reference[i]) << i;
}

struct Conv {
  int ci, h, w, kh, kw, sx, sy, co;
  int oh() const { return (h - kh) / sy + 1; }
  int ow() const { return (w - kw) / sx + 1; }
};

template <typename D, typename S>
__mlu_global__ void conv_kernel(Conv s, D *out, const S *in, const S *filter) {
  __nram_buffer__(S, x, s.h * s.w * s.ci);
  __wram_buffer__(S, k, s.co * s.kh * s.kw * s.ci);
  __nram_buffer__(D, y, s.oh() * s.ow() * s.co);
  __memcpy(x, in, s.h * s.w * s.ci * sizeof(S), GDRAM2NRAM);
  __memcpy(k, filter, s.co * s.kh * s.kw * s.ci * sizeof(S), GDRAM2WRAM);
  __bang_conv(y, x, k, s.ci, s.h, s.w, s.kh, s.kw, s.sx, s.sy, s.co);
  __memcpy(out, y, s.oh() * s.ow() * s.co * sizeof(D), NRAM2GDRAM);
}

// src [h][w][ci], filter [co][kh][kw][ci], dst [oh][ow][co].
std::vector<double> conv_reference(const Conv &s, const std::vector<double> &in,
                                   const std::vector<double> &filter, int pos = 0,
                                   const std::vector<double> &bias = {}) {
  std::vector<double> out;
  for (int y = 0; y < s.oh(); ++y)
    for (int x = 0; x < s.ow(); ++x)
      for (int o = 0; o < s.co; ++o) {
        double sum = 0;
        for (int ky = 0; ky < s.kh; ++ky)
          for (int kx = 0; kx < s.kw; ++kx)
            for (int c = 0; c < s.ci; ++c)
              sum += in[((y * s.sy + ky) * s.w + x * s.sx + kx) * s.ci + c] *
                     filter[((o * s.kh + ky) * s.kw + kx) * s.ci + c];
        out.push_back(std::ldexp(sum, pos) + (bias.empty() ? 0.0 : bias[o]));
      }
  return out;
}

template <typename D, typename S>
void check_conv(const Conv &s) {
  auto in = sample<S>(s.h * s.w * s.ci, -1, 1, 31);
  auto filter = sample<S>(s.co * s.kh * s.kw * s.ci, -1, 1, 32);
  DeviceBuffer<S> din(in.values), dfilter(filter.values);
  DeviceBuffer<D> out(s.oh() * s.ow() * s.co);
  run_on_one_core(conv_kernel<D, S>, s, out.get(), static_cast<const S *>(din.get()),
                  static_cast<const S *>(dfilter.get()));
  expect_close(out.download(), conv_reference(s, in.exact, filter.exact));
}

TEST(Conv, FloatAndHalfSources) {
  const Conv window{16, 7, 6, 3, 2, 2, 1, 32};   // stride_x 2, stride_y 1
  const Conv pointwise{64, 1, 1, 1, 1, 1, 1, 64};  // mlu-ops' ms_deform_attn use
  check_conv<float, float>(window);
  check_conv<half, half>(window);
  check_conv<float, half>(pointwise);
  check_conv<float, float>(pointwise);
}

__mlu_global__ void conv_fixed_bias(half *out, const int16_t *in, const int16_t *filter,
                                    const half *bias) {
  __nram_buffer__(int16_t, x, 4 * 4 * 32);
  __wram_buffer__(int16_t, k, 64 * 2 * 2 * 32);
  __nram_buffer__(half, b, 64);
  __nram_buffer__(half, y, 3 * 3 * 64);
  __memcpy(x, in, 4 * 4 * 32 * sizeof(int16_t), GDRAM2NRAM);
  __memcpy(k, filter, 64 * 2 * 2 * 32 * sizeof(int16_t), GDRAM2WRAM);
  __memcpy(b, bias, 64 * sizeof(half), GDRAM2NRAM);
  __bang_conv(y, x, k, b, 32, 4, 4, 2, 2, 1, 1, 64, -12);
  __memcpy(out, y, 3 * 3 * 64 * sizeof(half), NRAM2GDRAM);
}

TEST(Conv, FixedPointWithBias) {
  const Conv s{32, 4, 4, 2, 2, 1, 1, 64};
  mlusim::harness::Random random(9);
  std::vector<int> xi = random.ints(4 * 4 * 32, -200, 200), ki = random.ints(64 * 4 * 32, -50, 50);
  auto bias = sample<half>(64, -2, 2, 10);
  DeviceBuffer<int16_t> dx(std::vector<int16_t>(xi.begin(), xi.end()));
  DeviceBuffer<int16_t> dk(std::vector<int16_t>(ki.begin(), ki.end()));
  DeviceBuffer<half> db(bias.values), out(3 * 3 * 64);
  run_on_one_core(conv_fixed_bias, out.get(), static_cast<const int16_t *>(dx.get()),
                  static_cast<const int16_t *>(dk.get()), static_cast<const half *>(db.get()));
  expect_close(out.download(),
               conv_reference(s, std::vector<double>(xi.begin(), xi.end()),
                              std::vector<double>(ki.begin(), ki.end()), -12, bias.exact));
}

__mlu_global__ void matmul_weights_in_nram() {
  __nram_buffer__(float, a, 64);
  __nram_buffer__(float, b, 64);
  __nram_buffer__(float, c, 64);
  __bang_matmul(c, a, b, 1, 64, 1);
}

__mlu_global__ void conv_output_past_nram() {
  __nram_buffer__(float, x, 4 * 4 * 32);
  __wram_buffer__(float, k, 64 * 32);
  __bang_conv(x, x, k, 32, 4, 4, 1, 1, 1, 1, 64);  // 16 x 64 outputs in a 512-float buffer
}

__mlu_global__ void conv_zero_stride() {
  __nram_buffer__(float, x, 64);
  __wram_buffer__(float, k, 64);
  __bang_conv(x, x, k, 32, 1, 1, 1, 1, 0, 1, 2);
}

TEST(MatrixFaults, OperandSpacesAndShapes) {
  expect_mentions(fault_of(matmul_weights_in_nram), {"__bang_matmul", "kernel", "WRAM"});
  expect_mentions(fault_of(conv_output_past_nram), {"__bang_conv", "dst", "NRAM"});
  expect_mentions(fault_of(conv_zero_stride), {"__bang_conv", "stride_x must be positive"});
}

template <typename S>
__mlu_global__ void one_matmul() {
  __nram_buffer__(S, left, 32 * 256);
  __wram_buffer__(S, weights, 256 * 256);
  __nram_buffer__(float, result, 32 * 256);
  __bang_matmul(result, left, weights, 32, 256, 256);
}

// Compute time of the matmul alone (the kernel does nothing else on the compute lane).
template <typename S>
double matmul_busy_us() {
  EXPECT_EQ(MLUSIM_LAUNCH(one_matmul<S>, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock, nullptr),
            cnrtSuccess);
  mlusimReport_t r;
  EXPECT_EQ(mlusimGetLastLaunchReport(nullptr, &r), cnrtSuccess);
  return r.core_compute_busy_us[0];
}

TEST(MatrixCost, ChargedAtTheMatrixUnitRate) {
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  const double ops = 2.0 * 32 * 256 * 256;
  auto expected_us = [&](double rate) {
    return (spec.vector_latency_cycles + std::ceil(ops / (spec.matrix_ops_per_cycle * rate))) /
           (spec.clock_ghz * 1e3);
  };
  EXPECT_NEAR(matmul_busy_us<half>(), expected_us(1.0), 1e-9);
  EXPECT_NEAR(matmul_busy_us<float>(), expected_us(0.25), 1e-9);
}

}  // namespace
}  // namespace intrinsics_test
