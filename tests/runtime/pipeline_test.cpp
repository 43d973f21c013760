// The core's pipes: the BANG C guide's three-stage pipeline (4.2, template 2)
// runs correct and overlapped; async copies land at their fence; hazards are
// decided per DMA queue and byte-exactly for strided copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

constexpr int kChunk = 8192;  // floats per stage and operand
constexpr int kChunks = 12;   // stages per core
constexpr int kRounds = 17;   // vector adds per stage (about the IO of a stage): a + kRounds * b

// out = a + kRounds * b over this core's kChunks chunks. Buffer i % 2 holds a
// and b of chunk i; the sum overwrites a. In the guide's issue order: store
// chunk i-2, compute chunk i-1, load chunk i, then one fence. The store of
// i-2 and the load of i use the same buffer in the same (IO) queue.
// `fence` ends each step: __sync_io_move_compute() (the guide's template 2) or
// __sync_all_ipu() (its vector-add sample, after the memory core returned).
__mlu_func__ void vector_add_pipeline(float *out, const float *a, const float *b, void (*fence)()) {
  __nram_buffer__(float, nram, 4 * kChunk);
  auto a_buf = [&](int i) { return nram + (i % 2) * 2 * kChunk; };
  auto b_buf = [&](int i) { return a_buf(i) + kChunk; };
  const size_t base = size_t(taskId) * kChunks * kChunk;
  const int bytes = kChunk * sizeof(float);
  for (int i = 0; i < kChunks + 2; ++i) {
    if (i >= 2) __memcpy_async(out + base + (i - 2) * kChunk, a_buf(i - 2), bytes, NRAM2GDRAM);
    if (i >= 1 && i <= kChunks)
      for (int r = 0; r < kRounds; ++r)
        __bang_add(a_buf(i - 1), a_buf(i - 1), b_buf(i - 1), kChunk);
    if (i < kChunks) {
      __memcpy_async(a_buf(i), a + base + i * kChunk, bytes, GDRAM2NRAM);
      __memcpy_async(b_buf(i), b + base + i * kChunk, bytes, GDRAM2NRAM);
    }
    fence();
  }
}

__mlu_global__ void vector_add_pipelined(float *out, const float *a, const float *b) {
  if (__is_mpu()) return;
  vector_add_pipeline(out, a, b, __sync_io_move_compute);
}
__mlu_global__ void vector_add_pipelined_all_ipu(float *out, const float *a, const float *b) {
  if (__is_mpu()) return;
  vector_add_pipeline(out, a, b, __sync_all_ipu);
}

// The same work, one stage at a time with synchronous copies.
__mlu_global__ void vector_add_serial(float *out, const float *a, const float *b) {
  if (__is_mpu()) return;
  __nram_buffer__(float, nram, 2 * kChunk);
  float *a_buf = nram, *b_buf = nram + kChunk;
  const size_t base = size_t(taskId) * kChunks * kChunk;
  const int bytes = kChunk * sizeof(float);
  for (int i = 0; i < kChunks; ++i) {
    __memcpy(a_buf, a + base + i * kChunk, bytes, GDRAM2NRAM);
    __memcpy(b_buf, b + base + i * kChunk, bytes, GDRAM2NRAM);
    for (int r = 0; r < kRounds; ++r) __bang_add(a_buf, a_buf, b_buf, kChunk);
    __memcpy(out + base + i * kChunk, a_buf, bytes, NRAM2GDRAM);
  }
}

struct AddRun {
  double device_us;
  int wrong;
};

