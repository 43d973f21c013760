// deform_roi_pool_forward against the CPU reference: random shapes in float
// and half over every branch of the kernel (channel tail, channel split,
// adaptive and fixed sampling, offset or none, rois off the map), the
// repository's own case, and the two pipelines.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/common/setting_scope.h"
#include "tests/deform_roi_pool_forward/deform_roi_pool_forward_test.h"

namespace mluop::deform_roi_pool_forward::test {
namespace {

class DeformRoiPoolForwardAccuracy : public ::testing::TestWithParam<mluOpDataType_t> {};

// Channels that fit in one pass: a tail (37, 100: padded slices, one copy per
// corner row) and whole aligned vectors (64, 256: one copy per sample).
TEST_P(DeformRoiPoolForwardAccuracy, ChannelsInOnePass) {
  const RandomShape shapes[] = {
      {2, 13, 17, 37, 9, 3, 4, 0.5f, 0, 0.1f, true, 4, 30, 0},
      {1, 20, 24, 64, 6, 7, 7, 0.25f, 2, 0.7f, false, 16, 90, 0},
      {2, 11, 9, 100, 5, 2, 5, 1.0f, 3, 1.5f, true, 2, 14, 0},
      {2, 25, 38, 256, 3, 7, 7, 0.125f, 0, 0.1f, true, 64, 300, 0},
  };
  uint32_t seed = 1;
  for (const RandomShape &s : shapes)
    expect_matches_reference(cases::random_problem(GetParam(), s, seed++));
}

// Channels beyond 8 * channels + channels_align of NRAM: several passes, the
// last one a padded remainder (MLU370: 18176 float / 36352 half per pass).
TEST_P(DeformRoiPoolForwardAccuracy, ChannelSplit) {
  const int channels = GetParam() == MLUOP_DTYPE_HALF ? 36352 + 45 : 18176 * 2 + 3;
  expect_matches_reference(cases::random_problem(
      GetParam(), {1, 4, 5, channels, 2, 2, 2, 0.5f, 0, 0.3f, true, 2, 9, 0}, 7));
  expect_matches_reference(cases::random_problem(
      GetParam(), {2, 3, 3, channels, 1, 1, 2, 1.0f, 2, 1.0f, false, 1, 4, 1}, 8));
}

// Rois sticking out of the map or wholly outside it (zeros by mmcv's border
// rule), large offsets with gamma > 1, and spatial_scale < 1.
TEST_P(DeformRoiPoolForwardAccuracy, RoisOffTheMap) {
  const RandomShape shapes[] = {
      {2, 10, 12, 48, 40, 4, 3, 0.25f, 0, 2.0f, true, 8, 80, 60},
      {1, 9, 7, 33, 30, 3, 3, 0.5f, 2, 1.0f, false, 2, 40, 30},
  };
  uint32_t seed = 20;
  for (const RandomShape &s : shapes)
    expect_matches_reference(cases::random_problem(GetParam(), s, seed++));
}

// Random shapes: every parameter drawn, including 1x1 maps, 1 channel and
// pooled sizes that are not square.
TEST_P(DeformRoiPoolForwardAccuracy, RandomShapes) {
  Random rng(GetParam() == MLUOP_DTYPE_HALF ? 101 : 202);
  const float scales[] = {1.0f, 0.5f, 0.25f, 0.125f, 0.0625f};
  for (int i = 0; i < 8; ++i) {
    RandomShape s;
    s.batches = rng.integer(1, 3);
    s.height = rng.integer(1, 24);
    s.width = rng.integer(1, 24);
    s.channels = rng.integer(1, 160);
    s.num_rois = rng.integer(1, 12);
    s.pooled_height = rng.integer(1, 7);
    s.pooled_width = rng.integer(1, 7);
    s.spatial_scale = scales[rng.integer(0, 4)];
    s.sampling_ratio = i % 2 == 0 ? 0 : rng.integer(1, 4);
    s.gamma = rng.uniform(0.05f, 2.0f);
    s.with_offset = i % 4 != 3;
    s.min_side = 1 / s.spatial_scale;
    s.max_side = 30 / s.spatial_scale;
    s.margin = i % 3 == 0 ? 10 / s.spatial_scale : 0;
    expect_matches_reference(cases::random_problem(GetParam(), s, 300 + i));
  }
}

INSTANTIATE_TEST_SUITE_P(DeformRoiPoolForward, DeformRoiPoolForwardAccuracy,
                         ::testing::Values(MLUOP_DTYPE_FLOAT, MLUOP_DTYPE_HALF),
                         [](const auto &info) {
                           return std::string(info.param == MLUOP_DTYPE_HALF ? "half" : "float");
                         });

// The repository's own case0 (zoo/deform_roi_pool_forward): input [2,256,200,304]
// in [0, 10), one roi (0, 0, 0, 2, 2), offset uniform in [-1, 1),
// sampling_ratio 2, spatial_scale 1, gamma 1, 7x7. The 31M input values come
// from a multiplicative hash rather than the slower random engine.
TEST(DeformRoiPoolForward, RepositoryCase0) {
  Problem p;
  p.batches = 2, p.height = 256, p.width = 200, p.channels = 304;
  p.num_rois = 1, p.sampling_ratio = 2, p.spatial_scale = 1.0f, p.gamma = 1.0f;
  p.input.resize(p.input_count());
  for (size_t i = 0; i < p.input.size(); ++i)
    p.input[i] = static_cast<float>((i * 2654435761u) % 10007) * (10.0f / 10007);
  Random rng(23);
  p.rois = {0, 0, 0, 2, 2};
  p.offset = rng.floats(p.offset_count(), -1.0f, 1.0f);
  expect_matches_reference(p);
}

// The task split: Union1 with 4 cores per cluster and no more clusters than
// ceil(points / 4), on the default device (8 clusters) and on the MLU270 (4
// clusters, 384 KB of NRAM: float channels split beyond 10912 per pass).
TEST(DeformRoiPoolForward, PolicyFollowsPointsAndDevice) {
  struct Expect {
    const char *device;
    RandomShape shape;
    int cores;
  };
  const Expect cases[] = {
      {"MLU370-X4", {1, 6, 6, 32, 1, 1, 1, 1.0f, 2, 0.1f, true, 2, 5, 0}, 4},
      {"MLU370-X4", {1, 6, 6, 32, 3, 3, 3, 1.0f, 2, 0.1f, true, 2, 5, 0}, 28},
      {"MLU370-X4", {1, 6, 6, 32, 2, 5, 5, 1.0f, 2, 0.1f, true, 2, 5, 0}, 32},
      {"MLU270", {1, 5, 4, 10912 + 5, 2, 3, 3, 1.0f, 0, 0.5f, true, 2, 5, 0}, 16},
  };
  mlusimDeviceSpec_t original;
  ASSERT_EQ(mlusimGetDeviceSpec(&original), cnrtSuccess);
  for (const Expect &e : cases) {
    ASSERT_EQ(mlusimSetDevicePreset(e.device), cnrtSuccess);
    const Problem p = cases::random_problem(MLUOP_DTYPE_FLOAT, e.shape, 9);
    const auto run = harness::run(p);
    ASSERT_EQ(run.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
    EXPECT_EQ(run.report.cores, e.cores) << e.device << " " << p.name();
    const auto d = compare(run.output, p.expected(), diff3_eps(p.dtype));
    EXPECT_LE(d.diff1, cases::threshold(p.dtype)) << e.device << " " << p.name();
  }
  ASSERT_EQ(mlusimSetDeviceSpec(&original), cnrtSuccess);
}

// The ping-pong pipeline hides the compute of each sample behind the loads of
// the next: lower simulated time than the serial variant, identical numbers.
TEST(DeformRoiPoolForward, PingPongIsFasterThanSerialWithSameNumbers) {
  const mlusim::testing::TimingScope timed("on");  // compares device times
  for (mluOpDataType_t dtype : {MLUOP_DTYPE_FLOAT, MLUOP_DTYPE_HALF}) {
    const Problem p = cases::random_problem(
        dtype, {2, 50, 76, 128, 3, 7, 7, 0.0625f, 0, 0.1f, true, 300, 700, 0}, 5);
    const auto ping_pong = harness::run(p, Pipeline::kPingPong);
    const auto serial = harness::run(p, Pipeline::kSerial);
    ASSERT_EQ(ping_pong.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
    ASSERT_EQ(serial.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
      EXPECT_LT(ping_pong.report.device_time_us, 0.95 * serial.report.device_time_us);
    EXPECT_EQ(ping_pong.output, serial.output);
  }
}

}  // namespace
}  // namespace mluop::deform_roi_pool_forward::test
