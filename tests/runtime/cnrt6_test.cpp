// The CNRT 6 host API that BANG C programs call: names and numbers as CNRT 6's
// cnrt.h publishes them (the literals below are copied from it, not from ours),
// the per-thread last error, launch errors as cnrtGetLastError reports them,
// notifier timing, device attributes and cnrtInvokeKernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "runtime/queue.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

TEST(Cnrt6, ReturnCodesHaveCnrt6Numbers) {
  EXPECT_EQ(cnrtSuccess, 0);
  EXPECT_EQ(CNRT_RET_SUCCESS, 0);
  EXPECT_EQ(cnrtErrorNotReady, 1);
  EXPECT_EQ(cnrtErrorNoDevice, 100004);
  EXPECT_EQ(cnrtErrorArgsInvalid, 100006);
  EXPECT_EQ(cnrtErrorSys, 100007);
  EXPECT_EQ(cnrtErrorInvalidResourceHandle, 100014);
  EXPECT_EQ(cnrtErrorIllegalState, 100015);
  EXPECT_EQ(cnrtErrorNotSupport, 100050);
  EXPECT_EQ(cnrtErrorNoMem, 100100);
  EXPECT_EQ(cnrtErrorNoKernel, 101312);
  EXPECT_EQ(cnrtErrorMemcpyDirectionInvalid, 632013);
  EXPECT_EQ(cnrtErrorBusy, 632014);
  EXPECT_EQ(cnrtErrorUnknown, 999991);
}

TEST(Cnrt6, SimulatorCodesCollideWithNoCnrtCode) {
  const std::vector<int> cnrt_codes{0,      1,      100002, 100004, 100005, 100006, 100007,
                                    100010, 100014, 100015, 100050, 100051, 100060, 100100,
                                    101312, 101315, 632002, 632006, 632009, 632013, 632014,
                                    632015, 632017, 632019, 632020, 999991};
  const std::vector<int> ours{cnrtErrorInvalidDevicePtr, cnrtErrorDoubleFree,
                              cnrtErrorInvalidDirection, cnrtErrorInvalidKernelDim,
                              cnrtErrorKernelFault};
  for (int code : ours) {
    EXPECT_EQ(std::count(cnrt_codes.begin(), cnrt_codes.end(), code), 0) << code;
    EXPECT_EQ(std::count(ours.begin(), ours.end(), code), 1) << code;
  }
}

TEST(Cnrt6, DirectionsFunctionTypesAndDataTypesHaveCnrt6Numbers) {
  EXPECT_EQ(cnrtMemcpyHostToDev, 0);
  EXPECT_EQ(cnrtMemcpyDevToDev, 1);
  EXPECT_EQ(cnrtMemcpyDevToHost, 2);
  EXPECT_EQ(cnrtMemcpyHostToHost, 3);
  EXPECT_EQ(cnrtMemcpyPeerToPeer, 4);
  EXPECT_EQ(cnrtMemcpyNoDirection, 5);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_HOST2DEV, 0);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_DEV2DEV, 1);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_DEV2HOST, 2);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_HOST2HOST, 3);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_PEER2PEER, 4);
  EXPECT_EQ(CNRT_MEM_TRANS_DIR_NODIR, 5);
  EXPECT_EQ(CNRT_FUNC_TYPE_BLOCK, 1);
  EXPECT_EQ(CNRT_FUNC_TYPE_UNION1, 4);
  EXPECT_EQ(CNRT_FUNC_TYPE_UNION2, 8);
  EXPECT_EQ(CNRT_FUNC_TYPE_UNION4, 16);
  EXPECT_EQ(CNRT_FUNC_TYPE_UNION8, 32);
  EXPECT_EQ(cnrtFuncTypeUnion8, 32);
  EXPECT_EQ(CNRT_FLOAT16, 0x12);
  EXPECT_EQ(CNRT_FLOAT32, 0x13);
  EXPECT_EQ(cnrtAttrClusterCount, 0x205);
  EXPECT_EQ(cnrtAttrMcorePerCluster, 0x206);
  EXPECT_EQ(cnrtAttrNramSizePerMcore, 0x302);
  EXPECT_EQ(cnrtAttrWramSizePerMcore, 0x303);
  EXPECT_EQ(cnrtAttrSramSizePerMcore, 0x306);
  EXPECT_EQ(cnrtAttrIpuClockRate, 0x402);
  EXPECT_EQ(cnrtAttrTotalMemSize, 0x405);
  // Programs write the task type into dim.x (UNION1 is 4 cores).
  const cnrtDim3_t dim = {CNRT_FUNC_TYPE_UNION1, 1, 1};
  EXPECT_EQ(dim.x, 4u);
}