AddRun run_vector_add(void (*kernel)(float *, const float *, const float *)) {
  const size_t n = size_t(4) * kChunks * kChunk;  // one cluster: 4 cores
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 97);
    b[i] = static_cast<float>(i % 13) * 0.5f;
  }
  DeviceBuffer<float> da(a), db(b), dout(n);
  cnrtQueue_t q;
  cnrtQueueCreate(&q);
  EXPECT_EQ(
      mlusim::launch("vector_add", cnrtDim3_t{4, 1, 1}, cnrtFuncTypeUnion1, q, kernel, dout.get(),
                     static_cast<const float *>(da.get()), static_cast<const float *>(db.get())),
      cnrtSuccess)
      << mlusimGetLastError();
  mlusimReport_t report;
  mlusimGetLastLaunchReport(q, &report);
  cnrtQueueDestroy(q);
  std::vector<float> out = dout.download();
  AddRun run{report.device_time_us, 0};
  for (size_t i = 0; i < n; ++i) {
    float expected = a[i];
    for (int r = 0; r < kRounds; ++r) expected += b[i];
    run.wrong += out[i] != expected;
  }
  return run;
}

TEST(Pipeline, GuidesThreeStagePipelineIsCorrectAndOverlapsIoWithCompute) {
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  // The documented costs (docs/cost_model.md), worked out here for one core of
  // a one-cluster launch: 4 cores share the cluster's GDRAM bandwidth.
  const double bytes = kChunk * sizeof(float);
  const double gdram_bytes_per_cycle = spec.cluster_gbps / 4 / spec.clock_ghz;
  const double copy = spec.gdram_latency_cycles + bytes / gdram_bytes_per_cycle;
  const double add = spec.vector_latency_cycles + std::ceil(bytes / spec.vector_bytes_per_cycle);
  const double io_stage = 3 * copy, compute_stage = kRounds * add;
  const double cycles_per_us = spec.clock_ghz * 1e3;
  // The loads of the first stage and the store of the last overlap no compute.
  const double fill_and_drain = 2 * copy + copy;
  const double expected_us =
      (std::max(kChunks * io_stage, kChunks * compute_stage) + fill_and_drain) / cycles_per_us +
      spec.launch_overhead_us;

  const AddRun pipelined = run_vector_add(vector_add_pipelined);
  EXPECT_EQ(pipelined.wrong, 0);
  EXPECT_NEAR(pipelined.device_us, expected_us, 0.1 * expected_us);

  // The sample's barrier as the fence: the 4 cores step together, each step
  // costs one barrier latency more.
  const AddRun with_barrier = run_vector_add(vector_add_pipelined_all_ipu);
  EXPECT_EQ(with_barrier.wrong, 0);
  EXPECT_NEAR(with_barrier.device_us,
              expected_us + (kChunks + 2) * spec.barrier_latency_cycles / cycles_per_us,
              0.1 * expected_us);

  const AddRun serial = run_vector_add(vector_add_serial);
  EXPECT_EQ(serial.wrong, 0);
  const double serial_us =
      kChunks * (io_stage + compute_stage) / cycles_per_us + spec.launch_overhead_us;
  EXPECT_NEAR(serial.device_us, serial_us, 0.1 * serial_us);
  EXPECT_GT(serial.device_us, 1.6 * pipelined.device_us)
      << "serial " << serial.device_us << " us, pipelined " << pipelined.device_us << " us";
}

std::string run_one_core(void (*kernel)(float *), float *gdram) {
  cnrtRet_t ret =
      mlusim::launch("pipe_kernel", cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock, nullptr, kernel, gdram);
  return ret == cnrtSuccess ? "" : mlusimGetLastError();
}

// An async copy's data lands at its fence: unchecked scalar code before it
// sees the old bytes (garbage on the board), after it the new ones.
__mlu_global__ void reads_around_the_fence(float *gdram) {
  __nram_buffer__(float, buf, 64);
  __bang_write_value(buf, 64, 0.0f);
  __memcpy_async(buf, gdram, 64 * sizeof(float), GDRAM2NRAM);
  gdram[64] = buf[5];  // no check: what the board might read before the fence
  __sync_io();
  gdram[65] = buf[5];
}

TEST(Pipeline, AsyncCopyLandsAtItsFence) {
  DeviceBuffer<float> g(std::vector<float>(66, 7.0f));
  ASSERT_EQ(run_one_core(reads_around_the_fence, g.get()), "");
  auto out = g.download();
  EXPECT_EQ(out[64], 0.0f);
  EXPECT_EQ(out[65], 7.0f);
}

