// Intrinsic semantics against values worked out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "tests/common/one_core.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

using mlusim::harness::run_on_one_core;

// Strided copy moves segnum + 1 segments.
__mlu_global__ void strided_gather(float *dst, const float *src) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 6);
  __memcpy(buf, src, 2 * sizeof(float), GDRAM2NRAM, 2 * sizeof(float), 5 * sizeof(float), 2);
  __memcpy(dst, buf, 6 * sizeof(float), NRAM2GDRAM);
}

TEST(Intrinsics, StridedMemcpyCopiesSegnumPlusOneSegments) {
  std::vector<float> src(15);
  std::iota(src.begin(), src.end(), 0.0f);
  DeviceBuffer<float> s(src), d(std::vector<float>(6, -1.0f));
  run_on_one_core(strided_gather, d.get(), static_cast<const float *>(s.get()));
  EXPECT_EQ(d.download(), (std::vector<float>{0, 1, 5, 6, 10, 11}));
}

__mlu_global__ void transpose_32x64(float *dst, const float *src) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, a, 32 * 64);
  __nram_buffer__(float, b, 32 * 64);
  __memcpy(a, src, 32 * 64 * sizeof(float), GDRAM2NRAM);
  __bang_transpose(b, a, 32, 64);
  __memcpy(dst, b, 32 * 64 * sizeof(float), NRAM2GDRAM);
}

TEST(Intrinsics, TransposeSwapsRowsAndColumns) {
  std::vector<float> src(32 * 64);
  std::iota(src.begin(), src.end(), 0.0f);
  DeviceBuffer<float> s(src), d(32 * 64);
  run_on_one_core(transpose_32x64, d.get(), static_cast<const float *>(s.get()));
  auto out = d.download();
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(out[c * 32 + r], src[r * 64 + c]);
}

__mlu_global__ void to_half_and_back(float *dst, const float *src) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, f, 64);
  __nram_buffer__(half, h, 64);
  __memcpy(f, src, 64 * sizeof(float), GDRAM2NRAM);
  __bang_float2half_rn(h, f, 64);
  __bang_half2float(f, h, 64);
  __memcpy(dst, f, 64 * sizeof(float), NRAM2GDRAM);
}

TEST(Intrinsics, FloatToHalfRoundsToNearestEven) {
  std::vector<float> src(64, 0.0f);
  src[0] = 1.0f + std::ldexp(1.0f, -11);      // halfway between 1 and 1+2^-10: to even (1)
  src[1] = 1.0f + 3 * std::ldexp(1.0f, -11);  // halfway, rounds up to the even 1+2^-9
  src[2] = 65520.0f;                          // past the largest half: infinity
  src[3] = -2.5f;                             // exact
  DeviceBuffer<float> s(src), d(64);
  run_on_one_core(to_half_and_back, d.get(), static_cast<const float *>(s.get()));
  auto out = d.download();
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 1.0f + std::ldexp(1.0f, -9));
  EXPECT_TRUE(std::isinf(out[2]));
  EXPECT_EQ(out[3], -2.5f);
}

__mlu_global__ void mixed_vector_ops(float *out, const int *idx) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, a, 64);
  __nram_buffer__(float, b, 64);
  __nram_buffer__(int, i32, 64);
  __nram_buffer__(int, table, 64);
  __bang_write_value(a, 64, 3.0f);
  __bang_write_value(b, 64, 0.5f);
  __bang_cycle_mul(a, a, b, 64, 32);       // 1.5
  __bang_add_scalar(a, a, -1.0f, 64);      // 0.5
  __bang_ge_scalar(b, a, 0.5f, 64);        // 1
  __bang_add(a, a, b, 64);                 // 1.5
  __memcpy(i32, idx, 64 * sizeof(int), GDRAM2NRAM);
  for (int k = 0; k < 64; ++k) table[k] = 100 + k;
  __bang_lut(i32, i32, table, 64, 64);     // 100 + idx
  __bang_int322float(b, i32, 64, 0);
  __bang_add(a, a, b, 64);                 // 101.5 + idx
  __memcpy(out, a, 64 * sizeof(float), NRAM2GDRAM);
}

TEST(Intrinsics, ArithmeticCompareLutAndConversionsCompose) {
  std::vector<int> idx(64);
  for (int k = 0; k < 64; ++k) idx[k] = (k * 7) % 64;
  DeviceBuffer<int> di(idx);
  DeviceBuffer<float> d(64);
  run_on_one_core(mixed_vector_ops, d.get(), static_cast<const int *>(di.get()));
  auto out = d.download();
  for (int k = 0; k < 64; ++k) EXPECT_EQ(out[k], 101.5f + idx[k]) << k;
}

__mlu_global__ void contend(float *acc) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, ones, 64);
  __bang_write_value(ones, 64, 1.0f);
  for (int i = 0; i < 50; ++i) __bang_atomic_reduce_add(acc, ones, 64);
}

TEST(Intrinsics, AtomicAddUnderContentionLosesNothing) {
  DeviceBuffer<float> acc(std::vector<float>(64, 0.0f));
  ASSERT_EQ(MLUSIM_LAUNCH(contend, (cnrtDim3_t{4, 8, 2}), cnrtFuncTypeUnion1, nullptr, acc.get()),
            cnrtSuccess);
  for (float v : acc.download()) EXPECT_EQ(v, 64.0f * 50.0f);
}

__mlu_global__ void collect_positive(float *out, int *kept) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, v, 32);
  __nram_buffer__(float, mask, 32);
  __nram_buffer__(float, packed, 32);
  for (int k = 0; k < 32; ++k) v[k] = (k % 3 == 0) ? static_cast<float>(k) : -1.0f;
  __bang_gt_scalar(mask, v, 0.0f, 32);
  __bang_write_zero(packed, 32);
  *kept = static_cast<int>(__bang_collect(packed, v, mask, 32));
  __memcpy(out, packed, 32 * sizeof(float), NRAM2GDRAM);
}

TEST(Intrinsics, CollectPacksSelectedElements) {
  DeviceBuffer<float> out(32);
  DeviceBuffer<int> kept(1);
  run_on_one_core(collect_positive, out.get(), kept.get());
  auto v = out.download();
  EXPECT_EQ(kept.download()[0], 10);  // 3, 6, ..., 30
  for (int k = 0; k < 10; ++k) EXPECT_EQ(v[k], 3.0f * (k + 1));
  EXPECT_EQ(v[10], 0.0f);
}

}  // namespace
