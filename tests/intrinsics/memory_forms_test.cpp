// The 3-D and cluster forms of __memcpy, and __sync_all_ipu.
#include <numeric>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

// Gathers a 3 x 4 x 2 block out of a 5 x 6 x 8 GDRAM array into a dense NRAM
// block whose rows are padded to 4 elements (dst and src strides differ).
__mlu_global__ void gather_3d(float *out, const float *in) {
  __nram_buffer__(float, block, 3 * 4 * 4);
  __nramset_float(block, 3 * 4 * 4, -1.0f);
  __memcpy(block, in + (1 * 6 + 2) * 8 + 3, 2 * sizeof(float), GDRAM2NRAM,
           4 * sizeof(float), 3, 4 * 4 * sizeof(float), 2,  // dst: row 4, plane 16
           8 * sizeof(float), 3, 6 * 8 * sizeof(float), 2);  // src: row 8, plane 48
  __memcpy(out, block, 3 * 4 * 4 * sizeof(float), NRAM2GDRAM);
}

TEST(MemoryForms, ThreeDimensionalCopy) {
  std::vector<float> in(5 * 6 * 8);
  std::iota(in.begin(), in.end(), 0.0f);
  DeviceBuffer<float> src(in), dst(3 * 4 * 4);
  run_on_one_core(gather_3d, dst.get(), static_cast<const float *>(src.get()));
  auto v = dst.download();
  for (int p = 0; p < 3; ++p)
    for (int r = 0; r < 4; ++r)
      for (int e = 0; e < 4; ++e) {
        const float want = e < 2 ? in[((1 + p) * 6 + 2 + r) * 8 + 3 + e] : -1.0f;
        EXPECT_EQ(v[(p * 4 + r) * 4 + e], want) << p << " " << r << " " << e;
      }
}

__mlu_global__ void copy_3d_uneven_segments(float *gdram) {
  __nram_buffer__(float, buf, 64);
  __memcpy_async(buf, gdram, 4, GDRAM2NRAM, 8, 3, 32, 1, 8, 1, 32, 3);
}

TEST(MemoryForms, ThreeDimensionalCopyWithDifferentCountsIsRefused) {
  DeviceBuffer<float> g(64);
  expect_mentions(fault_of(copy_3d_uneven_segments, g.get()),
                  {"__memcpy_async", "different counts", "not simulated"});
}

__mlu_global__ void to_own_cluster_sram(float *out, const float *in) {
  if (__is_mpu()) return;
  __sram_buffer__(float, shared, 64);
  __nram_buffer__(float, buf, 64);
  if (coreId == 0) {  // one writer per cluster: SRAM is shared by its cores
    __memcpy(buf, in, 64 * sizeof(float), GDRAM2NRAM);
    __memcpy(shared, buf, 32 * sizeof(float), NRAM2SRAM, clusterId);
    __memcpy_async(shared + 32, buf + 32, 32 * sizeof(float), NRAM2SRAM, clusterId);
    __sync_move();
  }
  __sync_all_ipu();
  if (coreId == 0) __memcpy(out + 64 * clusterId, shared, 64 * sizeof(float), SRAM2GDRAM);
}

TEST(MemoryForms, CopyToTheCoresOwnClusterAndSyncAllIpu) {
  std::vector<float> in(64);
  std::iota(in.begin(), in.end(), 1.0f);
  DeviceBuffer<float> src(in), dst(2 * 64);
  ASSERT_EQ(MLUSIM_LAUNCH(to_own_cluster_sram, (cnrtDim3_t{8, 1, 1}), cnrtFuncTypeUnion2, nullptr,
                          dst.get(), static_cast<const float *>(src.get())),
            cnrtSuccess)
      << mlusimGetLastError();
  auto v = dst.download();
  for (int i = 0; i < 128; ++i) EXPECT_EQ(v[i], in[i % 64]) << i;
}

__mlu_global__ void to_other_cluster() {
  __sram_buffer__(float, shared, 64);
  __sram_buffer__(float, other, 64);
  __memcpy(other, shared, 64 * sizeof(float), SRAM2SRAM, clusterId + 1);
}

TEST(MemoryForms, CopyToAnotherClusterIsRefused) {
  expect_mentions(fault_of(to_other_cluster),
                  {"__memcpy", "to cluster 1 from cluster 0", "not simulated"});
}

}  // namespace
}  // namespace intrinsics_test