__mlu_global__ void scalar_reads_before_fence(float *gdram) {
  __nram_buffer__(float, buf, 64);
  __memcpy_async(buf, gdram, 64 * sizeof(float), GDRAM2NRAM);
  mlusim::detail::check_scalar_access(buf + 3, sizeof(float), false);
}

__mlu_global__ void scalar_writes_async_source(float *gdram) {
  __nram_buffer__(float, buf, 64);
  __bang_write_value(buf, 64, 1.0f);
  __memcpy_async(gdram, buf, 64 * sizeof(float), NRAM2GDRAM);
  mlusim::detail::check_scalar_access(buf + 10, sizeof(float), true);
}

__mlu_global__ void scalar_reads_after_fence(float *gdram) {
  __nram_buffer__(float, buf, 64);
  __memcpy_async(buf, gdram, 64 * sizeof(float), GDRAM2NRAM);
  __sync_io();
  mlusim::detail::check_scalar_access(buf + 3, sizeof(float), false);
  mlusim::detail::check_scalar_access(buf + 3, sizeof(float), true);
}

void expect_mentions(const std::string &message, std::initializer_list<const char *> parts) {
  for (const char *p : parts)
    EXPECT_NE(message.find(p), std::string::npos) << p << " in: " << message;
}

TEST(Pipeline, ScalarAccessToAnUnfencedCopyIsAHazard) {
  DeviceBuffer<float> g(64);
  expect_mentions(run_one_core(scalar_reads_before_fence, g.get()),
                  {"cluster 0 core 0", "async hazard",
                   "scalar code reads NRAM +0xc (4 bytes) (after instruction #1)",
                   "__memcpy_async GDRAM2NRAM (instruction #1, IO pipe)"});
  expect_mentions(run_one_core(scalar_writes_async_source, g.get()),
                  {"scalar code overwrites the source NRAM +0x28 (4 bytes)",
                   "__memcpy_async NRAM2GDRAM (instruction #2, IO pipe) still reads it"});
  EXPECT_EQ(run_one_core(scalar_reads_after_fence, g.get()), "");
}

// Store buffer X, then load into X, both async on the IO queue, one fence: the
// queue runs them in order, so the store sends the old X and X gets the new data.
__mlu_global__ void store_then_load_same_buffer(float *gdram) {
  __nram_buffer__(float, x, 64);
  __bang_write_value(x, 64, 3.0f);
  __memcpy_async(gdram, x, 64 * sizeof(float), NRAM2GDRAM);
  __memcpy_async(x, gdram + 64, 64 * sizeof(float), GDRAM2NRAM);
  __sync_io();
  __memcpy(gdram + 128, x, 64 * sizeof(float), NRAM2GDRAM);
}

TEST(Pipeline, CopiesInOneDmaQueueNeverConflict) {
  std::vector<float> host(192, 0.0f);
  std::fill(host.begin() + 64, host.begin() + 128, 5.0f);
  DeviceBuffer<float> g(host);
  ASSERT_EQ(run_one_core(store_then_load_same_buffer, g.get()), "");
  auto out = g.download();
  EXPECT_EQ(std::count(out.begin(), out.begin() + 64, 3.0f), 64);
  EXPECT_EQ(std::count(out.begin() + 128, out.end(), 5.0f), 64);
}

// Two async copies on different queues (IO, Move) fill the even and the odd
// 16-byte rows of one NRAM buffer: their bounding boxes overlap, their bytes
// do not. A vector instruction on a buffer between them is no hazard either.
__mlu_global__ void interleaved_strided_copies(float *gdram) {
  __nram_buffer__(float, rows, 256);
  __nram_buffer__(float, src, 128);
  __bang_write_value(src, 128, 2.0f);
  __memcpy_async(rows, gdram, 16, GDRAM2NRAM, 32, 16, 7);   // rows 0, 2, .. 14
  __memcpy_async(rows + 4, src, 16, NRAM2NRAM, 32, 16, 7);  // rows 1, 3, .. 15
  __sync();
  __memcpy(gdram + 64, rows, 32 * sizeof(float), NRAM2GDRAM);
}

