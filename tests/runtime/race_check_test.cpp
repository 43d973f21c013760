// GDRAM races between cores (runtime/race_check.h): accesses of two cores that
// meet byte-wise, one a write, with no barrier ordering them, fail the launch
// naming both; barriers, atomics and disjoint strided ranges are not races.
#include <gtest/gtest.h>

#include <string>

#include "tests/runtime/launch_fault.h"

namespace {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::expect_mentions;
using mlusim::harness::ScopedEnv;

// Every task stores its id into the same word.
__mlu_global__ void all_store_to_one_word(int *word) {
  __nram_buffer__(int, id, 32);
  id[0] = taskId;
  __memcpy(word, id, sizeof(int), NRAM2GDRAM);
}

TEST(RaceCheck, TwoBlockTasksWritingOneWordAreARace) {
  DeviceBuffer<int> word(1);
  EXPECT_EQ(MLUSIM_LAUNCH(all_store_to_one_word, (cnrtDim3_t{2, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          word.get()),
            cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(),
                  {"GDRAM race", "cluster 0 core 0 (task 0) __memcpy NRAM2GDRAM",
                   "cluster 0 core 1 (task 1) __memcpy NRAM2GDRAM", "writes 4 bytes at",
                   "no barrier ordering them"});
}

TEST(RaceCheck, WarnModeLetsTheLaunchSucceedAndOffSkipsTheCheck) {
  DeviceBuffer<int> word(1);
  for (const char *mode : {"warn", "off"}) {
    ScopedEnv races("MLUSIM_RACES", mode);
    EXPECT_EQ(MLUSIM_LAUNCH(all_store_to_one_word, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeBlock,
                            nullptr, word.get()),
              cnrtSuccess)
        << mode << ": " << mlusimGetLastError();
  }
}

// Task t writes one int of row r = t into column t of a rows x 4 matrix
// (strided: one int every row); columns are disjoint, bounding boxes are not.
__mlu_global__ void each_task_writes_its_column(int *matrix, int rows) {
  __nram_buffer__(int, column, 64);
  for (int r = 0; r < rows; ++r) column[r] = r * 10 + taskId;
  __memcpy(matrix + taskId, column, sizeof(int), NRAM2GDRAM, 4 * sizeof(int), sizeof(int),
           rows - 1);
}

TEST(RaceCheck, InterleavedStridedWritesOfDifferentCoresAreNotARace) {
  const int rows = 8;
  DeviceBuffer<int> matrix(rows * 4);
  ASSERT_EQ(MLUSIM_LAUNCH(each_task_writes_its_column, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeBlock,
                          nullptr, matrix.get(), rows),
            cnrtSuccess)
      << mlusimGetLastError();
  const std::vector<int> got = matrix.download();
  for (int r = 0; r < rows; ++r)
    for (int t = 0; t < 4; ++t) EXPECT_EQ(got[r * 4 + t], r * 10 + t);
}

// Every compute core adds its id to one word atomically.
__mlu_global__ void all_add_atomically(int *sum) {
  if (__is_ipu()) __bang_atomic_add(sum, taskId);
}

TEST(RaceCheck, AtomicsOfManyCoresOnOneWordAreNotARace) {
  DeviceBuffer<int> sum(std::vector<int>{0});
  ASSERT_EQ(MLUSIM_LAUNCH(all_add_atomically, (cnrtDim3_t{8, 1, 1}), cnrtFuncTypeUnion2, nullptr,
                          sum.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(sum.download()[0], 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
}

// Task 0 writes `data`; task `reader` reads it back into out, after a barrier
// of the given scope (or none).
template <int kScope>  // 0: none, 1: __sync_cluster, 2: __sync_all
__mlu_global__ void write_then_read(int *data, int *out, int reader) {
  if (__is_mpu()) {
    if (kScope == 1) __sync_cluster();
    if (kScope == 2) __sync_all();
    return;
  }
  __nram_buffer__(int, buffer, 32);
  if (taskId == 0) {
    for (int i = 0; i < 8; ++i) buffer[i] = 100 + i;
    __memcpy(data, buffer, 8 * sizeof(int), NRAM2GDRAM);
  }
  if (kScope == 1) __sync_cluster();
  if (kScope == 2) __sync_all();
  if (taskId == reader) {
    __memcpy(buffer, data, 8 * sizeof(int), GDRAM2NRAM);
    __memcpy(out, buffer, 8 * sizeof(int), NRAM2GDRAM);
  }
}

cnrtRet_t launch_write_then_read(void (*kernel)(int *, int *, int), int reader,
                                 std::vector<int> *out_host) {
  DeviceBuffer<int> data(8), out(8);
  const cnrtRet_t ret =
      MLUSIM_LAUNCH(kernel, (cnrtDim3_t{8, 1, 1}), cnrtFuncTypeUnion2, nullptr, data.get(),
                    out.get(), reader);
  *out_host = out.download();
  return ret;
}

const std::vector<int> kWritten = {100, 101, 102, 103, 104, 105, 106, 107};

TEST(RaceCheck, ReadAfterWriteAcrossClustersNeedsSyncAll) {
  std::vector<int> out;
  EXPECT_EQ(launch_write_then_read(write_then_read<0>, 4, &out), cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(),
                  {"GDRAM race", "cluster 0 core 0 (task 0) __memcpy NRAM2GDRAM",
                   "cluster 1 core 0 (task 4) __memcpy GDRAM2NRAM", "writes 32 bytes at"});
  // __sync_cluster orders one cluster only: cluster 1 is still unordered.
  EXPECT_EQ(launch_write_then_read(write_then_read<1>, 4, &out), cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"GDRAM race", "(task 4) __memcpy GDRAM2NRAM"});
  ASSERT_EQ(launch_write_then_read(write_then_read<2>, 4, &out), cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(out, kWritten);
}

TEST(RaceCheck, SyncClusterOrdersTheCoresOfOneCluster) {
  std::vector<int> out;
  ASSERT_EQ(launch_write_then_read(write_then_read<1>, 3, &out), cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(out, kWritten);
}

// Two UnionN tasks are never ordered: task 8 (the second Union2 task) reads
// what task 0 wrote even though both pass __sync_all.
TEST(RaceCheck, DifferentUnionTasksAreNeverOrdered) {
  DeviceBuffer<int> data(8), out(8);
  EXPECT_EQ(MLUSIM_LAUNCH(write_then_read<2>, (cnrtDim3_t{16, 1, 1}), cnrtFuncTypeUnion2, nullptr,
                          data.get(), out.get(), 8),
            cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"GDRAM race", "(task 8) __memcpy GDRAM2NRAM"});
}

// An atomic add and a plain read of the same word by another core race.
__mlu_global__ void add_while_another_reads(int *word, int *out) {
  __nram_buffer__(int, buffer, 32);
  if (taskId == 0) __bang_atomic_add(word, 5);
  if (taskId == 1) {
    __memcpy(buffer, word, sizeof(int), GDRAM2NRAM);
    __memcpy(out, buffer, sizeof(int), NRAM2GDRAM);
  }
}

TEST(RaceCheck, AnAtomicAndAPlainReadOfOneWordAreARace) {
  DeviceBuffer<int> word(std::vector<int>{1}), out(1);
  EXPECT_EQ(MLUSIM_LAUNCH(add_while_another_reads, (cnrtDim3_t{2, 1, 1}), cnrtFuncTypeBlock,
                          nullptr, word.get(), out.get()),
            cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"GDRAM race", "__bang_atomic_add", "__memcpy GDRAM2NRAM"});
}

}  // namespace
