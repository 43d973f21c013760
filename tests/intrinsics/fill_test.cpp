// __nramset*, __nramset_async and __gdramset: what they write, where they
// stop, and the faults of a fill outside its space or read before its fence.
#include <cstring>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

// Fills 100 elements of a 128-element buffer; the rest keeps its marker.
__mlu_global__ void nramset_prefix(float *out_f, half *out_h, int *out_i, int16_t *out_s,
                                   int *out_n) {
  __nram_buffer__(float, f, 128);
  __nram_buffer__(half, h, 128);
  __nram_buffer__(int, i, 128);
  __nram_buffer__(int16_t, s, 128);
  __nram_buffer__(int, n, 128);
  __nramset_short(s, 128, -1);
  __nramset_short(s, 100, 300);
  __nramset_int(n, 128, -1);
  __nramset_int(n, 100, 70000);
  __memcpy(out_s, s, 128 * sizeof(int16_t), NRAM2GDRAM);
  __memcpy(out_n, n, 128 * sizeof(int), NRAM2GDRAM);
  __nramset_float(f, 128, -1.0f);
  __nramset_float(f, 100, 2.5f);
  __nramset_half(h, 128, half(-1));
  __nramset_half(h, 100, half(0.375));
  __nramset(i, 128, -1);
  __nramset(i, 100, 7);
  __memcpy(out_f, f, 128 * sizeof(float), NRAM2GDRAM);
  __memcpy(out_h, h, 128 * sizeof(half), NRAM2GDRAM);
  __memcpy(out_i, i, 128 * sizeof(int), NRAM2GDRAM);
}

TEST(Fill, NramsetWritesCountElementsOfTheValueDtype) {
  DeviceBuffer<float> f(128);
  DeviceBuffer<half> h(128);
  DeviceBuffer<int> i(128), n(128);
  DeviceBuffer<int16_t> s(128);
  run_on_one_core(nramset_prefix, f.get(), h.get(), i.get(), s.get(), n.get());
  auto vf = f.download();
  auto vh = h.download();
  auto vi = i.download();
  auto vs = s.download();
  auto vn = n.download();
  for (int k = 0; k < 128; ++k) {
    const bool filled = k < 100;
    EXPECT_EQ(vf[k], filled ? 2.5f : -1.0f) << k;
    EXPECT_EQ(static_cast<float>(vh[k]), filled ? 0.375f : -1.0f) << k;
    EXPECT_EQ(vi[k], filled ? 7 : -1) << k;
    EXPECT_EQ(vs[k], filled ? 300 : -1) << k;
    EXPECT_EQ(vn[k], filled ? 70000 : -1) << k;
  }
}

// One element at the end of each of 4 rows of 8: stride 8 floats, segnum 3.
__mlu_global__ void nramset_column(float *out) {
  __nram_buffer__(float, m, 32);
  __nramset_float(m, 32, 0.0f);
  __nramset_async(m + 7, 1, 9.0f, 8 * sizeof(float), 3);
  __sync();
  __memcpy(out, m, 32 * sizeof(float), NRAM2GDRAM);
}

TEST(Fill, NramsetAsyncFillsSegments) {
  DeviceBuffer<float> out(32);
  run_on_one_core(nramset_column, out.get());
  auto v = out.download();
  for (int k = 0; k < 32; ++k) EXPECT_EQ(v[k], k % 8 == 7 ? 9.0f : 0.0f) << k;
}

__mlu_global__ void gdramset_middle(half *dst) { __gdramset(dst + 3, 10, half(1.5)); }

TEST(Fill, GdramsetFillsDeviceMemory) {
  DeviceBuffer<half> d(std::vector<half>(16, half(0)));
  run_on_one_core(gdramset_middle, d.get());
  auto v = d.download();
  for (int k = 0; k < 16; ++k)
    EXPECT_EQ(static_cast<float>(v[k]), (k >= 3 && k < 13) ? 1.5f : 0.0f) << k;
}

__mlu_global__ void nramset_past_end() {
  __nram_buffer__(half, h, 64);
  __nramset_half(h, 65, half(0));
}

__mlu_global__ void gdramset_past_end(float *dst) { __gdramset(dst, 17, 0.0f); }

TEST(FillFaults, OutsideItsSpace) {
  expect_mentions(fault_of(nramset_past_end), {"__nramset_half", "dst", "NRAM"});
  DeviceBuffer<float> d(16);
  expect_mentions(fault_of(gdramset_past_end, d.get()), {"__gdramset", "dst", "GDRAM"});
}

}  // namespace
}  // namespace intrinsics_test