// The same, but the second copy's rows are 20 bytes: each overlaps the next
// even row by 4 bytes.
__mlu_global__ void overlapping_strided_copies(float *gdram) {
  __nram_buffer__(float, rows, 256);
  __nram_buffer__(float, src, 128);
  __bang_write_value(src, 128, 2.0f);
  __memcpy_async(rows, gdram, 16, GDRAM2NRAM, 32, 16, 7);
  __memcpy_async(rows + 4, src, 20, NRAM2NRAM, 32, 20, 6);
}

// One 16-byte GDRAM row broadcast to 8 NRAM rows (source stride 0): a scalar
// write past that row is no hazard, one into it is.
__mlu_global__ void broadcast_then_scalar_writes(float *gdram) {
  __nram_buffer__(float, rows, 64);
  __memcpy_async(rows, gdram, 16, GDRAM2NRAM, 32, 0, 7);
  mlusim::detail::check_scalar_access(gdram + 40, sizeof(float), true);
  mlusim::detail::check_scalar_access(gdram + 2, sizeof(float), true);
}

TEST(Pipeline, StridedCopiesConflictOnlyWhereTheirBytesMeet) {
  std::vector<float> host(96, 1.0f);
  DeviceBuffer<float> g(host);
  ASSERT_EQ(run_one_core(interleaved_strided_copies, g.get()), "");
  auto out = g.download();
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[64 + i], (i / 4) % 2 == 0 ? 1.0f : 2.0f) << i;
  expect_mentions(run_one_core(overlapping_strided_copies, g.get()),
                  {"async hazard", "__memcpy_async NRAM2NRAM writes NRAM +0x20 (4 bytes)",
                   "__memcpy_async GDRAM2NRAM (instruction #2, IO pipe) still writes it"});
  expect_mentions(run_one_core(broadcast_then_scalar_writes, g.get()),
                  {"scalar code overwrites the source", "(4 bytes)", "(instruction #1, IO pipe)"});
}

// A load issued after a compute overlaps it: independent instructions on
// different pipes run in parallel, a dependent one waits.
__mlu_global__ void load_after_compute(float *gdram) {
  __nram_buffer__(float, x, 16384);
  __nram_buffer__(float, y, 16384);
  __bang_write_value(x, 16384, 1.0f);
  for (int r = 0; r < 8; ++r) __bang_add(x, x, x, 16384);
  __memcpy(y, gdram, 16384 * sizeof(float), GDRAM2NRAM);  // independent of x
}
__mlu_global__ void dependent_load_after_compute(float *gdram) {
  __nram_buffer__(float, x, 16384);
  __bang_write_value(x, 16384, 1.0f);
  for (int r = 0; r < 8; ++r) __bang_add(x, x, x, 16384);
  __memcpy(x, gdram, 16384 * sizeof(float), GDRAM2NRAM);  // overwrites x: waits (WAR/WAW)
}

TEST(Pipeline, IndependentInstructionsOnDifferentPipesOverlap) {
  DeviceBuffer<float> g(16384);
  auto time_of = [&](void (*kernel)(float *)) {
    cnrtQueue_t q;
    cnrtQueueCreate(&q);
    EXPECT_EQ(mlusim::launch("overlap", cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock, q, kernel, g.get()),
              cnrtSuccess);
    mlusimReport_t r;
    mlusimGetLastLaunchReport(q, &r);
    cnrtQueueDestroy(q);
    return r;
  };
  const mlusimReport_t parallel = time_of(load_after_compute);
  const mlusimReport_t dependent = time_of(dependent_load_after_compute);
  const double vector_us = parallel.core_pipe_busy_us[0][MLUSIM_PIPE_VECTOR];
  const double io_us = parallel.core_pipe_busy_us[0][MLUSIM_PIPE_IO];
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  const double body_us = parallel.device_time_us - spec.launch_overhead_us;
  EXPECT_LT(body_us, 1.01 * std::max(vector_us, io_us) + 0.01);
  EXPECT_NEAR(dependent.device_time_us - spec.launch_overhead_us, vector_us + io_us, 0.01);
}

}  // namespace
