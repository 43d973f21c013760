// cnrt.h and the mlu_op.h handle/descriptor layer: bad calls return error codes.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "cnrt.h"
#include "mlu_op.h"
#include "mlusim.h"
#include "runtime/logging.h"
#include "tests/common/op_log_capture.h"

namespace {

TEST(Cnrt, AllocationErrorsAreCodesNotCrashes) {
  void *p = nullptr;
  EXPECT_EQ(cnrtMalloc(&p, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMalloc(nullptr, 16), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMalloc(&p, size_t{1} << 60), cnrtErrorNoMem);
  ASSERT_EQ(cnrtMalloc(&p, 256), cnrtSuccess);
  EXPECT_EQ(cnrtFree(static_cast<char *>(p) + 8), cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtFree(p), cnrtSuccess);
  EXPECT_EQ(cnrtFree(p), cnrtErrorDoubleFree);
  int on_stack = 0;
  EXPECT_EQ(cnrtFree(&on_stack), cnrtErrorDoubleFree);
  EXPECT_EQ(cnrtFree(nullptr), cnrtSuccess);
}

TEST(Cnrt, MemcpyChecksDirectionAndBounds) {
  std::vector<float> host(64, 3.0f), back(64, 0.0f);
  void *dev = nullptr;
  ASSERT_EQ(cnrtMalloc(&dev, 64 * sizeof(float)), cnrtSuccess);
  EXPECT_EQ(cnrtMemcpy(dev, host.data(), 64 * sizeof(float), cnrtMemcpyHostToDev), cnrtSuccess);
  EXPECT_EQ(cnrtMemcpy(back.data(), dev, 64 * sizeof(float), cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(back, host);
  EXPECT_EQ(cnrtMemcpy(host.data(), dev, 16, cnrtMemcpyHostToDev), cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtMemcpy(dev, dev, 16, cnrtMemcpyHostToDev), cnrtErrorInvalidDirection);
  EXPECT_EQ(cnrtMemcpy(dev, host.data(), 65 * sizeof(float), cnrtMemcpyHostToDev),
            cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtMemcpy(nullptr, host.data(), 4, cnrtMemcpyHostToDev), cnrtErrorArgsInvalid);
  // 7: no direction, yet a value the enum can hold (42 would be UB before the call).
  EXPECT_EQ(cnrtMemcpy(dev, host.data(), 4, static_cast<cnrtMemTransDir_t>(7)),
            cnrtErrorMemcpyDirectionInvalid);
  EXPECT_EQ(cnrtMemset(dev, 0, 64 * sizeof(float)), cnrtSuccess);
  EXPECT_EQ(cnrtMemset(dev, 0, 65 * sizeof(float)), cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtMemset(host.data(), 0, 4), cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtFree(dev), cnrtSuccess);
}

TEST(Cnrt, DevicesQueuesAndNotifiers) {
  unsigned count = 0;
  int ordinal = -1;
  EXPECT_EQ(cnrtGetDeviceCount(&count), cnrtSuccess);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(cnrtGetDevice(&ordinal), cnrtSuccess);
  EXPECT_EQ(ordinal, 0);
  EXPECT_EQ(cnrtSetDevice(1), cnrtErrorNoDevice);

  cnrtQueue_t a, b;
  ASSERT_EQ(cnrtQueueCreate(&a), cnrtSuccess);
  ASSERT_EQ(cnrtQueueCreate(&b), cnrtSuccess);
  cnrtNotifier_t start, end, unplaced;
  cnrtNotifierCreate(&start);
  cnrtNotifierCreate(&end);
  cnrtNotifierCreate(&unplaced);
  float us = -1;
  EXPECT_EQ(cnrtPlaceNotifier(start, a), cnrtSuccess);
  EXPECT_EQ(cnrtPlaceNotifier(end, b), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDuration(start, end, &us), cnrtErrorInvalidNotifier);
  EXPECT_EQ(cnrtNotifierDuration(start, unplaced, &us), cnrtErrorInvalidNotifier);
  EXPECT_EQ(cnrtPlaceNotifier(end, a), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDuration(start, end, &us), cnrtSuccess);
  EXPECT_EQ(us, 0.0f);  // nothing ran on queue a in between
  EXPECT_EQ(cnrtQueueSync(a), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(a), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(a), cnrtErrorInvalidQueue);
  EXPECT_EQ(cnrtQueueSync(a), cnrtErrorInvalidQueue);
  EXPECT_EQ(cnrtQueueDestroy(b), cnrtSuccess);
  for (cnrtNotifier_t n : {start, end, unplaced}) EXPECT_EQ(cnrtNotifierDestroy(n), cnrtSuccess);
}

TEST(Cnrt, ErrorStringsAreDistinct) {
  std::set<std::string> seen;
  for (cnrtRet_t r : {cnrtSuccess, cnrtErrorArgsInvalid, cnrtErrorNoMem, cnrtErrorInvalidDevicePtr,
                      cnrtErrorDoubleFree, cnrtErrorInvalidDirection, cnrtErrorNoDevice,
                      cnrtErrorInvalidQueue, cnrtErrorInvalidKernelDim, cnrtErrorKernelFault,
                      cnrtErrorSys})
    EXPECT_TRUE(seen.insert(cnrtGetErrorStr(r)).second) << r;
}

TEST(MluOp, HandleAndDescriptorMisuseIsBadParam) {
  EXPECT_EQ(mluOpCreate(nullptr), MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpDestroy(nullptr), MLUOP_STATUS_BAD_PARAM);
  mluOpHandle_t h;
  ASSERT_EQ(mluOpCreate(&h), MLUOP_STATUS_SUCCESS);
  cnrtQueue_t q = nullptr, got = reinterpret_cast<cnrtQueue_t>(1);
  EXPECT_EQ(mluOpGetQueue(h, &got), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(got, nullptr);  // the default queue until one is set
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  EXPECT_EQ(mluOpSetQueue(h, q), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpGetQueue(h, &got), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(got, q);
  EXPECT_EQ(mluOpSetQueue(h, reinterpret_cast<cnrtQueue_t>(&got)), MLUOP_STATUS_BAD_PARAM);

  mluOpTensorDescriptor_t d;
  ASSERT_EQ(mluOpCreateTensorDescriptor(&d), MLUOP_STATUS_SUCCESS);
  const int dims[] = {2, 3, 4, 5};
  const int negative[] = {2, -3};
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 4, dims),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpGetTensorElementNum(d), 120u);
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 0, dims),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 2, negative),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INVALID, 4, dims),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpSetTensorDescriptor(nullptr, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 4, dims),
            MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpGetTensorElementNum(nullptr), 0u);
  EXPECT_EQ(mluOpDestroyTensorDescriptor(d), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpDestroy(h), MLUOP_STATUS_SUCCESS);
  cnrtQueueDestroy(q);
  EXPECT_STREQ(mluOpGetErrorString(MLUOP_STATUS_BAD_PARAM), "MLUOP_STATUS_BAD_PARAM");
}