TEST(Cnrt6, ErrorNamesAreTheEnumeratorNames) {
  EXPECT_STREQ(cnrtGetErrorName(cnrtSuccess), "cnrtSuccess");
  EXPECT_STREQ(cnrtGetErrorName(cnrtErrorArgsInvalid), "cnrtErrorArgsInvalid");
  EXPECT_STREQ(cnrtGetErrorName(cnrtErrorInvalidQueue), "cnrtErrorInvalidResourceHandle");
  EXPECT_STREQ(cnrtGetErrorName(cnrtErrorKernelFault), "cnrtErrorKernelFault");
  EXPECT_STREQ(cnrtGetErrorName(static_cast<cnrtRet_t>(4242)), "cnrtErrorUnrecognised");
  EXPECT_STREQ(cnrtGetErrorStr(cnrtErrorInvalidNotifier),
               cnrtGetErrorStr(cnrtErrorInvalidResourceHandle));
}

TEST(Cnrt6, LastErrorGetClearsPeekKeepsSuccessLeavesItPerThread) {
  cnrtGetLastError();
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtSuccess);
  void *p = nullptr;
  EXPECT_EQ(cnrtMalloc(&p, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtErrorArgsInvalid);
  unsigned count = 0;
  EXPECT_EQ(cnrtGetDeviceCount(&count), cnrtSuccess);  // a success does not hide the failure
  cnrtRet_t other_thread = cnrtErrorUnknown;
  std::thread([&] { other_thread = cnrtPeekAtLastError(); }).join();
  EXPECT_EQ(other_thread, cnrtSuccess);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtGetLastError(), cnrtSuccess);
  EXPECT_EQ(cnrtSetDevice(3), cnrtErrorNoDevice);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorNoDevice);
}

__mlu_global__ void write_task_ids(int *out) { out[taskId] = taskId; }

__mlu_global__ void write_past_the_end(int *out) {
  __nram_buffer__(int, buf, 64);
  __memcpy(out + 4, buf, 64 * sizeof(int), NRAM2GDRAM);
}

__mlu_global__ void read_past_the_end(const float *in) {
  __nram_buffer__(float, buf, 64);
  __memcpy(buf, in + 64, 64 * sizeof(float), GDRAM2NRAM);
}

// What mlu-ops' KERNEL_CHECK does around every launch.
cnrtRet_t checked_launch(const std::function<cnrtRet_t()> &launch) {
  cnrtGetLastError();
  launch();
  return cnrtPeekAtLastError();
}

TEST(Cnrt6, RejectedLaunchIsTheLastError) {
  DeviceBuffer<int> out(64);
  EXPECT_EQ(checked_launch([&] {
              return MLUSIM_LAUNCH(write_task_ids, (cnrtDim3_t{3, 1, 1}), cnrtFuncTypeUnion1,
                                   nullptr, out.get());
            }),
            cnrtErrorInvalidKernelDim);
  EXPECT_EQ(checked_launch([&] {
              return MLUSIM_LAUNCH(write_task_ids, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1,
                                   nullptr, out.get());
            }),
            cnrtSuccess);
  cnrtQueue_t dead = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&dead), cnrtSuccess);
  ASSERT_EQ(cnrtQueueDestroy(dead), cnrtSuccess);
  EXPECT_EQ(checked_launch([&] {
              return MLUSIM_LAUNCH(write_task_ids, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1,
                                   dead, out.get());
            }),
            cnrtErrorInvalidResourceHandle);
  cnrtGetLastError();
}

