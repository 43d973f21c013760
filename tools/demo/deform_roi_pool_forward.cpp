// mlusim demo deform_roi_pool_forward: mmdet's DeformRoIPoolPack on the
// stride-8 FPN level of an 800x1216 image (the design doc's network case 2 in
// ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h: 13 rois, 7x7,
// adaptive sampling, gamma 0.1, offsets), float and half, each against the CPU
// reference.
#include <vector>

#include "harness/deform_roi_pool_forward.h"
#include "harness/harness.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h"
#include "tools/demo.h"

namespace mluop::deform_roi_pool_forward {
namespace {

const cases::NetworkCase &kDemoCase = cases::kNetworkCases[1];

template <typename T>
mlusim::demo::Row run_case(const cases::Problem &p, const char *dtype) {
  harness::DeviceProblem<T> device(p);
  mlusim::harness::Handle handle;
  mlusim::demo::Row row{"deform_roi_pool_forward", kDemoCase.name, dtype, {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const auto d = mlusim::harness::compare(device.output(), p.expected(),
                                          mlusim::harness::diff3_eps(p.dtype));
  mlusim::demo::judge_diff1_diff2(row, d, cases::threshold(p.dtype));
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  return {run_case<float>(cases::network_problem(kDemoCase, MLUOP_DTYPE_FLOAT), "float"),
          run_case<_Float16>(cases::network_problem(kDemoCase, MLUOP_DTYPE_HALF), "half")};
}

}  // namespace
}  // namespace mluop::deform_roi_pool_forward

MLUSIM_DEMO(deform_roi_pool_forward, mluop::deform_roi_pool_forward::demo_rows);
