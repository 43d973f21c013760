// mluOpThreeInterpolateBackward against the CPU reference (mlu-ops' diff1 and
// diff2), on the design doc's example and boundary cases (3.6, 16-20), random
// shapes and shapes that force every branch of the tiling, in float and half.
// grad_features sits between guard bands filled with a sentinel, as do its
// unwritten elements: a missed element or a stray write fails the comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "runtime/devices.h"
#include "tests/three_interpolate_backward/three_interpolate_backward_test.h"

namespace mluop::three_interpolate_backward::test {
namespace {

template <typename T>
Tiles tiles_of(const Shape &s) {
  return choose_tiles<T>(s, static_cast<int64_t>(mlusim::nram_usable(mlusim::current_device())));
}

template <typename Tag>
class ThreeInterpolateBackward : public ::testing::Test {};
TYPED_TEST_SUITE(ThreeInterpolateBackward, FloatAndHalf);

// The doc's mmcv example: indices from np.random.randint(0, M - 1), i.e. 0..M-2.
TYPED_TEST(ThreeInterpolateBackward, DocExample) {
  using T = typename TypeParam::T;
  const Shape s{2, 128, 256, 64};
  expect_matches_reference(random_problem<T>(s, 1, 0, s.m - 2));
}

TYPED_TEST(ThreeInterpolateBackward, RandomShapes) {
  using T = typename TypeParam::T;
  Random shapes(2024);
  for (int i = 0; i < 6; ++i) {
    const Shape s{shapes.integer(1, 4), shapes.integer(1, 300), shapes.integer(1, 600),
                  shapes.integer(1, 400)};
    expect_matches_reference<T>(s, 100 + i);
  }
}

// Every axis split into chunks with a short last one (channel, N and M tails).
TYPED_TEST(ThreeInterpolateBackward, EveryAxisSplitWithTails) {
  using T = typename TypeParam::T;
  const Shape s{2, 700, 900, 500};
  const Tiles t = tiles_of<T>(s);
  ASSERT_LT(t.n, s.n);
  ASSERT_LT(t.c, s.c);
  ASSERT_LT(t.m, s.m);
  ASSERT_NE(s.n % t.n, 0);
  ASSERT_NE(s.c % t.c, 0);
  ASSERT_NE(s.m % t.m, 0);
  expect_matches_reference<T>(s, 7);
}

// More tasks (batches x M chunks) than the device has cores: cores loop over several.
TYPED_TEST(ThreeInterpolateBackward, MoreTasksThanCores) {
  using T = typename TypeParam::T;
  const int cores = mlusim::core_count(mlusim::current_device());
  const Shape s{cores + cores / 4 + 1, 33, 70, 45};  // a partial second wave
  ASSERT_GT(task_count(s, tiles_of<T>(s)), cores);
  expect_matches_reference<T>(s, 8);
}

// Negative indices and indices >= M (mmcv leaves them undefined) add nothing
// and write nothing outside grad_features; in-range ones still count.
TYPED_TEST(ThreeInterpolateBackward, OutOfRangeIndicesContributeNothing) {
  using T = typename TypeParam::T;
  Problem<T> p = random_problem<T>({3, 70, 200, 50}, 9, -60, 110);
  p.indices[0] = INT_MIN;
  p.indices[1] = INT_MAX;
  p.indices[2] = p.shape.m;
  p.indices[3] = -1;
  expect_matches_reference(p);
}

// Every index at or past M: grad_features is all zeros (written, not left as it was).
TYPED_TEST(ThreeInterpolateBackward, OnlyOutOfRangeIndicesGiveZeros) {
  using T = typename TypeParam::T;
  const Shape s{2, 40, 100, 30};
  const Call<T> call(random_problem<T>(s, 10, s.m, s.m + 100));
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(call.device.guards_intact());
  for (int b = 0; b < s.b; ++b) {
    const std::vector<T> batch = call.device.batch(b);
    EXPECT_TRUE(std::all_of(batch.begin(), batch.end(), [](T x) { return x == T(0); }));
  }
}

// Boundary cases 16 and 17 of the doc's 3.6 table.
TYPED_TEST(ThreeInterpolateBackward, DocCase16) {
  using T = typename TypeParam::T;
  expect_matches_reference<T>({1, 1, 1, 1}, 16);
}
TYPED_TEST(ThreeInterpolateBackward, DocCase17) {
  using T = typename TypeParam::T;
  expect_matches_reference<T>({7, 63, 129, 127}, 17);
}

// Boundary cases 18-20 are large (each M chunk re-runs its batch's whole
// [C, N] tile): one dtype each keeps the suite fast, half at case 18. Suites
// named *Large stay out of the sanitizer job (.ci/run): case 18 already takes
// the chunked path there, and ASan's per-element checks make 19 and 20 minutes long.
TEST(ThreeInterpolateBackwardDoc, Case18Half) {
  expect_matches_reference<_Float16>({15, 1025, 1023, 1023}, 18);
}
TEST(ThreeInterpolateBackwardDocLarge, Case19Float) {
  expect_matches_reference<float>({25, 1029, 1025, 1027}, 19);
}
TEST(ThreeInterpolateBackwardDocLarge, Case20Float) {
  expect_matches_reference<float>({29, 2047, 999, 2033}, 20);
}

// The op report carries mlu-ops' theory: every tensor's bytes, 9 * B * C * N ops.
TEST(ThreeInterpolateBackwardReport, TheoryFiguresAndOneLaunch) {
  const Call<float> call(random_problem<float>({2, 128, 256, 64}, 11));
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  const double bytes = 4.0 * (2 * 128 * 256 + 2 * 256 * 3 + 2 * 256 * 3 + 2 * 128 * 64);
  EXPECT_EQ(call.report.theory_io_bytes, bytes);
  EXPECT_EQ(call.report.theory_ops, 9.0 * 2 * 128 * 256);
  EXPECT_EQ(call.report.launches, 1);
  EXPECT_EQ(call.report.atomic_elements, 0);  // each core owns its M range
  EXPECT_GT(call.report.io_efficiency, 0);
  EXPECT_GT(call.report.compute_efficiency, 0);
}

}  // namespace
}  // namespace mluop::three_interpolate_backward::test