TEST(Cnrt6, KernelFaultIsTheLastErrorAndSurfacesOnceAtQueueSync) {
  DeviceBuffer<float> in(64);
  cnrtQueue_t faulty = nullptr, other = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&faulty), cnrtSuccess);
  ASSERT_EQ(cnrtQueueCreate(&other), cnrtSuccess);
  EXPECT_EQ(checked_launch([&] {
              return MLUSIM_LAUNCH(read_past_the_end, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock,
                                   faulty, in.get());
            }),
            cnrtErrorKernelFault);
  EXPECT_NE(std::string(mlusimGetLastError()).find("read_past_the_end"), std::string::npos);
  EXPECT_EQ(cnrtQueueSync(other), cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(faulty), cnrtErrorKernelFault);
  EXPECT_EQ(cnrtQueueSync(faulty), cnrtSuccess);  // reported once
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorKernelFault);
  EXPECT_EQ(cnrtQueueDestroy(faulty), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(other), cnrtSuccess);
}

TEST(Cnrt6, MemcpyAsyncAndDirectionMacros) {
  cnrtQueue_t q = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  std::vector<int> host{1, 2, 3, 4}, back(4, 0), copy(4, 0);
  DeviceBuffer<int> dev(4), dev2(4);
  EXPECT_EQ(cnrtMemcpyAsync(dev.get(), host.data(), 16, q, CNRT_MEM_TRANS_DIR_HOST2DEV),
            cnrtSuccess);
  EXPECT_EQ(cnrtMemcpyAsync(dev2.get(), dev.get(), 16, q, cnrtMemcpyDevToDev), cnrtSuccess);
  EXPECT_EQ(cnrtMemcpyAsync(back.data(), dev2.get(), 16, q, CNRT_MEM_TRANS_DIR_DEV2HOST),
            cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess);
  EXPECT_EQ(back, host);
  // NODIR: the runtime tells host from device memory itself.
  EXPECT_EQ(cnrtMemcpy(copy.data(), dev.get(), 16, CNRT_MEM_TRANS_DIR_NODIR), cnrtSuccess);
  EXPECT_EQ(copy, host);
  EXPECT_EQ(cnrtMemcpy(dev2.get(), dev.get(), 32, cnrtMemcpyNoDirection),
            cnrtErrorInvalidDevicePtr);
  EXPECT_EQ(cnrtMemcpy(dev2.get(), dev.get(), 16, CNRT_MEM_TRANS_DIR_PEER2PEER),
            cnrtErrorNotSupport);
  EXPECT_EQ(cnrtMemcpy(dev2.get(), dev.get(), 16, static_cast<cnrtMemTransDir_t>(6)),
            cnrtErrorMemcpyDirectionInvalid);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  EXPECT_EQ(cnrtMemcpyAsync(dev.get(), host.data(), 16, q, cnrtMemcpyHostToDev),
            cnrtErrorInvalidResourceHandle);
  cnrtGetLastError();
}

