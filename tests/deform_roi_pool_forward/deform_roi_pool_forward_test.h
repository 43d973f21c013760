// What deform_roi_pool_forward's tests share: its cases on the device and the
// comparison with the CPU reference (mlu-ops' diff1 and diff2 within the
// issue's bar).
#pragma once

#include <gtest/gtest.h>

#include "harness/deform_roi_pool_forward.h"
#include "harness/harness.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h"
#include "tests/common/op_log_capture.h"

namespace mluop::deform_roi_pool_forward::test {

using namespace mlusim::harness;  // Handle, TensorDesc, DeviceBuffer, compare, ...
using cases::Problem;
using cases::RandomShape;
using mlusim::testing::OpLogCapture;

inline void expect_matches_reference(const Problem &p) {
  SCOPED_TRACE(p.name());
  const auto run = harness::run(p);
  ASSERT_EQ(run.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  const auto d = compare(run.output, p.expected(), diff3_eps(p.dtype));
  EXPECT_LE(d.diff1, cases::threshold(p.dtype));
  EXPECT_LE(d.diff2, cases::threshold(p.dtype));
}

}  // namespace mluop::deform_roi_pool_forward::test
