// cnnlFill_v3 against a host fill: every dtype width, both pointer modes,
// more elements than one NRAM block per core, zero elements, bad arguments.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

// Fills a tensor of `count` elements of T with `value` (host mode) and
// expects every element to be `value`, bit for bit; the buffer starts as 0x5A.
template <typename T>
void expect_host_fill(cnnlDataType_t dtype, T value, size_t count) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_ARRAY, dtype, {static_cast<int64_t>(count)});
  std::vector<T> start(count);
  std::memset(start.data(), 0x5A, count * sizeof(T));
  DeviceBuffer<T> out(start);
  ASSERT_EQ(cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, desc, out.get()),
            CNNL_STATUS_SUCCESS);
  const std::vector<T> got = out.download();
  for (size_t i = 0; i < count; ++i)
    ASSERT_EQ(std::memcmp(&got[i], &value, sizeof(T)), 0) << "element " << i << " of " << count;
}

TEST(CnnlFill, HostValueEveryWidth) {
  expect_host_fill<float>(CNNL_DTYPE_FLOAT, -3.25f, 1000);
  expect_host_fill<_Float16>(CNNL_DTYPE_HALF, static_cast<_Float16>(1.5f), 777);
  expect_host_fill<int8_t>(CNNL_DTYPE_INT8, -7, 4099);
  expect_host_fill<uint8_t>(CNNL_DTYPE_BOOL, 1, 33);
  expect_host_fill<int32_t>(CNNL_DTYPE_INT32, 123456789, 1);
  expect_host_fill<int64_t>(CNNL_DTYPE_INT64, -9000000000LL, 515);
  expect_host_fill<std::complex<float>>(CNNL_DTYPE_COMPLEX_FLOAT, {1.0f, -2.0f}, 300);
}

// Every task walks its share in several NRAM-sized blocks.
TEST(CnnlFill, MoreThanOneNramBlockPerCore) {
  expect_host_fill<float>(CNNL_DTYPE_FLOAT, 0.5f, 6'000'017);
}

// mlu-ops passes a uint64_t 0 for tensors of any dtype: the output's width counts.
TEST(CnnlFill, ValueIsReadAtTheOutputsWidth) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {2, 3, 4, 5});
  DeviceBuffer<float> out(std::vector<float>(120, 9.0f));
  const uint64_t zero = 0;
  ASSERT_EQ(cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &zero, desc, out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(out.download(), std::vector<float>(120, 0.0f));
}

TEST(CnnlFill, DeviceValue) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT16, {5000});
  DeviceBuffer<int16_t> value(std::vector<int16_t>{-1234});
  DeviceBuffer<int16_t> out(std::vector<int16_t>(5000, 0));
  ASSERT_EQ(cnnlFill_v3(handle, CNNL_POINTER_MODE_DEVICE, value.get(), desc, out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(out.download(), std::vector<int16_t>(5000, -1234));
}

TEST(CnnlFill, ZeroElementsLaunchNothing) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {2, 0, 4, 5});
  const float value = 1.0f;
  EXPECT_EQ(cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, desc, nullptr),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);
}

TEST(CnnlFill, ReportsItsLaunch) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {100000});
  DeviceBuffer<float> out(100000);
  const float value = 2.0f;
  ASSERT_EQ(cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, desc, out.get()),
            CNNL_STATUS_SUCCESS);
  const mlusimReport_t report = handle.last_op_report();
  EXPECT_EQ(report.launches, 1);
  EXPECT_GT(report.device_time_us, 0.0);
}

TEST(CnnlFill, RefusesBadArguments) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {64});
  Desc unset(Desc::Unset{});
  Desc strided(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 4}, {8, 1});
  DeviceBuffer<float> out(64);
  const float value = 1.0f;
  float host[64];
  const char *api = "cnnlFill_v3";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live handle",
                 cnnlFill_v3(nullptr, CNNL_POINTER_MODE_HOST, &value, desc, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "output_desc is NULL",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, nullptr, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "never set",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, unset, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "pointer_mode is 7",
                 cnnlFill_v3(handle, static_cast<cnnlPointerMode_t>(7), &value, desc, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "value is NULL",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, nullptr, desc, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not device memory",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, desc, host));
  // A device value must be device memory.
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "value =",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_DEVICE, &value, desc, out.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "dense",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, strided, out.get()));
  // Nothing was written.
  const std::vector<float> after = out.download();
  EXPECT_TRUE(std::all_of(after.begin(), after.end(), [](float x) { return x != 1.0f; }));
}

}  // namespace
}  // namespace cnnl_test
