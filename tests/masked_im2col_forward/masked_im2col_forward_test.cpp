// masked_im2col_forward against the CPU reference, bit for bit (diff3 = 0):
// the design doc's network cases, mlu-ops' own small cases, random shapes and
// index sets, indices far outside the feature, every NRAM and task split.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>

#include "tests/masked_im2col_forward/masked_im2col_forward_test.h"

namespace mluop::masked_im2col_forward::test {
namespace {

template <typename D>
class MaskedIm2colForward : public ::testing::Test {};
TYPED_TEST_SUITE(MaskedIm2colForward, FloatAndHalf);

// Design doc 3.6: feature [1,256,20,20], 200 masks, kernel 3 pad 1 and kernel 1 pad 1.
TYPED_TEST(MaskedIm2colForward, DesignDocNetworkCases) {
  using T = typename TypeParam::T;
  for (const cases::NetworkCase &c : {cases::kDocKernel3, cases::kDocKernel1}) {
    double diff3 = -1;
    expect_matches_reference<T>(cases::network_problem(c, 1), &diff3);
    EXPECT_EQ(diff3, 0.0);
  }
}

// mlu-ops' zoo cases: feature [1,8,8,8], 10 masks at negative and edge
// positions, kernel 4x4 pad 1, and kernel 14x14 (windows larger than the map).
TYPED_TEST(MaskedIm2colForward, SmallMapWithEdgeAndNegativeMasks) {
  using T = typename TypeParam::T;
  Random rng(2);
  for (int kernel : {4, 14}) {
    Problem c{8,
              8,
              8,
              kernel,
              kernel,
              1,
              1,
              {0, 7, -1, -4, 3, 8, 7, -13, 5, 20},
              {0, 7, 3, -1, -4, 2, 8, -13, 9, 20},
              {}};
    c.feature = cases::random_feature(c, rng);
    expect_matches_reference<T>(c);
  }
}

TYPED_TEST(MaskedIm2colForward, RandomShapesAndIndexSets) {
  using T = typename TypeParam::T;
  Random rng(3);
  for (int trial = 0; trial < 8; ++trial) {
    Problem c{rng.integer(1, 70),
              rng.integer(1, 24),
              rng.integer(1, 24),
              rng.integer(1, 7),
              rng.integer(1, 7),
              rng.integer(-2, 4),
              rng.integer(-2, 4),
              {},
              {},
              {}};
    const int mask_cnt = rng.integer(1, 300);
    c.h_idx = rng.ints(mask_cnt, -c.kernel_h - 3, c.height + 3);
    c.w_idx = rng.ints(mask_cnt, -c.kernel_w - 3, c.width + 3);
    c.feature = cases::random_feature(c, rng);
    expect_matches_reference<T>(c);
  }
}

// Indices and pads at the ends of int: the window arithmetic must not wrap.
TYPED_TEST(MaskedIm2colForward, IndicesFarOutsideTheFeature) {
  using T = typename TypeParam::T;
  Random rng(4);
  const int32_t big = INT_MAX, small = INT_MIN;
  for (int pad : {0, 2, -3, INT_MAX, INT_MIN}) {
    Problem c{5,
              6,
              7,
              3,
              4,
              pad,
              pad,
              {small, big, -1, 0, 5, 6, small, 2, big, -2},
              {big, small, 0, -1, 6, 7, small, 3, big, 9},
              {}};
    c.feature = cases::random_feature(c, rng);
    expect_matches_reference<T>(c);
  }
}

// A pure IO operator moves NaN, Inf and -0 unchanged; padding is +0.
TYPED_TEST(MaskedIm2colForward, NanInfAndSignedZeroPassThrough) {
  using T = typename TypeParam::T;
  Random rng(5);
  Problem c{3, 5, 5, 3, 3, 1, 1, {0, 2, 4, -1, 5}, {0, 2, 4, 4, -1}, {}};
  c.feature = cases::random_feature(c, rng);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), -0.0f};
  for (size_t i = 0; i < c.feature.size(); i += 3) c.feature[i] = specials[(i / 3) % 4];
  expect_matches_reference<T>(c);
}

// Fewer masks than cores (idle tasks), a few per core, many per core.
TYPED_TEST(MaskedIm2colForward, MaskCountsAroundTheCoreCount) {
  using T = typename TypeParam::T;
  Random rng(6);
  for (int mask_cnt : {1, 5, 33, 1000}) {
    Problem c{9, 12, 10, 3, 2, 1, 0, {}, {}, {}};
    c.h_idx = rng.ints(mask_cnt, -1, 12);
    c.w_idx = rng.ints(mask_cnt, -1, 10);
    c.feature = cases::random_feature(c, rng);
    expect_matches_reference<T>(c);
  }
}

// 8 KB of NRAM on one cluster: the index arrays come in several chunks per
// task and both permutes run many tiles in both directions.
TYPED_TEST(MaskedIm2colForward, TinyNramSplitsEverything) {
  using T = typename TypeParam::T;
  ScopedDevice device(current_device_with(tiny_nram));
  Random rng(7);
  Problem c{70, 9, 11, 2, 3, 1, 1, {}, {}, {}};
  c.h_idx = rng.ints(5000, -2, 10);
  c.w_idx = rng.ints(5000, -2, 12);
  c.feature = cases::random_feature(c, rng);
  expect_matches_reference<T>(c);
}

}  // namespace
}  // namespace mluop::masked_im2col_forward::test
