// What border_align_backward's tests share: its cases on the device and the
// comparison with the CPU reference (mlu-ops' diff1 and diff2 within the
// issue's bar).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "harness/border_align_backward.h"
#include "harness/harness.h"
#include "ops/border_align_backward/border_align_backward_cases.h"
#include "tests/common/op_log_capture.h"

namespace mluop::border_align_backward::test {

using namespace mlusim::harness;  // Handle, TensorDesc, DeviceBuffer, compare, ...
using FloatAndHalf = ::testing::Types<FloatTag, HalfTag>;  // typed tests over both dtypes
using cases::device_values;
using cases::Problem;
using cases::random_problem;
using cases::Shape;
using cases::threshold;
using harness::DeviceProblem;
using mlusim::testing::OpLogCapture;

// mlu-ops' diff1 and diff2 within the bar for T.
template <typename T>
void expect_close(const std::vector<double> &got, const std::vector<double> &want) {
  const auto d = compare(got, want, diff3_eps(dtype_of<T>()));
  EXPECT_LE(d.diff1, threshold(dtype_of<T>()));
  EXPECT_LE(d.diff2, threshold(dtype_of<T>()));
}

// Runs p (its data already what a T tensor holds) and checks it against the reference.
template <typename T>
void expect_matches_reference(const Problem &p) {
  Handle handle;
  DeviceProblem<T> device(p);
  ASSERT_EQ(device.run(handle), MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  expect_close<T>(device.grad_input(), p.expected());
}

template <typename T>
void expect_random_case_matches(const Shape &s, uint32_t seed, float lo = 0, float hi = 1) {
  expect_matches_reference<T>(device_values<T>(random_problem(s, seed, lo, hi)));
}

}  // namespace mluop::border_align_backward::test
