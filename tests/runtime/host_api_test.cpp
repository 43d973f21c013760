// The host API cannot be crashed: double or foreign destroy of every handle
// type is an error code, threads sharing a queue each read their own reports,
// the device setting can change under readers, and memory a running launch
// holds cannot be freed.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "runtime/queue.h"
#include "harness/harness.h"
#include "tests/common/op_log_capture.h"

namespace {

using mlusim::harness::DeviceBuffer;
using mlusim::testing::OpLogCapture;

TEST(Handles, QueueDestroyedTwiceOrForeignIsAnError) {
  cnrtQueue_t q = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorInvalidResourceHandle);
  int not_a_queue = 0;
  EXPECT_EQ(cnrtQueueDestroy(reinterpret_cast<cnrtQueue_t>(&not_a_queue)),
            cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtQueueDestroy(nullptr), cnrtErrorInvalidResourceHandle);  // the default queue
  mlusimReport_t r;
  EXPECT_EQ(mlusimGetLastOpReport(q, &r), cnrtErrorInvalidResourceHandle);
  cnrtGetLastError();
}

TEST(Handles, NotifierDestroyedTwiceOrForeignIsAnError) {
  cnrtNotifier_t n = nullptr, other = nullptr;
  ASSERT_EQ(cnrtNotifierCreate(&n), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&other), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(other, nullptr), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDestroy(n), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDestroy(n), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtPlaceNotifier(n, nullptr), cnrtErrorInvalidResourceHandle);
  float us = 0;
  EXPECT_EQ(cnrtNotifierDuration(n, other, &us), cnrtErrorInvalidResourceHandle);
  double not_a_notifier = 0;
  EXPECT_EQ(cnrtNotifierDestroy(reinterpret_cast<cnrtNotifier_t>(&not_a_notifier)),
            cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtNotifierDestroy(nullptr), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtNotifierDestroy(other), cnrtSuccess);
  cnrtGetLastError();
}

TEST(Handles, MluOpHandleDestroyedTwiceOrForeignIsBadParamWithALogLine) {
  mluOpHandle_t h = nullptr;
  ASSERT_EQ(mluOpCreate(&h), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpDestroy(h), MLUOP_STATUS_SUCCESS);
  OpLogCapture log;
  EXPECT_EQ(mluOpDestroy(h), MLUOP_STATUS_BAD_PARAM);
  EXPECT_NE(log.text().find("is not a live handle"), std::string::npos) << log.text();
  EXPECT_EQ(mluOpSetQueue(h, nullptr), MLUOP_STATUS_BAD_PARAM);
  cnrtQueue_t got;
  EXPECT_EQ(mluOpGetQueue(h, &got), MLUOP_STATUS_BAD_PARAM);
  long not_a_handle = 0;
  EXPECT_EQ(mluOpDestroy(reinterpret_cast<mluOpHandle_t>(&not_a_handle)), MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(log.lines().size(), 4u);
}

TEST(Handles, TensorDescriptorDestroyedTwiceOrForeignIsBadParamWithALogLine) {
  mluOpTensorDescriptor_t d = nullptr;
  ASSERT_EQ(mluOpCreateTensorDescriptor(&d), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpDestroyTensorDescriptor(d), MLUOP_STATUS_SUCCESS);
  OpLogCapture log;
  EXPECT_EQ(mluOpDestroyTensorDescriptor(d), MLUOP_STATUS_BAD_PARAM);
  EXPECT_NE(log.text().find("is not a live descriptor"), std::string::npos) << log.text();
  const int dims[] = {2, 3};
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, 2, dims),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpGetTensorElementNum(d), 0u);
  char not_a_descriptor[64] = {};
  EXPECT_EQ(mluOpDestroyTensorDescriptor(reinterpret_cast<mluOpTensorDescriptor_t>(not_a_descriptor)),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(log.lines().size(), 4u);
}

