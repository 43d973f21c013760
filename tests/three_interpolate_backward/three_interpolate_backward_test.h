// What three_interpolate_backward's tests share: one call of a case on its own
// handle, and the comparison with the CPU reference (mlu-ops' diff1 and diff2
// within the thresholds).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "harness/harness.h"
#include "harness/three_interpolate_backward.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_cases.h"
#include "tests/common/op_log_capture.h"

namespace mluop::three_interpolate_backward::test {

using namespace mlusim::harness;  // Handle, TensorDesc, DeviceBuffer, compare, ...
using FloatAndHalf = ::testing::Types<FloatTag, HalfTag>;  // typed tests over both dtypes
using cases::Problem;
using cases::random_problem;
using mlusim::testing::OpLogCapture;

// One call of the operator on a handle of its own, made at construction.
template <typename T>
struct Call {
  explicit Call(const Problem<T> &p) : device(p), status(device.run(handle)) {
    if (status == MLUOP_STATUS_SUCCESS) report = handle.last_op_report();
  }

  Handle handle;
  harness::DeviceProblem<T> device;
  mluOpStatus_t status;
  mlusimReport_t report{};
};

// Every batch against the reference; each must pass mlu-ops' diff1 and diff2
// (which bounds the whole tensor's too) and be free of NaN.
template <typename T>
void expect_matches_reference(const Problem<T> &p) {
  const std::string name = cases::name(p.shape);
  const Call<T> call(p);
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS) << name;
  EXPECT_TRUE(call.device.guards_intact()) << name << ": a write outside grad_features";
  const double threshold = cases::threshold(dtype_of<T>());
  std::vector<Diffs> diffs(p.shape.b);
#pragma omp parallel for schedule(dynamic)  // the large doc cases: batches side by side
  for (int b = 0; b < p.shape.b; ++b)
    diffs[b] =
        compare(to_double(call.device.batch(b)), p.expected_batch(b), diff3_eps(dtype_of<T>()));
  for (int b = 0; b < p.shape.b; ++b) {
    ASSERT_LE(diffs[b].diff1, threshold) << name << ", batch " << b;
    ASSERT_LE(diffs[b].diff2, threshold) << name << ", batch " << b;
  }
}

// A random problem with indices in [0, M - 1], as the doc requires.
template <typename T>
void expect_matches_reference(const Shape &s, uint32_t seed) {
  expect_matches_reference(random_problem<T>(s, seed));
}

}  // namespace mluop::three_interpolate_backward::test
