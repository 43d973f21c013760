// The device fill of ops/common: every supported dtype, lengths that do not
// divide into tasks or NRAM blocks, guard bands, bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ops/common/fill_kernel.h"
#include "tests/masked_im2col_forward/masked_im2col_forward_test.h"

namespace mluop::masked_im2col_forward::test {
namespace {

template <typename T>
void expect_fill(mluOpDataType_t dtype, double value, T expected, size_t count) {
  SCOPED_TRACE("dtype " + std::to_string(dtype) + ", " + std::to_string(count) + " elements");
  Handle handle;
  GuardedBuffer<T> dst(count);
  ASSERT_EQ(mluop::launch_fill(handle, "fill_test", dtype, value, dst.get(), count),
            MLUOP_STATUS_SUCCESS)
      << mlusimGetLastError();
  EXPECT_EQ(first_bit_difference(dst.download(), std::vector<T>(count, expected)), -1);
  EXPECT_TRUE(dst.guards_intact());
}

TEST(Fill, EveryDtype) {
  for (size_t count : {1, 33333}) {
    expect_fill<_Float16>(MLUOP_DTYPE_HALF, 1.5, _Float16(1.5f), count);
    expect_fill<float>(MLUOP_DTYPE_FLOAT, -2.25, -2.25f, count);
    expect_fill<float>(MLUOP_DTYPE_FLOAT, 0.0, 0.0f, count);
    expect_fill<int8_t>(MLUOP_DTYPE_INT8, -7, int8_t{-7}, count);
    expect_fill<uint8_t>(MLUOP_DTYPE_UINT8, 200, uint8_t{200}, count);
    expect_fill<uint8_t>(MLUOP_DTYPE_BOOL, 1, uint8_t{1}, count);
    expect_fill<int16_t>(MLUOP_DTYPE_INT16, -300, int16_t{-300}, count);
    expect_fill<int32_t>(MLUOP_DTYPE_INT32, 123456, int32_t{123456}, count);
    expect_fill<int64_t>(MLUOP_DTYPE_INT64, -5, int64_t{-5}, count);
  }
  expect_fill<float>(MLUOP_DTYPE_FLOAT, NAN, NAN, 100);
}

// 8 KB of NRAM: each task copies its block many times.
TEST(Fill, TinyNramRepeatsTheBlock) {
  ScopedDevice device(current_device_with(tiny_nram));
  expect_fill<float>(MLUOP_DTYPE_FLOAT, 3.0, 3.0f, 100003);
  expect_fill<_Float16>(MLUOP_DTYPE_HALF, -1.0, _Float16(-1.0f), 70001);
}

TEST(Fill, ZeroElementsLaunchNothing) {
  Handle handle;
  DeviceBuffer<float> dst(1);
  EXPECT_EQ(mluop::launch_fill(handle, "fill_test", MLUOP_DTYPE_FLOAT, 1.0, dst.get(), 0),
            MLUOP_STATUS_SUCCESS);
  EXPECT_FALSE(anything_launched(handle.queue()));
}

TEST(Fill, BadArgumentsAreRejected) {
  Handle handle;
  DeviceBuffer<float> dst(16);
  std::vector<float> host(16);
  const mluOpStatus_t kBad = MLUOP_STATUS_BAD_PARAM;
  EXPECT_EQ(mluop::launch_fill(nullptr, "fill_test", MLUOP_DTYPE_FLOAT, 0, dst.get(), 16), kBad);
  EXPECT_EQ(mluop::launch_fill(handle, "fill_test", MLUOP_DTYPE_INVALID, 0, dst.get(), 16), kBad);
  EXPECT_EQ(mluop::launch_fill(handle, "fill_test", MLUOP_DTYPE_FLOAT, 0, host.data(), 16), kBad);
  EXPECT_EQ(mluop::launch_fill(handle, "fill_test", MLUOP_DTYPE_FLOAT, 0, dst.get(), 17), kBad);
  EXPECT_EQ(mluop::launch_fill(handle, "fill_test", MLUOP_DTYPE_FLOAT, 0, nullptr, 16), kBad);
  EXPECT_FALSE(anything_launched(handle.queue()));
}

}  // namespace
}  // namespace mluop::masked_im2col_forward::test
