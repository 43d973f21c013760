// Every device rule the simulator enforces: the launch fails with a message that
// names the kernel, the core, the intrinsic and the addresses; the host survives.
#include <gtest/gtest.h>

#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

// Launches `kernel` on one cluster and returns the fault message ("" if none).
template <typename... Params, typename... Args>
std::string fault_of(void (*kernel)(Params...), Args... args) {
  cnrtRet_t ret = mlusim::launch("kernel_under_test", cnrtDim3_t{4, 1, 1}, cnrtFuncTypeUnion1,
                                 nullptr, kernel, args...);
  return ret == cnrtErrorKernelFault ? mlusimGetLastError() : "";
}

void expect_mentions(const std::string &msg, std::initializer_list<const char *> parts) {
  ASSERT_FALSE(msg.empty()) << "the launch did not fault";
  for (const char *p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " not in: " << msg;
}

__mlu_global__ void add_past_nram_end() {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 1024);
  __bang_add(buf + 512, buf, buf, 1024);  // dst runs 512 floats past the buffer
}

TEST(Faults, VectorWritePastDeclaredNram) {
  expect_mentions(fault_of(add_past_nram_end),
                  {"kernel_under_test", "cluster 0 core", "__bang_add", "dst", "NRAM +0x800",
                   "2048 bytes past"});
}

__mlu_global__ void declares_too_much_nram() { __nram_buffer__(char, big, MAX_NRAM_SIZE + 1); }

TEST(Faults, NramBufferLargerThanTheDevice) {
  expect_mentions(fault_of(declares_too_much_nram),
                  {"NRAM buffer 'big'", "655361 bytes", "655360 usable"});
}

__mlu_global__ void wrong_direction(float *gdram) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 64);
  __memcpy(gdram, buf, 256, GDRAM2NRAM);  // arguments swapped
}

TEST(Faults, MemcpyDirectionDisagreesWithPointers) {
  DeviceBuffer<float> g(64);
  expect_mentions(fault_of(wrong_direction, g.get()),
                  {"__memcpy GDRAM2NRAM", "dst", "GDRAM allocation", "needs NRAM"});
}

// Found by fuzz_border_align_backward: a half dst one byte into an allocation.
__mlu_global__ void atomic_add_to_misaligned_half(half *gdram) {
  __nram_buffer__(half, buf, 64);
  __bang_write_zero(buf, 64);
  __bang_atomic_reduce_add(reinterpret_cast<half *>(reinterpret_cast<char *>(gdram) + 1), buf, 4);
}

TEST(Faults, AtomicAddToAMisalignedDestination) {
  DeviceBuffer<half> g(64);
  expect_mentions(fault_of(atomic_add_to_misaligned_half, g.get()),
                  {"__bang_atomic_reduce_add", "dst", "+0x1", "not aligned to its 2-byte elements"});
}

__mlu_global__ void reads_past_gdram(const float *gdram) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 128);
  __memcpy(buf, gdram + 64, 128 * sizeof(float), GDRAM2NRAM);
}

TEST(Faults, CopyPastAGdramAllocation) {
  DeviceBuffer<float> g(128);
  expect_mentions(fault_of(reads_past_gdram, static_cast<const float *>(g.get())),
                  {"__memcpy GDRAM2NRAM", "src", "not inside one GDRAM allocation"});
}

__mlu_global__ void reads_host_memory(const float *host) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 32);
  __memcpy(buf, host, 32 * sizeof(float), GDRAM2NRAM);
}

TEST(Faults, HostPointerPassedAsGdram) {
  std::vector<float> host(32);
  expect_mentions(fault_of(reads_host_memory, static_cast<const float *>(host.data())),
                  {"__memcpy GDRAM2NRAM", "src", "not device memory"});
}

__mlu_global__ void misaligned_vector() {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 256);
  __bang_mul_scalar(buf + 1, buf + 64, 2.0f, 32);  // dst not 64-byte aligned
}

__mlu_global__ void odd_vector_count() {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 256);
  __bang_add(buf, buf + 64, buf + 128, 33);  // 132 bytes: not a multiple of 128
}

TEST(Faults, VectorAlignmentRules) {
  expect_mentions(fault_of(misaligned_vector), {"__bang_mul_scalar", "dst", "NRAM +0x4", "aligned"});
  expect_mentions(fault_of(odd_vector_count), {"__bang_add", "132 bytes", "multiple of 128"});
}

__mlu_global__ void reads_async_destination(const float *gdram) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, ping, 64);
  __memcpy_async(ping, gdram, 64 * sizeof(float), GDRAM2NRAM);
  __bang_mul_scalar(ping, ping, 2.0f, 64);  // no __sync(): the data may not be there
}

__mlu_global__ void overwrites_async_source(float *gdram) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, out, 64);
  __memcpy_async(gdram, out, 64 * sizeof(float), NRAM2GDRAM);
  __bang_write_value(out, 64, 0.0f);  // the store may still be reading `out`
}

__mlu_global__ void syncs_properly(float *gdram) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 32);
  float *mine = gdram + taskId * 32;
  __memcpy_async(buf, mine, 32 * sizeof(float), GDRAM2NRAM);
  __sync();
  __bang_mul_scalar(buf, buf, 2.0f, 32);
  __memcpy(mine, buf, 32 * sizeof(float), NRAM2GDRAM);
}

TEST(Faults, AsyncHazardsAreReportedAndFencedCodeIsNot) {
  DeviceBuffer<float> g(std::vector<float>(128, 1.0f));
  expect_mentions(fault_of(reads_async_destination, static_cast<const float *>(g.get())),
                  {"__bang_mul_scalar reads", "__memcpy_async", "async hazard"});
  expect_mentions(fault_of(overwrites_async_source, g.get()),
                  {"__bang_write_value overwrites the source", "__memcpy_async"});
  g.upload(std::vector<float>(128, 1.0f));  // the faulted store had already landed
  EXPECT_EQ(fault_of(syncs_properly, g.get()), "");
  for (float v : g.download()) EXPECT_EQ(v, 2.0f);
}

TEST(Faults, DeviceApiOutsideAKernelIsAnErrorNotACrash) {
  EXPECT_THROW(__sync(), mlusim::KernelFault);
}

}  // namespace
