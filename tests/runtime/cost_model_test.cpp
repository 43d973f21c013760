// The cost model must be sane: no copy beats the bandwidth, a ping-pong
// pipeline beats its serial twin, more cores help until bandwidth-bound.
#include <gtest/gtest.h>

#include <cmath>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "runtime/queue.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

// y = 2^rounds x over n floats, this task's share in chunks of `chunk` floats;
// with pingpong the next chunk loads asynchronously while this one computes.
__mlu_global__ void scale_by_two(float *y, const float *x, int n, int chunk, int rounds,
                                 bool pingpong) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 2 * chunk);
  const int per_task = n / taskDim;
  const float *in = x + taskId * per_task;
  float *out = y + taskId * per_task;
  const int chunks = per_task / chunk;
  const int bytes = chunk * static_cast<int>(sizeof(float));
  if (!pingpong) {
    for (int i = 0; i < chunks; ++i) {
      __memcpy(buf, in + i * chunk, bytes, GDRAM2NRAM);
      for (int r = 0; r < rounds; ++r) __bang_mul_scalar(buf, buf, 2.0f, chunk);
      __memcpy(out + i * chunk, buf, bytes, NRAM2GDRAM);
    }
    return;
  }
  __memcpy_async(buf, in, bytes, GDRAM2NRAM);
  for (int i = 0; i < chunks; ++i) {
    float *ping = buf + (i % 2) * chunk, *pong = buf + ((i + 1) % 2) * chunk;
    __sync();
    if (i + 1 < chunks) __memcpy_async(pong, in + (i + 1) * chunk, bytes, GDRAM2NRAM);
    for (int r = 0; r < rounds; ++r) __bang_mul_scalar(ping, ping, 2.0f, chunk);
    __memcpy(out + i * chunk, ping, bytes, NRAM2GDRAM);
  }
}

struct ScaleRun {
  mlusimReport_t report;
  std::vector<float> y;
};

ScaleRun run_scale(unsigned clusters, int n, int chunk, int rounds, bool pingpong) {
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000);
  DeviceBuffer<float> dx(x), dy(n);
  cnrtQueue_t q;
  cnrtQueueCreate(&q);
  {
    mlusim::OpScope op(q, "scale_by_two", 2.0 * n * sizeof(float), n, MLUOP_DTYPE_FLOAT);
    cnrtRet_t ret = MLUSIM_LAUNCH(scale_by_two, (cnrtDim3_t{4, clusters, 1}), cnrtFuncTypeUnion1, q,
                                  dy.get(), static_cast<const float *>(dx.get()), n, chunk,
                                  rounds, pingpong);
    EXPECT_EQ(ret, cnrtSuccess) << mlusimGetLastError();
  }
  ScaleRun r;
  mlusimGetLastOpReport(q, &r.report);
  cnrtQueueDestroy(q);
  r.y = dy.download();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += r.y[i] != std::ldexp(x[i], rounds);
  EXPECT_EQ(wrong, 0);
  return r;
}

constexpr int kN = 1 << 22;  // 16 MiB of floats

TEST(CostModel, CopyNeverExceedsTheBandwidth) {
  for (unsigned clusters : {1u, 2u, 8u}) {
    ScaleRun r = run_scale(clusters, kN, 8192, 1, true);
    EXPECT_LE(r.report.io_efficiency, 1.0) << clusters;
    // One cluster draws at most 128 of the device's 307.2 GB/s.
    if (clusters == 1) EXPECT_LE(r.report.io_efficiency, 128 / 307.2);
    if (clusters == 8) EXPECT_GT(r.report.io_efficiency, 0.6);
    EXPECT_DOUBLE_EQ(r.report.bytes_moved[MLUSIM_GDRAM2NRAM], kN * 4.0);
    EXPECT_DOUBLE_EQ(r.report.bytes_moved[MLUSIM_NRAM2GDRAM], kN * 4.0);
  }
}

TEST(CostModel, PingPongBeatsSerial) {
  // Compute about as long as load + store: hiding the load behind compute saves ~1/4.
  ScaleRun serial = run_scale(8, kN, 8192, 30, false);
  ScaleRun pingpong = run_scale(8, kN, 8192, 30, true);
  EXPECT_LT(pingpong.report.device_time_us, 0.85 * serial.report.device_time_us)
      << "serial " << serial.report.device_time_us << " us, ping-pong "
      << pingpong.report.device_time_us << " us";
}

TEST(CostModel, MoreCoresHelpUntilBandwidthBound) {
  double one_cluster = run_scale(1, kN, 8192, 1, true).report.device_time_us;
  double two_clusters = run_scale(2, kN, 8192, 1, true).report.device_time_us;
  double eight_clusters = run_scale(8, kN, 8192, 1, true).report.device_time_us;
  EXPECT_LT(two_clusters, 0.6 * one_cluster);  // one cluster is capped at 128 GB/s
  EXPECT_LT(eight_clusters, two_clusters);
  // Past the device's bandwidth more cores cannot help: 8 clusters move at most
  // 307.2 GB/s, so the time is bounded below by the traffic over that.
  const double floor_us = 2.0 * kN * sizeof(float) / 307.2e3;
  EXPECT_GE(eight_clusters, floor_us);
}

TEST(CostModel, NotifiersMeasureSimulatedTimeOfTheQueue) {
  std::vector<float> x(4096, 1.0f);
  DeviceBuffer<float> dx(x), dy(4096);
  cnrtQueue_t q;
  cnrtNotifier_t start, end;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(MLUSIM_LAUNCH(scale_by_two, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1, q, dy.get(),
                            static_cast<const float *>(dx.get()), 4096, 1024, 1, false),
              cnrtSuccess);
    mlusimReport_t r;
    mlusimGetLastLaunchReport(q, &r);
    sum += r.device_time_us;
  }
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  float us = 0;
  ASSERT_EQ(cnrtNotifierDuration(start, end, &us), cnrtSuccess);
  EXPECT_NEAR(us, sum, 1e-3 * sum);
  EXPECT_GT(us, 0);
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtQueueDestroy(q);
}

}  // namespace
