// No launch hangs: a kernel that does not finish within the watchdog's limit
// fails with a report of its unfinished cores, and a kernel that launches a
// kernel faults instead of waiting forever for the launch lock.
#include <gtest/gtest.h>

#include <string>

#include "tests/runtime/launch_fault.h"

namespace {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::expect_device_works;
using mlusim::harness::expect_mentions;
using mlusim::harness::fault_of;

// A short limit for one test, the previous one after.
class WatchdogLimit {
 public:
  explicit WatchdogLimit(double seconds) : saved_(mlusimGetWatchdogSeconds()) {
    EXPECT_EQ(mlusimSetWatchdogSeconds(seconds), cnrtSuccess);
  }
  ~WatchdogLimit() { mlusimSetWatchdogSeconds(saved_); }

 private:
  double saved_;
};

__mlu_global__ void loops_forever_on_task_2() {
  volatile bool forever = taskId == 2;
  while (forever) {
  }
}

TEST(Watchdog, InfiniteLoopIsStopped) {
  WatchdogLimit limit(0.2);
  expect_mentions(fault_of(loops_forever_on_task_2),
                  {"kernel_under_test", "cluster 0 core 2, task 2", "watchdog",
                   "did not finish within 0.2 s", "cluster 0 core 2 (task 2): running",
                   "last intrinsic none"});
  expect_device_works();
}

__mlu_global__ void adds_forever() {
  __nram_buffer__(float, buf, 64);
  volatile bool forever = taskId == 0;
  do __bang_add(buf, buf, buf, 64);
  while (forever);
}

TEST(Watchdog, ReportNamesTheLastIntrinsic) {
  WatchdogLimit limit(0.2);
  expect_mentions(fault_of(adds_forever),
                  {"cluster 0 core 0 (task 0): running, last intrinsic __bang_add"});
  expect_device_works();
}

// Core 0 spins on an SRAM flag that core 1 sets: both run on one host thread,
// so core 1 never gets to set it.
__mlu_global__ void spins_on_a_flag_core_1_sets() {
  __sram_buffer__(int, flag, 32);
  volatile int *f = flag;
  if (coreId == 0)
    while (*f != 12345) {
    }
  if (coreId == 1) *f = 12345;
}

TEST(Watchdog, SpinWaitOnAnotherCoreIsReportedAsSuch) {
  WatchdogLimit limit(0.2);
  expect_mentions(fault_of(spins_on_a_flag_core_1_sets),
                  {"cluster 0 core 0 (task 0): running", "cluster 0 cores 1, 2, 3: not started",
                   "spin-waits for memory a core of its cluster that has not started must write",
                   "__sync_cluster()"});
  expect_device_works();
}

__mlu_global__ void inner_kernel() {}

__mlu_global__ void launches_a_kernel() {
  mlusim::launch("inner", cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock, nullptr, inner_kernel);
}

TEST(Watchdog, LaunchFromInsideAKernelFaults) {
  expect_mentions(fault_of(launches_a_kernel),
                  {"kernel_under_test", "launches kernel 'inner' from inside a kernel"});
  expect_device_works();
}

TEST(Watchdog, LimitIsSetAndChecked) {
  WatchdogLimit limit(5);
  EXPECT_EQ(mlusimGetWatchdogSeconds(), 5);
  EXPECT_EQ(mlusimSetWatchdogSeconds(-1), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimGetWatchdogSeconds(), 5);
}

}  // namespace
