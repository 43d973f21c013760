// The CNRT calls beyond the core set: versions, PCI address, memory info,
// constant and host memory, pointer attributes, device reset, and a queue
// waiting for another queue's notifier.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cnrt.h"
#include "mlusim.h"
#include "ops/common/kernel.h"
#include "runtime/launch.h"

namespace {

TEST(CnrtExtra, LibVersionMeetsMluOps) {
  int major = 0, minor = 0, patch = -1;
  ASSERT_EQ(cnrtGetLibVersion(&major, &minor, &patch), cnrtSuccess);
  EXPECT_EQ(major * 10000 + minor * 100 + patch, CNRT_VERSION);
  EXPECT_GE(major * 1000 + minor, 6 * 1000 + 7);  // mlu-ops v1.5.2 needs CNRT 6.7 or later
  EXPECT_EQ(cnrtGetLibVersion(&major, nullptr, &patch), cnrtErrorArgsInvalid);
  cnrtGetLastError();
}

TEST(CnrtExtra, PciBusId) {
  char id[16];
  ASSERT_EQ(cnrtDeviceGetPCIBusId(id, sizeof(id), 0), cnrtSuccess);
  EXPECT_STREQ(id, "0000:01:00.0");
  EXPECT_EQ(cnrtDeviceGetPCIBusId(id, 12, 0), cnrtErrorArgsInvalid);  // no room for the NUL
  EXPECT_EQ(cnrtDeviceGetPCIBusId(id, sizeof(id), 1), cnrtErrorDeviceInvalid);
  cnrtGetLastError();
}

TEST(CnrtExtra, MemGetInfoCountsAllocations) {
  size_t free_before = 0, total = 0;
  ASSERT_EQ(cnrtMemGetInfo(&free_before, &total), cnrtSuccess);
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  EXPECT_EQ(total, spec.gdram_bytes);
  void *p = nullptr;
  ASSERT_EQ(cnrtMalloc(&p, 1 << 20), cnrtSuccess);
  size_t free_after = 0;
  ASSERT_EQ(cnrtMemGetInfo(&free_after, nullptr), cnrtSuccess);  // total may be NULL
  EXPECT_EQ(free_before - free_after, size_t{1} << 20);
  ASSERT_EQ(cnrtFree(p), cnrtSuccess);
  EXPECT_EQ(cnrtMemGetInfo(nullptr, nullptr), cnrtErrorArgsInvalid);
  cnrtGetLastError();
}

TEST(CnrtExtra, PointerAttributesOfEveryKindOfMemory) {
  void *dev = nullptr, *host = nullptr;
  ASSERT_EQ(cnrtMalloc(&dev, 4096), cnrtSuccess);
  ASSERT_EQ(cnrtHostMalloc(&host, 100), cnrtSuccess);
  cnrtPointerAttributes_t a;
  ASSERT_EQ(cnrtPointerGetAttributes(&a, static_cast<char *>(dev) + 100), cnrtSuccess);
  EXPECT_EQ(a.type, cnrtMemTypeDevice);
  EXPECT_EQ(a.device, 0);
  EXPECT_EQ(a.size, 4096u);
  EXPECT_EQ(a.deviceBasePointer, dev);
  EXPECT_EQ(a.devicePointer, static_cast<char *>(dev) + 100);
  ASSERT_EQ(cnrtPointerGetAttributes(&a, static_cast<char *>(host) + 99), cnrtSuccess);
  EXPECT_EQ(a.type, cnrtMemTypeHost);
  EXPECT_EQ(a.size, 100u);
  int local = 0;
  ASSERT_EQ(cnrtPointerGetAttributes(&a, &local), cnrtSuccess);
  EXPECT_EQ(a.type, cnrtMemTypeUnregistered);
  EXPECT_EQ(cnrtPointerGetAttributes(nullptr, dev), cnrtErrorArgsInvalid);
  ASSERT_EQ(cnrtFree(dev), cnrtSuccess);
  ASSERT_EQ(cnrtPointerGetAttributes(&a, dev), cnrtSuccess);
  EXPECT_EQ(a.type, cnrtMemTypeUnregistered);  // freed
  ASSERT_EQ(cnrtFreeHost(host), cnrtSuccess);
  EXPECT_EQ(cnrtFreeHost(host), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFreeHost(&local), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtHostMalloc(&host, 0), cnrtErrorArgsInvalid);
  cnrtGetLastError();
}

TEST(CnrtExtra, ConstantMemoryIsDeviceMemory) {
  void *c = nullptr;
  ASSERT_EQ(cnrtMallocConstant(&c, 64), cnrtSuccess);
  std::vector<int> in(16, 7), out(16, 0);
  ASSERT_EQ(cnrtMemcpy(c, in.data(), 64, cnrtMemcpyHostToDev), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(out.data(), c, 64, cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(out, in);
  EXPECT_EQ(cnrtFree(c), cnrtSuccess);
}

TEST(CnrtExtra, DeviceResetFreesEveryAllocation) {
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 128), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc(&b, 256), cnrtSuccess);
  ASSERT_EQ(cnrtDeviceReset(), cnrtSuccess);
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cnrtMemGetInfo(&free_bytes, &total), cnrtSuccess);
  EXPECT_EQ(free_bytes, total);
  EXPECT_NE(cnrtFree(a), cnrtSuccess);  // no longer an allocation
  EXPECT_NE(cnrtFree(b), cnrtSuccess);
  cnrtGetLastError();
}

