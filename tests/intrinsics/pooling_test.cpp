// __bang_maxpool/minpool/sumpool/avgpool over HWC maps against a double
// reference, in float and half, with square and non-square windows/strides.
#include <algorithm>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

struct Shape {
  int c, h, w, kh, kw, sx, sy;
  int oh() const { return (h - kh) / sy + 1; }
  int ow() const { return (w - kw) / sx + 1; }
};

enum class Kind { kMax, kMin, kSum, kAvg };

template <typename T>
__mlu_global__ void pool_kernel(Kind kind, Shape s, T *out, const T *in) {
  const int in_n = s.c * s.h * s.w, out_n = s.c * s.oh() * s.ow();
  __nram_buffer__(T, x, in_n);
  __nram_buffer__(T, y, out_n);
  __memcpy(x, in, in_n * sizeof(T), GDRAM2NRAM);
  switch (kind) {
    case Kind::kMax: __bang_maxpool(y, x, s.c, s.h, s.w, s.kh, s.kw, s.sx, s.sy); break;
    case Kind::kMin: __bang_minpool(y, x, s.c, s.h, s.w, s.kh, s.kw, s.sx, s.sy); break;
    case Kind::kSum: __bang_sumpool(y, x, s.c, s.h, s.w, s.kh, s.kw, s.sx, s.sy); break;
    case Kind::kAvg: __bang_avgpool(y, x, s.c, s.h, s.w, s.kh, s.kw, s.sx, s.sy); break;
  }
  __memcpy(out, y, out_n * sizeof(T), NRAM2GDRAM);
}

std::vector<double> reference(Kind kind, const Shape &s, const std::vector<double> &in) {
  std::vector<double> out;
  for (int y = 0; y < s.oh(); ++y)
    for (int x = 0; x < s.ow(); ++x)
      for (int ch = 0; ch < s.c; ++ch) {
        double acc = kind == Kind::kMax ? -1e300 : kind == Kind::kMin ? 1e300 : 0.0;
        for (int ky = 0; ky < s.kh; ++ky)
          for (int kx = 0; kx < s.kw; ++kx) {
            double v = in[((y * s.sy + ky) * s.w + x * s.sx + kx) * s.c + ch];
            acc = kind == Kind::kMax   ? std::max(acc, v)
                  : kind == Kind::kMin ? std::min(acc, v)
                                       : acc + v;
          }
        out.push_back(kind == Kind::kAvg ? acc / (s.kh * s.kw) : acc);
      }
  return out;
}

template <typename Tag>
class Pooling : public ::testing::Test {};
TYPED_TEST_SUITE(Pooling, FloatAndHalf);

TYPED_TEST(Pooling, MatchesTheReference) {
  using T = typename TypeParam::T;
  const Shape shapes[] = {{64, 6, 7, 2, 2, 2, 2}, {32, 9, 5, 3, 2, 1, 2}, {1, 1, 40, 1, 40, 1, 1},
                          {3, 4, 4, 4, 1, 1, 1}};
  for (const Shape &s : shapes)
    for (Kind kind : {Kind::kMax, Kind::kMin, Kind::kSum, Kind::kAvg}) {
      SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " c " << s.c
                                      << " h " << s.h << " w " << s.w);
      auto in = sample<T>(s.c * s.h * s.w, -4, 4, 11);
      DeviceBuffer<T> x(in.values), y(s.c * s.oh() * s.ow());
      run_on_one_core(pool_kernel<T>, kind, s, y.get(), static_cast<const T *>(x.get()));
      expect_close(y.download(), reference(kind, s, in.exact));
    }
}

// mlu-ops' reduction idiom: sum-pool a buffer onto itself, then read dst[0..c).
__mlu_global__ void sumpool_in_place(float *out, const float *in) {
  __nram_buffer__(float, buf, 32 * 8);
  __memcpy(buf, in, 32 * 8 * sizeof(float), GDRAM2NRAM);
  __bang_sumpool(buf, buf, 32, 8, 1, 8, 1, 1, 1);
  __memcpy(out, buf, 32 * sizeof(float), NRAM2GDRAM);
}

TEST(PoolingInPlace, SumpoolOntoItsSource) {
  std::vector<float> in(32 * 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  DeviceBuffer<float> x(in), y(32);
  run_on_one_core(sumpool_in_place, y.get(), static_cast<const float *>(x.get()));
  auto v = y.download();
  for (int ch = 0; ch < 32; ++ch) EXPECT_EQ(v[ch], 8 * ch + 32 * 28) << ch;  // sum of ch + 32r
}

// The 7-argument forms stride by the kernel size.
__mlu_global__ void pool_without_strides(half *out, const half *in) {
  __nram_buffer__(half, x, 4 * 6 * 64);
  __nram_buffer__(half, y, 2 * 2 * 64);
  __memcpy(x, in, 4 * 6 * 64 * sizeof(half), GDRAM2NRAM);
  __bang_maxpool(y, x, 64, 4, 6, 2, 3);
  __memcpy(out, y, 2 * 2 * 64 * sizeof(half), NRAM2GDRAM);
  __bang_sumpool(y, x, 64, 4, 6, 2, 3);
  __memcpy(out + 2 * 2 * 64, y, 2 * 2 * 64 * sizeof(half), NRAM2GDRAM);
}

TEST(PoolingShortForms, StrideEqualsTheKernel) {
  const Shape s{64, 4, 6, 2, 3, 3, 2};
  auto in = sample<half>(4 * 6 * 64, -4, 4, 13);
  DeviceBuffer<half> x(in.values), y(2 * 2 * 2 * 64);
  run_on_one_core(pool_without_strides, y.get(), static_cast<const half *>(x.get()));
  auto reference = intrinsics_test::reference(Kind::kMax, s, in.exact);
  auto sums = intrinsics_test::reference(Kind::kSum, s, in.exact);
  reference.insert(reference.end(), sums.begin(), sums.end());
  expect_close(y.download(), reference);
}

__mlu_global__ void pool_window_too_large() {
  __nram_buffer__(float, x, 64);
  __bang_maxpool(x, x, 16, 2, 2, 3, 1);  // 3 rows of kernel over 2 rows of input
}

__mlu_global__ void pool_misaligned_src() {
  __nram_buffer__(float, x, 64);
  __bang_sumpool(x, x + 1, 1, 1, 8, 1, 8, 1, 1);
}

TEST(PoolingFaults, ShapeAndOperandRules) {
  expect_mentions(fault_of(pool_window_too_large), {"__bang_maxpool", "kernel height 3"});
  expect_mentions(fault_of(pool_misaligned_src), {"__bang_sumpool", "src", "boundary"});
}

}  // namespace
}  // namespace intrinsics_test
