// Raw accesses (plain C++ indexing in kernel code, no intrinsic to check them)
// that the device would fault on or that would corrupt other memory: the
// launch fails naming the core, the address and what lies there; the host
// process survives and the next launch works.
#include <gtest/gtest.h>

#include "runtime/asan.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MLUSIM_TSAN 1
#endif
#endif

#include <csignal>
#include <string>

#include "tests/runtime/launch_fault.h"

namespace {

using mlusim::harness::CheckSettings;
using mlusim::harness::DeviceBuffer;
using mlusim::harness::expect_device_works;
using mlusim::harness::expect_mentions;
using mlusim::harness::fault_of;

// Task 1 writes 16 bytes past the usable NRAM: the device's stack reserve.
__mlu_global__ void writes_into_nram_reserve() {
  __nram_buffer__(char, buf, MAX_NRAM_SIZE);
  volatile char *raw = buf;
  if (taskId == 1) raw[MAX_NRAM_SIZE + 16] = 1;
}

TEST(MemoryGuard, RawWriteIntoTheNramReserve) {
  const std::string msg = fault_of(writes_into_nram_reserve);
  expect_mentions(msg, {"kernel_under_test", "cluster 0 core 1, task 1", "SIGSEGV",
                        "write to 0x", "cluster 0 core 1's NRAM +0xa0010",
                        "131072 bytes the device reserves"});
  expect_device_works();
}

// Task 0 writes where core 1's NRAM would start if the blocks were adjacent.
__mlu_global__ void writes_into_next_core_nram() {
  __nram_buffer__(float, buf, 1024);
  volatile char *raw = reinterpret_cast<char *>(buf);
  if (taskId == 0) raw[768 * 1024 + 64] = 1;  // MLU370's physical NRAM is 768 KiB
}

TEST(MemoryGuard, RawWriteTowardsAnotherCoresNram) {
  expect_mentions(fault_of(writes_into_next_core_nram),
                  {"cluster 0 core 0, task 0", "SIGSEGV", "64 bytes past the end of cluster 0 "
                   "core 0's NRAM", "no other core's memory"});
  expect_device_works();
}

// Every task declares 4 KiB and writes 8 KiB into its NRAM.
__mlu_global__ void writes_past_its_only_buffer() {
  __nram_buffer__(float, buf, 1024);
  volatile float *raw = buf;
  raw[2048] = 1;
}

// Selects `name` for one test, the previous device after; the first launch on
// a device other than the last one maps its on-chip memory afresh.
class DeviceScope {
 public:
  explicit DeviceScope(const char *name) {
    mlusimGetDeviceSpec(&saved_);
    EXPECT_EQ(mlusimSetDevicePreset(name), cnrtSuccess);
  }
  ~DeviceScope() { mlusimSetDeviceSpec(&saved_); }

 private:
  mlusimDeviceSpec_t saved_{};
};

TEST(MemoryGuard, RawWritePastTheLastDeclaredBuffer) {
  // Pages stay open once any launch declared them: start from fresh memory.
  {
    DeviceScope other("MLU290");
    expect_device_works();
  }
  DeviceScope fresh("MLU270");
  expect_mentions(fault_of(writes_past_its_only_buffer),
                  {"SIGSEGV", "NRAM +0x2000", "beyond every buffer the kernel declared there "
                   "(4096 bytes)"});
  expect_device_works();
}

__mlu_global__ void reads_wram_before_its_start() {
  __wram_buffer__(float, w, 64);
  volatile float *raw = w;
  if (taskId == 2) (void)raw[-8];
}

TEST(MemoryGuard, RawReadBeforeWram) {
  expect_mentions(fault_of(reads_wram_before_its_start),
                  {"cluster 0 core 2, task 2", "read of", "32 bytes before the start of cluster "
                   "0 core 2's WRAM"});
}

__mlu_global__ void writes_past_gdram(float *g, int index) {
  volatile float *raw = g;
  if (taskId == 3) raw[index] = 1;
}

TEST(MemoryGuard, RawWritePastAGdramAllocation) {
  CheckSettings guarded("nan", true);
  DeviceBuffer<float> g(1000);  // 4000 bytes
  expect_mentions(fault_of(writes_past_gdram, g.get(), 1000 + 4096),
                  {"cluster 0 core 3, task 3", "SIGSEGV", "16384 bytes past the end of GDRAM "
                   "allocation #", "(of 4000 bytes)"});
  // The data ends on a whole 64-byte granule (4032 bytes): the last 32 bytes of
  // slack take a raw write unnoticed, the next byte faults.
  EXPECT_EQ(fault_of(writes_past_gdram, g.get(), 1007), "");
  expect_mentions(fault_of(writes_past_gdram, g.get(), 1008), {"32 bytes past the end"});
  expect_device_works();
}

__mlu_global__ void writes_freed_gdram(float *g) {
  volatile float *raw = g;
  if (taskId == 0) raw[3] = 1;
}

TEST(MemoryGuard, RawWriteAfterFree) {
  CheckSettings guarded("nan", true);
  void *p = nullptr;
  ASSERT_EQ(cnrtMalloc(&p, 256), cnrtSuccess);
  ASSERT_EQ(cnrtFree(p), cnrtSuccess);
  expect_mentions(fault_of(writes_freed_gdram, static_cast<float *>(p)),
                  {"SIGSEGV", "write to", "freed GDRAM allocation #", "(+0xc of 256 bytes)",
                   "released by cnrtFree after launch #", "use after free"});
  expect_device_works();
}

#if defined(__SANITIZE_ADDRESS__)
__mlu_global__ void overruns_into_the_next_buffer() {
  __nram_buffer__(float, a, 32);
  __nram_buffer__(float, b, 32);
  volatile float *raw = a;
  raw[32] = 1;  // one past a: the poisoned gap before b
  (void)b;
}

// Both buffers are the kernel's memory: only the sanitizer build sees this.
TEST(MemoryGuardDeathTest, OverrunIntoTheNextBufferUnderAsan) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(fault_of(overruns_into_the_next_buffer), "use-after-poison");
}
#endif

// Outside kernel code a segmentation fault still ends the process as usual
// (in ASan builds, through ASan's own report).
TEST(MemoryGuardDeathTest, HostCrashIsNotSwallowed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // OpenMP workers are running
  expect_device_works();  // the handlers are installed
  const auto crash = [] {
    volatile int *nowhere = nullptr;
    *nowhere = 1;
  };
#if defined(MLUSIM_ASAN) || defined(MLUSIM_TSAN)  // the sanitizer reports it, then exits
  EXPECT_DEATH(crash(), "SEGV");
#else
  EXPECT_EXIT(crash(), ::testing::KilledBySignal(SIGSEGV), "");
#endif
}

}  // namespace