// Even an empty kernel takes the launch overhead of simulated time.
__mlu_global__ void idle() {}

// The simulated time between two notifiers placed on `queue`.
float elapsed_us(cnrtNotifier_t from, cnrtNotifier_t to) {
  float us = -1;
  EXPECT_EQ(cnrtNotifierDuration(from, to, &us), cnrtSuccess);
  return us;
}

TEST(CnrtExtra, QueueWaitsForAnotherQueuesNotifier) {
  cnrtQueue_t busy = nullptr, waiting = nullptr;
  cnrtNotifier_t done = nullptr, before = nullptr, after = nullptr, start = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&busy), cnrtSuccess);
  ASSERT_EQ(cnrtQueueCreate(&waiting), cnrtSuccess);
  for (cnrtNotifier_t *n : {&done, &before, &after, &start})
    ASSERT_EQ(cnrtNotifierCreate(n), cnrtSuccess);

  ASSERT_EQ(cnrtPlaceNotifier(start, busy), cnrtSuccess);
  ASSERT_EQ(MLUSIM_LAUNCH(idle, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock, busy), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(done, busy), cnrtSuccess);
  const float busy_us = elapsed_us(start, done);
  ASSERT_GT(busy_us, 0);

  ASSERT_EQ(cnrtPlaceNotifier(before, waiting), cnrtSuccess);
  ASSERT_EQ(cnrtQueueWaitNotifier(done, waiting, 0), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(after, waiting), cnrtSuccess);
  EXPECT_FLOAT_EQ(elapsed_us(before, after), busy_us);  // both queues started at 0

  // Waiting again, or on a notifier never placed, costs nothing.
  cnrtNotifier_t unplaced = nullptr;
  ASSERT_EQ(cnrtNotifierCreate(&unplaced), cnrtSuccess);
  ASSERT_EQ(cnrtQueueWaitNotifier(done, waiting, 0), cnrtSuccess);
  ASSERT_EQ(cnrtQueueWaitNotifier(unplaced, waiting, 0), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(before, waiting), cnrtSuccess);
  EXPECT_FLOAT_EQ(elapsed_us(after, before), 0.0f);

  EXPECT_EQ(cnrtQueueWaitNotifier(done, waiting, 1), cnrtErrorArgsInvalid);
  for (cnrtNotifier_t n : {done, before, after, start, unplaced})
    ASSERT_EQ(cnrtNotifierDestroy(n), cnrtSuccess);
  EXPECT_EQ(cnrtQueueWaitNotifier(done, waiting, 0), cnrtErrorInvalidResourceHandle);
  ASSERT_EQ(cnrtQueueDestroy(busy), cnrtSuccess);
  ASSERT_EQ(cnrtQueueDestroy(waiting), cnrtSuccess);
  cnrtGetLastError();
}

}  // namespace
