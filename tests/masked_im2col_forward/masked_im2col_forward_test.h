// What masked_im2col_forward's tests (the operator, and the device permute and
// fill it is built from) share: a case on the device checked bit for bit
// against the CPU reference, small simulated devices, bit-exact comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "harness/harness.h"
#include "harness/masked_im2col_forward.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"

namespace mluop::masked_im2col_forward::test {

using namespace mlusim::harness;  // Handle, TensorDesc, DeviceBuffer, GuardedBuffer, ...
using FloatAndHalf = ::testing::Types<FloatTag, HalfTag>;  // typed tests over both dtypes
using cases::Problem;

// The current device with `change` applied, for a ScopedDevice.
inline mlusimDeviceSpec_t current_device_with(
    const std::function<void(mlusimDeviceSpec_t &)> &change) {
  mlusimDeviceSpec_t spec{};
  mlusimGetDeviceSpec(&spec);
  change(spec);
  return spec;
}

// One cluster with 8 KB of usable NRAM: every NRAM split of the kernels runs.
inline void tiny_nram(mlusimDeviceSpec_t &s) {
  s.clusters = 1;
  s.nram_bytes = s.stack_reserve_bytes + 8 * 1024;
}

// Index of the first element whose bits differ, -1 when all agree.
template <typename T>
long first_bit_difference(const std::vector<T> &a, const std::vector<T> &b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<long>(i);
  return -1;
}

// Whether anything was ever launched on this queue.
inline bool anything_launched(cnrtQueue_t queue) {
  mlusimReport_t r{};
  mlusimGetLastLaunchReport(queue, &r);
  return r.launches != 0;
}

// Runs the operator and checks data_col bit for bit against the reference,
// its guard bands, the feature left as it was, and the op report. *diff3, if
// given, receives mlu-ops' diff3 of the same result (what its gtest reports).
template <typename T>
void expect_matches_reference(const Problem &p, double *diff3 = nullptr) {
  SCOPED_TRACE(p.name());
  const int mask_cnt = p.mask_cnt();
  Handle handle;
  harness::DeviceProblem<T> device(handle, p);
  ASSERT_EQ(device.workspace_query(), MLUOP_STATUS_SUCCESS);
  // The formula of docs/ops/masked_im2col_forward.md: the NHWC feature and the staging data_col.
  EXPECT_EQ(device.workspace_size(), (p.feature.size() + size_t(p.rows()) * mask_cnt) * sizeof(T));
  ASSERT_EQ(device.run(handle), MLUOP_STATUS_SUCCESS) << mlusimGetLastError();

  const std::vector<T> expected = p.expected<T>();
  const std::vector<T> got = device.data_col();
  const long diff = first_bit_difference(got, expected);
  EXPECT_EQ(diff, -1) << "data_col element " << diff << " (row " << diff / mask_cnt << ", mask "
                      << diff % mask_cnt << "): got " << float(got[diff]) << ", expected "
                      << float(expected[diff]);
  EXPECT_TRUE(device.data_col_guards_intact()) << "data_col written outside its bounds";
  EXPECT_EQ(first_bit_difference(device.feature(), p.feature_as<T>()), -1) << "feature changed";

  const mlusimReport_t report = handle.last_op_report();
  EXPECT_EQ(report.launches, 4);  // transpose, fill, window copies, permute
  EXPECT_DOUBLE_EQ(report.theory_io_bytes,
                   double((p.feature.size() + size_t(p.rows()) * mask_cnt) * sizeof(T) +
                          2 * sizeof(int32_t) * mask_cnt));
  EXPECT_GT(report.io_efficiency, 0);
  if (diff3 != nullptr)
    *diff3 = compare(to_double(got), to_double(expected), diff3_eps(dtype_of<T>())).diff3;
}

}  // namespace mluop::masked_im2col_forward::test
