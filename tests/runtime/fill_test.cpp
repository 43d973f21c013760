// Memory nobody wrote looks uninitialised: on-chip memory is refilled before
// every launch and cnrtMalloc memory starts filled (NaN bytes by default),
// so a kernel that forgets to zero its accumulator produces NaN instead of
// passing with what the previous launch or the OS left.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/runtime/launch_fault.h"

namespace {

using mlusim::harness::CheckSettings;
using mlusim::harness::DeviceBuffer;
using mlusim::harness::fault_of;

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// A correct kernel: zeroes its accumulator, then adds x to it.
__mlu_global__ void accumulates_after_zeroing(const float *x, float *out) {
  __nram_buffer__(float, acc, 64);
  __nram_buffer__(float, xs, 64);
  __bang_write_value(acc, 64, 0.0f);
  __memcpy(xs, x, 64 * sizeof(float), GDRAM2NRAM);
  __bang_add(acc, acc, xs, 64);
  __memcpy(out + taskId * 64, acc, 64 * sizeof(float), NRAM2GDRAM);
}

// The bug: the same kernel without the zeroing.
__mlu_global__ void accumulates_without_zeroing(const float *x, float *out) {
  __nram_buffer__(float, acc, 64);
  __nram_buffer__(float, xs, 64);
  __memcpy(xs, x, 64 * sizeof(float), GDRAM2NRAM);
  __bang_add(acc, acc, xs, 64);
  __memcpy(out + taskId * 64, acc, 64 * sizeof(float), NRAM2GDRAM);
}

TEST(MemoryFill, UninitialisedAccumulatorGivesNan) {
  CheckSettings nan("nan", true);
  DeviceBuffer<float> x(std::vector<float>(64, 1.5f));
  DeviceBuffer<float> out(4 * 64);
  // The correct kernel leaves zeros + 1.5 in every core's accumulator...
  ASSERT_EQ(fault_of(accumulates_after_zeroing, static_cast<const float *>(x.get()), out.get()),
            "");
  for (float v : out.download()) ASSERT_EQ(v, 1.5f);
  // ...which the buggy one must not find there.
  ASSERT_EQ(
      fault_of(accumulates_without_zeroing, static_cast<const float *>(x.get()), out.get()), "");
  for (float v : out.download()) EXPECT_TRUE(std::isnan(v)) << v;
}

TEST(MemoryFill, NewGdramHoldsThePattern) {
  for (bool guard : {true, false}) {
    {
      CheckSettings nan("nan", guard);
      DeviceBuffer<float> fresh(1000);
      for (float v : fresh.download()) EXPECT_EQ(bits(v), 0xFFFFFFFFu);
    }
    CheckSettings patterned_fill("0xAB", guard);
    DeviceBuffer<float> patterned(10);
    for (float v : patterned.download()) EXPECT_EQ(bits(v), 0xABABABABu);
  }
}

// Copies what its (never written) NRAM buffer holds to out.
__mlu_global__ void copies_unwritten_nram(float *out) {
  __nram_buffer__(float, acc, 64);
  __memcpy(out + taskId * 64, acc, 64 * sizeof(float), NRAM2GDRAM);
}

TEST(MemoryFill, PatternIsChosenAndOffKeepsThePreviousLaunchsData) {
  DeviceBuffer<float> x(std::vector<float>(64, 1.5f));
  DeviceBuffer<float> out(4 * 64);
  {
    CheckSettings zero("zero", true);
    ASSERT_EQ(fault_of(copies_unwritten_nram, out.get()), "");
    for (float v : out.download()) EXPECT_EQ(bits(v), 0u);
  }
  {
    CheckSettings off("off", true);  // as on hardware: NRAM keeps what the last kernel left
    ASSERT_EQ(
        fault_of(accumulates_after_zeroing, static_cast<const float *>(x.get()), out.get()), "");
    ASSERT_EQ(fault_of(copies_unwritten_nram, out.get()), "");
    for (float v : out.download()) EXPECT_EQ(v, 1.5f);
  }
}

TEST(MemoryFill, BadPatternIsRefused) {
  const int before = mlusimGetMemoryFill();
  EXPECT_EQ(mlusimSetMemoryFill("purple"), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimSetMemoryFill("0x100"), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimSetMemoryFill(nullptr), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimGetMemoryFill(), before);
}

}  // namespace
