// mlusim demo three_interpolate_backward: the gradient of a PointNet++ feature
// propagation layer (the design doc's network case 9, from
// ops/three_interpolate_backward/three_interpolate_backward_cases.h), in float
// and half, each against the CPU reference with mlu-ops' diff1 / diff2 and the
// issue's thresholds.
#include <string>
#include <vector>

#include "harness/harness.h"
#include "harness/three_interpolate_backward.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_cases.h"
#include "tools/demo.h"

namespace mluop::three_interpolate_backward {
namespace {

template <typename T>
mlusim::demo::Row run_case(const Shape &s, uint32_t seed, const char *label) {
  constexpr mluOpDataType_t dtype = mlusim::harness::dtype_of<T>();
  const cases::Problem<T> p = cases::random_problem<T>(s, seed);
  mlusim::harness::Handle handle;
  harness::DeviceProblem<T> device(p);
  const std::string name = "[" + std::to_string(s.b) + "," + std::to_string(s.c) + "," +
                           std::to_string(s.n) + "]->M" + std::to_string(s.m) + " " + label;
  mlusim::demo::Row row{"three_interpolate_backward", name,
                        dtype == MLUOP_DTYPE_FLOAT ? "float" : "half", {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const mlusim::harness::Diffs d =
      mlusim::harness::compare(mlusim::harness::to_double(device.grad_features()), p.expected(),
                               mlusim::harness::diff3_eps(dtype));
  mlusim::demo::judge_diff1_diff2(row, d, cases::threshold(dtype));
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  const Shape &s = cases::kPointNetFeaturePropagation.shape;
  return {run_case<float>(s, 9, "PointNet++ FP"), run_case<_Float16>(s, 9, "PointNet++ FP")};
}

std::vector<mlusim::demo::Case> network_cases() {
  return mlusim::demo::float_and_half(cases::kNetworkCases, [](const cases::NetworkCase &c, auto t) {
    return run_case<decltype(t)>(c.shape, 9, c.name);
  });
}

}  // namespace
}  // namespace mluop::three_interpolate_backward

MLUSIM_DEMO(three_interpolate_backward, mluop::three_interpolate_backward::demo_rows);
MLUSIM_NETWORK_CASES(three_interpolate_backward,
                     mluop::three_interpolate_backward::network_cases);