// A stand-in for an operator: one OpScope around `launches` launches of a
// kernel whose cost grows with `rows`.
__mlu_global__ void copy_rows(float *dst, const float *src, int rows) {
  if (__is_mpu()) return;
  __nram_buffer__(float, buf, 256);
  for (int r = taskId; r < rows; r += taskDim) {
    __memcpy(buf, src + r * 256, 256 * sizeof(float), GDRAM2NRAM);
    __memcpy(dst + r * 256, buf, 256 * sizeof(float), NRAM2GDRAM);
  }
}

struct FakeOp {
  DeviceBuffer<float> src, dst;
  int rows;
  explicit FakeOp(int r) : src(size_t(r) * 256), dst(size_t(r) * 256), rows(r) {}
  void launch(cnrtQueue_t q) {
    ASSERT_EQ(MLUSIM_LAUNCH(copy_rows, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1, q, dst.get(),
                            src.get(), rows),
              cnrtSuccess);
  }
};

void expect_same_report(const mlusimReport_t &got, const mlusimReport_t &alone) {
  EXPECT_STREQ(got.name, alone.name);
  EXPECT_EQ(got.launches, alone.launches);
  EXPECT_EQ(got.device_time_us, alone.device_time_us);
  EXPECT_EQ(got.gdram_bytes, alone.gdram_bytes);
  EXPECT_EQ(got.io_efficiency, alone.io_efficiency);
}

mlusimReport_t op_report(cnrtQueue_t q) {
  mlusimReport_t r{};
  EXPECT_EQ(mlusimGetLastOpReport(q, &r), cnrtSuccess);
  return r;
}

// Hands control back and forth between two threads, step by step.
class Turns {
 public:
  void wait_for(int step) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return step_ == step; });
  }
  void go_to(int step) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      step_ = step;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int step_ = 0;
};

TEST(SharedQueue, EachThreadGetsTheReportOfItsOwnOperatorCall) {
  cnrtQueue_t q = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  FakeOp small(8), large(64);
  // Each call made alone: A is two launches of `small`, B one launch of `large`.
  mlusimReport_t a_alone, b_alone;
  {
    mlusim::OpScope op(q, "op_a", 1e6, 0, MLUOP_DTYPE_FLOAT);
    small.launch(q);
    small.launch(q);
  }
  a_alone = op_report(q);
  {
    mlusim::OpScope op(q, "op_b", 1e6, 0, MLUOP_DTYPE_FLOAT);
    large.launch(q);
  }
  b_alone = op_report(q);
  ASSERT_EQ(a_alone.launches, 2);
  ASSERT_NE(a_alone.device_time_us, b_alone.device_time_us);

  // Now B's whole call runs between A's two launches, on the same queue.
  Turns turns;
  mlusimReport_t a_shared{}, b_shared{};
  std::thread a([&] {
    {
      mlusim::OpScope op(q, "op_a", 1e6, 0, MLUOP_DTYPE_FLOAT);
      small.launch(q);
      turns.go_to(1);
      turns.wait_for(2);
      small.launch(q);
    }
    a_shared = op_report(q);
    turns.go_to(3);
  });
  std::thread b([&] {
    turns.wait_for(1);
    {
      mlusim::OpScope op(q, "op_b", 1e6, 0, MLUOP_DTYPE_FLOAT);
      large.launch(q);
    }
    turns.go_to(2);
    turns.wait_for(3);
    b_shared = op_report(q);  // after A finished its own call
  });
  a.join();
  b.join();
  expect_same_report(a_shared, a_alone);
  expect_same_report(b_shared, b_alone);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
}

