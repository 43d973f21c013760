// Kernel launch: built-in variables, task split, barriers, faults and deadlocks.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

__mlu_global__ void record_ids(int *out) {
  if (__is_mpu()) return;
  out[taskId * 6 + 0] = taskIdX;
  out[taskId * 6 + 1] = taskIdY;
  out[taskId * 6 + 2] = taskIdZ;
  out[taskId * 6 + 3] = taskDim;
  out[taskId * 6 + 4] = coreId;
  out[taskId * 6 + 5] = clusterId * 100 + clusterDim;
}

TEST(Launch, BuiltinVariablesFollowBangNumbering) {
  cnrtDim3_t dim{4, 3, 2};
  DeviceBuffer<int> out(24 * 6);
  ASSERT_EQ(MLUSIM_LAUNCH(record_ids, dim, cnrtFuncTypeUnion1, nullptr, out.get()), cnrtSuccess);
  auto ids = out.download();
  for (int t = 0; t < 24; ++t) {
    EXPECT_EQ(ids[t * 6 + 0], t % 4);
    EXPECT_EQ(ids[t * 6 + 1], (t / 4) % 3);
    EXPECT_EQ(ids[t * 6 + 2], t / 12);
    EXPECT_EQ(ids[t * 6 + 3], 24);
    EXPECT_EQ(ids[t * 6 + 4], t % 4);
    EXPECT_EQ(ids[t * 6 + 5], 1);  // a Union1 task is one cluster: clusterId 0, clusterDim 1
  }
}

TEST(Launch, UnionTaskSeesItsOwnClusters) {
  DeviceBuffer<int> out(32 * 6);
  ASSERT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{16, 2, 1}), cnrtFuncTypeUnion2, nullptr,
                          out.get()),
            cnrtSuccess);
  auto ids = out.download();
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(ids[t * 6 + 4], t % 4);                  // coreId
    // clusterId within the Union2 task, clusterDim 2
    EXPECT_EQ(ids[t * 6 + 5], (t % 8) / 4 * 100 + 2);
  }
}

}  // namespace

namespace {

__mlu_global__ void count_tasks(int *hits) {
  if (__is_ipu()) __bang_atomic_add(hits + taskId, 1);
}

TEST(Launch, MoreTasksThanCoresRunInWavesEachTaskOnce) {
  const unsigned tasks = 4 * 8 * 5;  // five waves on a 32-core device
  DeviceBuffer<int> hits(std::vector<int>(tasks, 0));
  ASSERT_EQ(MLUSIM_LAUNCH(count_tasks, (cnrtDim3_t{4, 8 * 5, 1}), cnrtFuncTypeUnion1, nullptr,
                          hits.get()),
            cnrtSuccess);
  for (int h : hits.download()) EXPECT_EQ(h, 1);
}

TEST(Launch, BlockTaskSeesItselfAsALoneCore) {
  DeviceBuffer<int> out(7 * 6);
  ASSERT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{7, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          out.get()),
            cnrtSuccess);
  auto ids = out.download();
  for (int t = 0; t < 7; ++t) {
    EXPECT_EQ(ids[t * 6 + 0], t);
    EXPECT_EQ(ids[t * 6 + 4], 0);  // coreId
    EXPECT_EQ(ids[t * 6 + 5], 1);  // clusterId 0, clusterDim 1
  }
}

TEST(Launch, RejectsDimensionsTheDeviceRejects) {
  DeviceBuffer<int> out(64 * 6);
  EXPECT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{3, 1, 1}), cnrtFuncTypeUnion1, nullptr,
                          out.get()),
            cnrtErrorInvalidKernelDim);
  EXPECT_NE(std::string(mlusimGetLastError()).find("multiple of 4"), std::string::npos);
  EXPECT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{4, 2, 1}), cnrtFuncTypeUnion2, nullptr,
                          out.get()),
            cnrtErrorInvalidKernelDim);  // Union2 needs dim.x a multiple of 8
  EXPECT_NE(std::string(mlusimGetLastError()).find("dim.x a multiple of 8"), std::string::npos)
      << mlusimGetLastError();
  EXPECT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{0, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          out.get()),
            cnrtErrorInvalidKernelDim);
  EXPECT_EQ(MLUSIM_LAUNCH(record_ids, (cnrtDim3_t{4, 16, 1}), cnrtFuncTypeUnion16, nullptr,
                          out.get()),
            cnrtErrorInvalidKernelDim);  // 16 clusters on an 8-cluster device
  EXPECT_NE(std::string(mlusimGetLastError()).find("power of two no larger than the cluster count"),
            std::string::npos)
      << mlusimGetLastError();
}

