// mlusim demo border_align_backward: the design doc's first network case
// (ops/border_align_backward/border_align_backward_cases.h: grad_output
// [2,70,4,256], pool_size 10) in both dtypes, against the CPU reference.
#include "harness/border_align_backward.h"
#include "harness/harness.h"
#include "ops/border_align_backward/border_align_backward_cases.h"
#include "tools/demo.h"

namespace mluop::border_align_backward {
namespace {

template <typename T>
mlusim::demo::Row run_case(const cases::Shape &s) {
  const cases::Problem p = cases::device_values<T>(cases::random_problem(s, 70));
  mlusim::harness::Handle handle;
  harness::DeviceProblem<T> device(p);
  constexpr mluOpDataType_t dtype = mlusim::harness::dtype_of<T>();
  mlusim::demo::Row row{"border_align_backward", cases::name(s),
                        dtype == MLUOP_DTYPE_FLOAT ? "float" : "half", {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const auto d = mlusim::harness::compare(device.grad_input(), p.expected(),
                                          mlusim::harness::diff3_eps(dtype));
  mlusim::demo::judge_diff1_diff2(row, d, cases::threshold(dtype), "%.1e");
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  const cases::Shape &network_case = cases::kNetworkCases[0];
  return {run_case<float>(network_case), run_case<_Float16>(network_case)};
}

std::vector<mlusim::demo::Case> network_cases() {
  return mlusim::demo::float_and_half(
      cases::kNetworkCases, [](const cases::Shape &s, auto t) { return run_case<decltype(t)>(s); });
}

}  // namespace
}  // namespace mluop::border_align_backward

MLUSIM_DEMO(border_align_backward, mluop::border_align_backward::demo_rows);
MLUSIM_NETWORK_CASES(border_align_backward, mluop::border_align_backward::network_cases);
