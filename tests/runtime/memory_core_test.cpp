// The memory core (MPU): one per cluster in UNION launches, none in BLOCK; it
// sees __is_mpu() and coreId 0x80, has no NRAM, joins __sync_cluster, and
// stages data in SRAM for the cluster's compute cores.
#include <gtest/gtest.h>

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

// counts[0]: memory cores, counts[1]: compute cores, counts[2]: memory cores
// that saw coreId 0x80 and not __is_ipu().
__mlu_global__ void count_core_kinds(int *counts) {
  if (__is_mpu()) {
    __bang_atomic_add(counts, 1);
    if (coreId == 0x80 && !__is_ipu()) __bang_atomic_add(counts + 2, 1);
  } else {
    __bang_atomic_add(counts + 1, 1);
  }
}

TEST(MemoryCore, UnionLaunchesRunOnePerClusterBlockLaunchesNone) {
  DeviceBuffer<int> counts(std::vector<int>(3, 0));
  ASSERT_EQ(MLUSIM_LAUNCH(count_core_kinds, (cnrtDim3_t{4, 3, 1}), cnrtFuncTypeUnion1, nullptr,
                          counts.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(counts.download(), (std::vector<int>{3, 12, 3}));
  counts.upload({0, 0, 0});
  ASSERT_EQ(MLUSIM_LAUNCH(count_core_kinds, (cnrtDim3_t{12, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          counts.get()),
            cnrtSuccess);
  EXPECT_EQ(counts.download(), (std::vector<int>{0, 12, 0}));
}

__mlu_global__ void uses_nram_on_every_core() {
  __nram_buffer__(float, x, 64);
  __bang_write_value(x, 64, 1.0f);
}

TEST(MemoryCore, HasNoNram) {
  EXPECT_EQ(
      MLUSIM_LAUNCH(uses_nram_on_every_core, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1, nullptr),
      cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(), {"cluster 0 memory core", "__bang_write_value",
                                         "which a memory core does not have", "__is_mpu()"});
}

constexpr int kTile = 4096;  // floats per tile: 1024 per compute core
constexpr int kTiles = 6;

// The guide's SRAM staging (4.2, four-stage pipeline, simplified): per tile,
// the memory core loads it from GDRAM into SRAM; after the barrier each compute
// core moves its quarter to NRAM, doubles it and stores it; the second barrier
// keeps the memory core from overwriting SRAM while the cores still read it.
__mlu_global__ void sram_staged_double(float *out, const float *in, bool with_barrier) {
  __sram_buffer__(float, tile, kTile);
  __nram_buffer__(float, part, kTile / 4);
  const int quarter = kTile / 4;
  const size_t base = size_t(taskIdY) * kTiles * kTile;  // this cluster's tiles
  for (int t = 0; t < kTiles; ++t) {
    if (__is_mpu()) __memcpy(tile, in + base + t * kTile, kTile * sizeof(float), GDRAM2SRAM);
    if (with_barrier) __sync_cluster();
    if (__is_ipu()) {
      __memcpy(part, tile + coreId * quarter, quarter * sizeof(float), SRAM2NRAM);
      __bang_add(part, part, part, quarter);
      __memcpy(out + base + t * kTile + coreId * quarter, part, quarter * sizeof(float),
               NRAM2GDRAM);
    }
    if (with_barrier) __sync_cluster();
  }
}

TEST(MemoryCore, StagesTilesInSramForTheComputeCores) {
  const size_t n = size_t(2) * kTiles * kTile;  // two clusters
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 1009) - 300.0f;
  DeviceBuffer<float> din(in), dout(n);
  ASSERT_EQ(MLUSIM_LAUNCH(sram_staged_double, (cnrtDim3_t{4, 2, 1}), cnrtFuncTypeUnion1, nullptr,
                          dout.get(), static_cast<const float *>(din.get()), true),
            cnrtSuccess)
      << mlusimGetLastError();
  auto out = dout.download();
  int wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += out[i] != 2 * in[i];
  EXPECT_EQ(wrong, 0);
}

TEST(MemoryCore, SramReadWithoutTheBarrierIsARace) {
  const size_t n = size_t(2) * kTiles * kTile;
  DeviceBuffer<float> din(n), dout(n);
  ASSERT_EQ(MLUSIM_LAUNCH(sram_staged_double, (cnrtDim3_t{4, 2, 1}), cnrtFuncTypeUnion1, nullptr,
                          dout.get(), static_cast<const float *>(din.get()), false),
            cnrtErrorKernelFault);
  // Whichever side the schedule runs first, the second access names the first.
  const std::string msg = mlusimGetLastError();
  expect_mentions(msg, {"SRAM race", "SRAM +0x", "no __sync_cluster() between them",
                        "__memcpy GDRAM2SRAM", "__memcpy SRAM2NRAM"});
  EXPECT_NE(msg.find("memory core"), std::string::npos) << msg;
}

}  // namespace