TEST(Cnrt6, ElapsedTimeIsDurationInMilliseconds) {
  cnrtQueue_t q = nullptr;
  cnrtNotifier_t start = nullptr, end = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  DeviceBuffer<int> out(32 * 64);
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  ASSERT_EQ(MLUSIM_LAUNCH(write_task_ids, (cnrtDim3_t{4, 8, 64}), cnrtFuncTypeUnion1, q,
                          out.get()),
            cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  mlusimReport_t launch{};
  ASSERT_EQ(mlusimGetLastLaunchReport(q, &launch), cnrtSuccess);
  float us = 0, ms = 0;
  ASSERT_EQ(cnrtNotifierDuration(start, end, &us), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  EXPECT_GT(us, 0.0f);
  EXPECT_FLOAT_EQ(us, static_cast<float>(launch.device_time_us));
  EXPECT_FLOAT_EQ(ms, us / 1000);
  EXPECT_EQ(cnrtNotifierElapsedTime(start, end, nullptr), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtNotifierDestroy(end), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtNotifierDestroy(start), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  cnrtGetLastError();
}

int attribute(cnrtDeviceAttr_t attr) {
  int value = -1;
  EXPECT_EQ(cnrtDeviceGetAttribute(&value, attr, 0), cnrtSuccess) << attr;
  return value;
}

TEST(Cnrt6, DeviceAttributesComeFromTheSimulatedDevice) {
  // MLU370-X4 as docs/devices.md gives it: 8 clusters of 4 cores, 768 KiB NRAM
  // and 1 MiB WRAM per core, 4 MiB SRAM per cluster, 1 GHz, 24 GiB.
  EXPECT_EQ(attribute(cnrtAttrClusterCount), 8);
  EXPECT_EQ(attribute(cnrtAttrMcorePerCluster), 4);
  EXPECT_EQ(attribute(cnrtAttrMaxClusterCountPerUnionTask), 8);
  EXPECT_EQ(attribute(cnrtAttrNramSizePerMcore), 768 * 1024);
  EXPECT_EQ(attribute(cnrtAttrWramSizePerMcore), 1024 * 1024);
  EXPECT_EQ(attribute(cnrtAttrSramSizePerMcore), 4 * 1024 * 1024);
  EXPECT_EQ(attribute(cnrtAttrIpuClockRate), 1000000);
  EXPECT_EQ(attribute(cnrtAttrTotalMemSize), 24 * 1024);
  ASSERT_EQ(mlusimSetDevicePreset("MLU270"), cnrtSuccess);
  EXPECT_EQ(attribute(cnrtAttrClusterCount), 4);
  EXPECT_EQ(attribute(cnrtAttrMaxClusterCountPerUnionTask), 4);
  EXPECT_EQ(attribute(cnrtAttrNramSizePerMcore), 512 * 1024);
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);

  int value = 0;
  EXPECT_EQ(cnrtDeviceGetAttribute(&value, cnrtAttrClusterCount, 1), cnrtErrorNoDevice);
  EXPECT_EQ(cnrtDeviceGetAttribute(nullptr, cnrtAttrClusterCount, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtDeviceGetAttribute(&value, cnrtAttrEccEnable, 0), cnrtErrorNotSupport);
  cnrtGetLastError();
}

__mlu_global__ void scale(float *out, const float *in, float factor, int n) {
  for (int i = taskId; i < n; i += taskDim) out[i] = in[i] * factor;
}

__mlu_global__ void never_invoked_typed(int *out) { out[0] = 1; }

TEST(Cnrt6, InvokeKernelPassesArgsByAddress) {
  const int n = 100;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  DeviceBuffer<float> in(host), out(n);
  float *out_ptr = out.get();
  const float *in_ptr = in.get();
  float factor = 2.5f;
  int count = n;
  void *args[] = {&out_ptr, &in_ptr, &factor, &count};
  ASSERT_EQ(cnrtInvokeKernel(scale, cnrtDim3_t{4, 1, 1}, cnrtFuncTypeUnion1, args, 0, nullptr),
            cnrtSuccess)
      << mlusimGetLastError();
  const std::vector<float> got = out.download();
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], 2.5f * i) << i;

  // By address, as C code passes it: known once registered (the typed call did).
  factor = -1.0f;
  ASSERT_EQ(cnrtInvokeKernel(reinterpret_cast<const void *>(scale), cnrtDim3_t{1, 1, 1},
                             cnrtFuncTypeBlock, args, 0, nullptr),
            cnrtSuccess);
  EXPECT_EQ(out.download()[7], -7.0f);
  EXPECT_EQ(cnrtInvokeKernel(reinterpret_cast<const void *>(scale), cnrtDim3_t{1, 1, 1},
                             cnrtFuncTypeBlock, nullptr, 0, nullptr),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtInvokeKernel(reinterpret_cast<const void *>(scale), cnrtDim3_t{1, 1, 1},
                             cnrtFuncTypeBlock, args, 1, nullptr),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtInvokeKernel(reinterpret_cast<const void *>(never_invoked_typed),
                             cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock, args, 0, nullptr),
            cnrtErrorNoKernel);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorNoKernel);
}

TEST(Cnrt6, InvokedKernelFaultsUnderItsRegisteredName) {
  mlusim::register_kernel(write_past_the_end, "write_past_the_end");
  DeviceBuffer<int> out(4);
  int *out_ptr = out.get();
  void *args[] = {&out_ptr};
  cnrtQueueSync(nullptr);  // no fault of an earlier test left on this thread's default queue
  EXPECT_EQ(cnrtInvokeKernel(reinterpret_cast<const void *>(write_past_the_end),
                             cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock, args, 0, nullptr),
            cnrtErrorKernelFault);
  EXPECT_NE(std::string(mlusimGetLastError()).find("write_past_the_end"), std::string::npos)
      << mlusimGetLastError();
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorKernelFault);
  EXPECT_EQ(cnrtQueueSync(nullptr), cnrtErrorKernelFault);  // this thread's default queue
  cnrtGetLastError();
}

}  // namespace