// Each core writes its id to SRAM, meets the others at the barrier, then reads
// all four: only a working barrier over really concurrent cores gives 0+1+2+3.
// The memory core takes part in both barriers (guide 3.3.5.2).
__mlu_global__ void exchange_through_sram(int *sums) {
  __sram_buffer__(int, shared, 4);
  if (__is_mpu()) {
    __sync_cluster();
    __sync_cluster();
    return;
  }
  shared[coreId] = coreId + 1;
  __sync_cluster();
  sums[taskId] = shared[0] + shared[1] + shared[2] + shared[3];
  __sync_cluster();  // nobody overwrites SRAM while another core still reads it
}

TEST(Launch, ClusterBarrierSynchronisesConcurrentCoresThroughSram) {
  DeviceBuffer<int> sums(32 * 3);
  ASSERT_EQ(MLUSIM_LAUNCH(exchange_through_sram, (cnrtDim3_t{4, 8 * 3, 1}), cnrtFuncTypeUnion1,
                          nullptr, sums.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  for (int s : sums.download()) EXPECT_EQ(s, 10);
}

__mlu_global__ void core_zero_skips_barrier() {
  if (coreId == 0) return;
  __sync_cluster();
}

TEST(Launch, BarrierThatCanNeverCompleteIsReportedNotHung) {
  EXPECT_EQ(MLUSIM_LAUNCH(core_zero_skips_barrier, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1,
                          nullptr),
            cnrtErrorKernelFault);
  EXPECT_NE(std::string(mlusimGetLastError()).find("deadlock"), std::string::npos)
      << mlusimGetLastError();
}

// Every core publishes to GDRAM, meets all others, then sums what all published.
__mlu_global__ void exchange_across_clusters(int *slots, int *sums) {
  if (__is_mpu()) {
    __sync_all();  // memory cores take part in __sync_all
    return;
  }
  slots[taskId] = 1;
  __sync_all();
  int total = 0;
  for (int i = 0; i < taskDim; ++i) total += slots[i];
  sums[taskId] = total;
}

TEST(Launch, UnionWideBarrierSpansEveryCluster) {
  DeviceBuffer<int> slots(std::vector<int>(32, 0)), sums(32);
  ASSERT_EQ(MLUSIM_LAUNCH(exchange_across_clusters, (cnrtDim3_t{32, 1, 1}), cnrtFuncTypeUnion8,
                          nullptr, slots.get(), sums.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  for (int s : sums.download()) EXPECT_EQ(s, 32);
}

// Core 0 waits for the whole launch while its cluster waits for it: nobody moves.
__mlu_global__ void mismatched_barriers() {
  if (coreId == 0)
    __sync_all();
  else
    __sync_cluster();
}

TEST(Launch, CoresParkedAtBarriersThatCannotCompleteAreADeadlock) {
  EXPECT_EQ(MLUSIM_LAUNCH(mismatched_barriers, (cnrtDim3_t{4, 2, 1}), cnrtFuncTypeUnion1, nullptr),
            cnrtErrorKernelFault);
  EXPECT_NE(std::string(mlusimGetLastError()).find("deadlock"), std::string::npos)
      << mlusimGetLastError();
}

__mlu_global__ void sync_cluster_in_block() { __sync_cluster(); }

TEST(Launch, ClusterBarrierInBlockTaskIsAFault) {
  EXPECT_EQ(MLUSIM_LAUNCH(sync_cluster_in_block, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock, nullptr),
            cnrtErrorKernelFault);
  EXPECT_NE(std::string(mlusimGetLastError()).find("needs a UNION task"), std::string::npos);
}

__mlu_global__ void throws_on_task_five() {
  if (taskId == 5) throw std::runtime_error("boom");
}

TEST(Launch, KernelThatThrowsFailsTheLaunchWithItsMessage) {
  EXPECT_EQ(MLUSIM_LAUNCH(throws_on_task_five, (cnrtDim3_t{8, 1, 1}), cnrtFuncTypeUnion1, nullptr),
            cnrtErrorKernelFault);
  const std::string msg = mlusimGetLastError();
  EXPECT_NE(msg.find("throws_on_task_five"), std::string::npos) << msg;
  EXPECT_NE(msg.find("task 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("boom"), std::string::npos) << msg;
}

}  // namespace