TEST(SharedQueue, ManyCallsFromTwoThreadsEachMatchTheCallMadeAlone) {
  cnrtQueue_t q = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  FakeOp ops[2] = {FakeOp(8), FakeOp(40)};
  mlusimReport_t alone[2];
  for (int t = 0; t < 2; ++t) {
    {
      mlusim::OpScope op(q, t == 0 ? "op_0" : "op_1", 0, 0, MLUOP_DTYPE_FLOAT);
      ops[t].launch(q);
      ops[t].launch(q);
    }
    alone[t] = op_report(q);
  }
  std::atomic<int> mismatches{0};
  auto worker = [&](int t) {
    for (int i = 0; i < 30; ++i) {
      {
        mlusim::OpScope op(q, t == 0 ? "op_0" : "op_1", 0, 0, MLUOP_DTYPE_FLOAT);
        ops[t].launch(q);
        ops[t].launch(q);
      }
      const mlusimReport_t r = op_report(q);
      mlusimReport_t launch{};
      mlusimGetLastLaunchReport(q, &launch);
      if (r.launches != 2 || r.device_time_us != alone[t].device_time_us ||
          std::strcmp(launch.name, "copy_rows") != 0 ||
          launch.device_time_us * 2 != alone[t].device_time_us)
        ++mismatches;
    }
  };
  std::thread t0(worker, 0), t1(worker, 1);
  t0.join();
  t1.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
}

TEST(SharedQueue, TheQueueClockCountsEveryThreadsLaunches) {
  cnrtQueue_t q = nullptr;
  cnrtNotifier_t start = nullptr, end = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  FakeOp op(16);
  op.launch(q);
  mlusimReport_t one{};
  ASSERT_EQ(mlusimGetLastLaunchReport(q, &one), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  std::thread t0([&] { for (int i = 0; i < 10; ++i) op.launch(q); });
  std::thread t1([&] { for (int i = 0; i < 10; ++i) op.launch(q); });
  t0.join();
  t1.join();
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  float us = 0;
  ASSERT_EQ(cnrtNotifierDuration(start, end, &us), cnrtSuccess);
  EXPECT_FLOAT_EQ(us, static_cast<float>(20 * one.device_time_us));
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtQueueDestroy(q);
}

TEST(DeviceSetting, ReadersSeeWholeSpecsWhileAnotherThreadSwitchesDevices) {
  std::vector<mlusimDeviceSpec_t> presets(mlusimGetPresetCount());
  for (int i = 0; i < mlusimGetPresetCount(); ++i) mlusimGetPreset(i, &presets[i]);
  std::atomic<bool> done{false};
  std::thread switcher([&] {
    for (int i = 0; i < 300; ++i) mlusimSetDevicePreset(presets[i % presets.size()].name);
    done = true;
  });
  int torn = 0, reads = 0;
  while (!done || reads == 0) {
    mlusimDeviceSpec_t spec;
    mlusimGetDeviceSpec(&spec);
    bool whole = false;
    for (const auto &p : presets) whole = whole || std::memcmp(&p, &spec, sizeof spec) == 0;
    torn += !whole;
    ++reads;
  }
  switcher.join();
  EXPECT_EQ(torn, 0) << "of " << reads << " reads";
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
}

// Holds the device until the test lets it go, so another thread acts while
// the launch runs.
std::atomic<int> g_stage{0};
__mlu_global__ void hold_until_released(float *) {
  g_stage = 1;
  while (g_stage.load() != 2) std::this_thread::yield();
}

TEST(FreeDuringLaunch, MemoryARunningLaunchMayUseIsNotFreed) {
  void *held = nullptr;
  ASSERT_EQ(cnrtMalloc(&held, 4096), cnrtSuccess);
  g_stage = 0;
  cnrtRet_t launched = cnrtErrorUnknown;
  std::thread launcher([&] {
    launched = MLUSIM_LAUNCH(hold_until_released, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock,
                             nullptr, static_cast<float *>(held));
  });
  while (g_stage.load() != 1) std::this_thread::yield();
  EXPECT_EQ(cnrtFree(held), cnrtErrorIllegalState);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorIllegalState);
  void *newer = nullptr;  // allocated after the launch started: not the launch's
  ASSERT_EQ(cnrtMalloc(&newer, 64), cnrtSuccess);
  EXPECT_EQ(cnrtFree(newer), cnrtSuccess);
  g_stage = 2;
  launcher.join();
  EXPECT_EQ(launched, cnrtSuccess);
  EXPECT_EQ(cnrtFree(held), cnrtSuccess);
}

}  // namespace
