// What psamask's tests share: one call on fresh device buffers, the exact
// comparison with the CPU reference, and small simulated devices.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "harness/harness.h"
#include "harness/psamask.h"
#include "ops/psamask/psamask_cases.h"
#include "ops/psamask/psamask_kernel.h"
#include "tests/common/op_log_capture.h"

namespace mluop::psamask::test {

using namespace mlusim::harness;  // Handle, TensorDesc, DeviceBuffer, compare, ...
using cases::Dims;
using cases::Problem;
using harness::DeviceProblem;
using mlusim::testing::OpLogCapture;

struct Outcome {
  mluOpStatus_t status;
  std::vector<float> out;
};

inline Outcome run(const Handle &handle, const Problem &p) {
  DeviceProblem device(p);
  const mluOpStatus_t status = device.run(handle);
  return {status, device.output()};
}

// Runs a random problem and expects mlu-ops' pure-IO standard against the CPU
// reference: diff3 = 0 (and so diff1 = diff2 = 0).
inline void expect_exact(const Handle &handle, bool backward, int psa_type, const Dims &d,
                         uint32_t seed) {
  const Problem p = cases::random_problem(backward, psa_type, d, seed, -10, 10);
  SCOPED_TRACE(p.name());
  const Outcome got = run(handle, p);
  ASSERT_EQ(got.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  const auto diffs = compare(to_double(got.out), to_double(p.expected()),
                             diff3_eps(MLUOP_DTYPE_FLOAT));
  EXPECT_EQ(diffs.diff3, 0.0) << "diff1 " << diffs.diff1 << " diff2 " << diffs.diff2;
}

// Forward and backward, COLLECT and DISTRIBUTE.
inline void expect_exact_all(const Handle &handle, const Dims &d, uint32_t seed) {
  for (int psa_type : {0, 1})
    for (bool backward : {false, true}) expect_exact(handle, backward, psa_type, d, seed++);
}

// The kernel's shape of a problem's dims.
inline Shape shape_of(const Dims &d, int psa_type) {
  return make_shape(d.num, d.h_feature, d.w_feature, d.h_mask, d.w_mask, psa_type);
}

// The default device with `clusters` clusters and `nram_kb` KB of usable NRAM.
inline mlusimDeviceSpec_t small_device(int clusters, size_t nram_kb) {
  mlusimDeviceSpec_t spec{};
  mlusimGetPreset(0, &spec);
  spec.clusters = clusters;
  spec.nram_bytes = spec.stack_reserve_bytes + nram_kb * 1024;
  return spec;
}

}  // namespace mluop::psamask::test
