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
mlusim::demo::Row run_case(const cases::NetworkCase &c) {
  constexpr mluOpDataType_t dtype = mlusim::harness::dtype_of<T>();
  const cases::Problem p = cases::network_problem(c, dtype);
  harness::DeviceProblem<T> device(p);
  mlusim::harness::Handle handle;
  mlusim::demo::Row row{"deform_roi_pool_forward", c.name,
                        dtype == MLUOP_DTYPE_HALF ? "half" : "float", {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const auto d = mlusim::harness::compare(device.output(), p.expected(),
                                          mlusim::harness::diff3_eps(p.dtype));
  mlusim::demo::judge_diff1_diff2(row, d, cases::threshold(p.dtype));
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  return {run_case<float>(kDemoCase), run_case<_Float16>(kDemoCase)};
}

std::vector<mlusim::demo::Case> network_cases() {
  return mlusim::demo::float_and_half(cases::kNetworkCases, [](const cases::NetworkCase &c, auto t) {
    return run_case<decltype(t)>(c);
  });
}

}  // namespace
}  // namespace mluop::deform_roi_pool_forward

MLUSIM_DEMO(deform_roi_pool_forward, mluop::deform_roi_pool_forward::demo_rows);
MLUSIM_NETWORK_CASES(deform_roi_pool_forward, mluop::deform_roi_pool_forward::network_cases);
