// Barriers span what the guide says (3.3.5.2): __sync_cluster one physical
// cluster and its memory core, __sync_all the clusters of one UnionN task,
// __sync_all_ipu that task's compute cores. Deadlocks name who waits where,
// also when the host caller limits OpenMP threads or is inside a parallel region.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

void expect_mentions(const std::string &message, std::initializer_list<const char *> parts) {
  for (const char *p : parts)
    EXPECT_NE(message.find(p), std::string::npos) << p << " in: " << message;
}

// Only the cluster running task ids 0..3 (and its memory core) meets at __sync_all.
__mlu_global__ void first_cluster_syncs_all() {
  if (taskId / coreDim == 0) __sync_all();
}

TEST(Barrier, SyncAllOfAUnion1TaskSpansOneCluster) {
  EXPECT_EQ(
      MLUSIM_LAUNCH(first_cluster_syncs_all, (cnrtDim3_t{4, 8, 1}), cnrtFuncTypeUnion1, nullptr),
      cnrtSuccess)
      << mlusimGetLastError();
}

TEST(Barrier, SyncAllOfAUnion2TaskWithAMissingPartnerIsANamedDeadlock) {
  EXPECT_EQ(
      MLUSIM_LAUNCH(first_cluster_syncs_all, (cnrtDim3_t{8, 4, 1}), cnrtFuncTypeUnion2, nullptr),
      cnrtErrorKernelFault);
  // A core of cluster 0 reports it. Whether it finds cluster 1 already done
  // (nobody waiting yet) or is woken when cluster 1's first core finishes
  // depends on how the two workers interleave; both name that core.
  expect_mentions(mlusimGetLastError(), {"[cluster 0 ", "__sync_all", "deadlock",
                                         "finished without reaching it: cluster 1 core 0"});
}

// The memory cores leave at once; the compute cores of each Union2 task
// exchange through GDRAM across their two clusters.
__mlu_global__ void compute_cores_exchange(int *slots, int *sums) {
  if (__is_mpu()) return;
  slots[taskId] = taskId;
  __sync_all_ipu();
  const int first = taskId / 8 * 8;  // this Union2 task's first task id
  int total = 0;
  for (int i = first; i < first + 8; ++i) total += slots[i];
  sums[taskId] = total;
}

TEST(Barrier, SyncAllIpuJoinsTheComputeCoresOfOneUnionTask) {
  DeviceBuffer<int> slots(32), sums(32);
  ASSERT_EQ(MLUSIM_LAUNCH(compute_cores_exchange, (cnrtDim3_t{8, 4, 1}), cnrtFuncTypeUnion2,
                          nullptr, slots.get(), sums.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  auto s = sums.download();
  for (int t = 0; t < 32; ++t) {
    const int first = t / 8 * 8;
    EXPECT_EQ(s[t], 8 * first + 28) << t;
  }
}

__mlu_global__ void memory_core_calls_sync_all_ipu() { __sync_all_ipu(); }

TEST(Barrier, SyncAllIpuOnTheMemoryCoreIsAFault) {
  EXPECT_EQ(MLUSIM_LAUNCH(memory_core_calls_sync_all_ipu, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1,
                          nullptr),
            cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"cluster 0 memory core", "__sync_all_ipu",
                                         "the memory core does not take part"});
}

// Every core of a Union8 task meets; core 0 of cluster 3 never arrives.
__mlu_global__ void one_core_skips_sync_all() {
  if (taskId == 12) return;
  __sync_all();
}

cnrtRet_t launch_skipping_core() {
  return MLUSIM_LAUNCH(one_core_skips_sync_all, (cnrtDim3_t{32, 1, 1}), cnrtFuncTypeUnion8,
                       nullptr);
}

TEST(Barrier, DeadlockIsFoundWithOneHostThread) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const cnrtRet_t ret = launch_skipping_core();
  omp_set_num_threads(saved);
  EXPECT_EQ(ret, cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"deadlock", "cluster 3 core 0"});
}

TEST(Barrier, DeadlockIsFoundWhenTheCallerIsInsideAParallelRegion) {
  cnrtRet_t ret = cnrtSuccess;
  std::string message;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      ret = launch_skipping_core();
      message = mlusimGetLastError();
    }
  }
  EXPECT_EQ(ret, cnrtErrorKernelFault);
  expect_mentions(message, {"deadlock", "cluster 3 core 0"});
}

// A union-wide barrier over every cluster completes with a single host thread.
__mlu_global__ void everyone_syncs_all(int *count) {
  __sync_all();
  if (__is_ipu()) __bang_atomic_add(count, 1);
}

TEST(Barrier, UnionWideBarrierCompletesInsideAParallelRegion) {
  DeviceBuffer<int> count(std::vector<int>{0});
  cnrtRet_t ret = cnrtSuccess;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    ret = MLUSIM_LAUNCH(everyone_syncs_all, (cnrtDim3_t{32, 1, 1}), cnrtFuncTypeUnion8, nullptr,
                        count.get());
  }
  EXPECT_EQ(ret, cnrtSuccess) << mlusimGetLastError();
  EXPECT_EQ(count.download()[0], 32);
}

// 64 tasks on 32 cores: two waves. In the first, core 0 of each cluster skips
// the barrier its cluster waits at; its next task may not start (the cluster
// still runs the first Union1 task), so its __sync_cluster there cannot stand in.
__mlu_global__ void core_zero_skips_barrier_in_first_wave() {
  if (taskId < 32 && coreId == 0) return;
  __sync_cluster();
}

TEST(Barrier, WavesDoNotMeetAtOneBarrier) {
  EXPECT_EQ(MLUSIM_LAUNCH(core_zero_skips_barrier_in_first_wave, (cnrtDim3_t{4, 16, 1}),
                          cnrtFuncTypeUnion1, nullptr),
            cnrtErrorKernelFault);
  // Every cluster deadlocks alike; whichever worker gets there first reports.
  expect_mentions(mlusimGetLastError(), {"deadlock", " core 1 at __sync_cluster",
                                         " core 0 at the start of its next task"});
}

}  // namespace
