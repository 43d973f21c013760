// The handle and tensor-descriptor calls every CNNL user makes: what they
// accept (every form mlu-ops' cnnl_helper uses), what they refuse with
// CNNL_STATUS_BAD_PARAM and a log line, and that refusals never crash.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

TEST(CnnlHandle, CreateSetQueueDestroy) {
  cnnlHandle_t handle = nullptr;
  ASSERT_EQ(cnnlCreate(&handle), CNNL_STATUS_SUCCESS);
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  EXPECT_EQ(cnnlSetQueue(handle, queue), CNNL_STATUS_SUCCESS);
  cnrtQueue_t got = nullptr;
  EXPECT_EQ(cnnlGetQueue(handle, &got), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(got, queue);
  // mlu-ops resets the queue to NULL (the default queue) before destroying.
  EXPECT_EQ(cnnlSetQueue(handle, nullptr), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlGetQueue(handle, &got), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(got, nullptr);
  EXPECT_EQ(cnnlDestroy(handle), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnrtQueueDestroy(queue), cnrtSuccess);
}

TEST(CnnlHandle, RefusesWhatIsNotALiveHandle) {
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlCreate", "null output pointer", cnnlCreate(nullptr));
  cnnlHandle_t handle = nullptr;
  ASSERT_EQ(cnnlCreate(&handle), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlDestroy(handle), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlDestroy", "not a live handle", cnnlDestroy(handle));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetQueue", "not a live handle",
                 cnnlSetQueue(handle, nullptr));
  int not_a_handle = 0;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlDestroy", "not a live handle",
                 cnnlDestroy(reinterpret_cast<cnnlHandle_t>(&not_a_handle)));
  cnrtQueue_t queue = nullptr;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetQueue", "not a live handle",
                 cnnlGetQueue(handle, &queue));
}

TEST(CnnlHandle, RefusesAQueueThatIsNotLive) {
  Handle handle;
  int not_a_queue = 0;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetQueue", "not a live queue",
                 cnnlSetQueue(handle, reinterpret_cast<cnrtQueue_t>(&not_a_queue)));
}

// A call on a handle whose queue was destroyed is refused before any launch.
TEST(CnnlHandle, RefusesAQueueDestroyedAfterSetQueue) {
  cnnlHandle_t handle = nullptr;
  ASSERT_EQ(cnnlCreate(&handle), CNNL_STATUS_SUCCESS);
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  ASSERT_EQ(cnnlSetQueue(handle, queue), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnrtQueueDestroy(queue), cnrtSuccess);
  Desc desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {16});
  DeviceBuffer<float> out(16);
  const float value = 1.0f;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlFill_v3", "no longer live",
                 cnnlFill_v3(handle, CNNL_POINTER_MODE_HOST, &value, desc, out.get()));
  EXPECT_EQ(cnnlDestroy(handle), CNNL_STATUS_SUCCESS);
}

TEST(CnnlHandle, ErrorStringsNameTheStatus) {
  EXPECT_STREQ(cnnlGetErrorString(CNNL_STATUS_SUCCESS), "CNNL_STATUS_SUCCESS");
  EXPECT_STREQ(cnnlGetErrorString(CNNL_STATUS_NOT_SUPPORTED), "CNNL_STATUS_NOT_SUPPORTED");
  EXPECT_STREQ(cnnlGetErrorString(CNNL_STATUS_EXECUTION_FAILED), "CNNL_STATUS_EXECUTION_FAILED");
  EXPECT_STREQ(cnnlGetErrorString(static_cast<cnnlStatus_t>(99)), "CNNL_STATUS_BAD_PARAM");
}

// Every call mlu-ops' mluOpConvertDescriptor makes, in its order, on one descriptor.
TEST(CnnlTensorDescriptor, AcceptsTheCallsMluOpsMakes) {
  cnnlTensorDescriptor_t desc = nullptr;
  ASSERT_EQ(cnnlCreateTensorDescriptor(&desc), CNNL_STATUS_SUCCESS);
  const int dims[4] = {2, 3, 4, 5}, strides[4] = {60, 20, 5, 1};
  EXPECT_EQ(cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, 4, dims),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlSetTensorDescriptorEx(desc, CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, 4, dims, strides),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlSetTensorDescriptorOnchipDataType(desc, CNNL_DTYPE_INVALID), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlSetTensorDescriptorPositionScaleAndOffset(desc, 0, 1.0f, 0), CNNL_STATUS_SUCCESS);
  const int64_t dims64[2] = {7, 9}, strides64[2] = {9, 1};
  EXPECT_EQ(cnnlSetTensorDescriptor_v2(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, 2, dims64),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlSetTensorDescriptorEx_v2(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, 2, dims64,
                                         strides64),
            CNNL_STATUS_SUCCESS);
  // A scalar: no dims.
  EXPECT_EQ(cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, 0, nullptr),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlDestroyTensorDescriptor(desc), CNNL_STATUS_SUCCESS);
}

TEST(CnnlTensorDescriptor, RefusesBadArguments) {
  Desc desc(Desc::Unset{});
  const int dims[2] = {2, 3}, negative[2] = {2, -1}, bad_strides[2] = {3, -1};
  const int too_many[CNNL_DIM_MAX + 1] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  const char *api = "cnnlSetTensorDescriptor";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "unknown layout",
                 cnnlSetTensorDescriptor(desc, static_cast<cnnlTensorLayout_t>(42),
                                         CNNL_DTYPE_FLOAT, 2, dims));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "dtype",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INVALID, 2, dims));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "dimNb",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, -1, dims));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "dimNb",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT,
                                         CNNL_DIM_MAX + 1, too_many));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "dimSize is NULL",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, 2, nullptr));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "negative",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, 2, negative));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTensorDescriptorEx", "dimStride[1] = -1",
                 cnnlSetTensorDescriptorEx(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, 2, dims,
                                           bad_strides));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTensorDescriptorEx", "dimStride is NULL",
                 cnnlSetTensorDescriptorEx(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, 2, dims,
                                           nullptr));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTensorDescriptorOnchipDataType", "unknown dtype",
                 cnnlSetTensorDescriptorOnchipDataType(desc, static_cast<cnnlDataType_t>(99)));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlCreateTensorDescriptor", "null output pointer",
                 cnnlCreateTensorDescriptor(nullptr));
}

TEST(CnnlTensorDescriptor, RefusesDescriptorsThatAreNotLive) {
  cnnlTensorDescriptor_t desc = nullptr;
  ASSERT_EQ(cnnlCreateTensorDescriptor(&desc), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlDestroyTensorDescriptor(desc), CNNL_STATUS_SUCCESS);
  const int dims[1] = {4};
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlDestroyTensorDescriptor", "not a live handle or descriptor",
                 cnnlDestroyTensorDescriptor(desc));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTensorDescriptor", "not a live descriptor",
                 cnnlSetTensorDescriptor(desc, CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, 1, dims));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTensorDescriptorPositionScaleAndOffset",
                 "not a live descriptor",
                 cnnlSetTensorDescriptorPositionScaleAndOffset(desc, 0, 1.0f, 0));
}

}  // namespace
}  // namespace cnnl_test