TEST(Device, PresetsAndSelection) {
  ASSERT_GE(mlusimGetPresetCount(), 3);
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  EXPECT_STREQ(spec.name, "MLU370-X4");
  EXPECT_EQ(spec.clusters * spec.cores_per_cluster, 32);
  EXPECT_EQ(spec.nram_bytes - spec.stack_reserve_bytes, 782336u);  // 768 KiB but the stack's 4 KiB
  EXPECT_DOUBLE_EQ(mlusimPeakOpsPerSecond(MLUOP_DTYPE_FLOAT), 1.024e12);  // mlu-ops' figure
  EXPECT_DOUBLE_EQ(mlusimPeakOpsPerSecond(MLUOP_DTYPE_HALF), 2.048e12);
  EXPECT_EQ(mlusimSetDevicePreset("MLU270"), cnrtSuccess);
  mlusimGetDeviceSpec(&spec);
  EXPECT_EQ(spec.clusters * spec.cores_per_cluster, 16);
  EXPECT_EQ(mlusimSetDevicePreset("MLU999"), cnrtErrorNoDevice);
  spec.clusters = 0;
  EXPECT_EQ(mlusimSetDeviceSpec(&spec), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
}

// A refused spec's log line names the rule it breaks; the device stays.
TEST(Device, RefusedSpecNamesTheRule) {
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  const mlusimDeviceSpec_t before = spec;
  spec.vector_count_align_bytes = 48;  // the operand-size rule is a mask: powers of two only
  {
    mlusim::testing::OpLogCapture log(mlusim::log::runtime(), spdlog::level::err);
    EXPECT_EQ(mlusimSetDeviceSpec(&spec), cnrtErrorArgsInvalid);
    EXPECT_NE(log.text().find("vector_count_align_bytes must be powers of two"),
              std::string::npos)
        << log.text();
  }
  spec = before;
  spec.gdram_efficiency = 1.5;
  {
    mlusim::testing::OpLogCapture log(mlusim::log::runtime(), spdlog::level::err);
    EXPECT_EQ(mlusimSetDeviceSpec(&spec), cnrtErrorArgsInvalid);
    EXPECT_NE(log.text().find("gdram_efficiency must lie in (0, 1]"), std::string::npos)
        << log.text();
  }
  mlusimDeviceSpec_t now;
  ASSERT_EQ(mlusimGetDeviceSpec(&now), cnrtSuccess);
  EXPECT_EQ(now.vector_count_align_bytes, before.vector_count_align_bytes);
  EXPECT_DOUBLE_EQ(now.gdram_efficiency, before.gdram_efficiency);
}

}  // namespace
