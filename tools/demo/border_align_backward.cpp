// mlusim demo border_align_backward: the design doc's first network case
// (grad_output [2,70,4,256], pool_size 10) in both dtypes, against the CPU reference.
#include <cstdio>

#include "tests/border_align_backward/border_align_backward_problem.h"
#include "tools/demo.h"

namespace {

using border_align_backward::testing::DeviceProblem;
using border_align_backward::testing::device_values;
using border_align_backward::testing::dtype_of;
using border_align_backward::testing::Problem;
using border_align_backward::testing::random_problem;
using border_align_backward::testing::Shape;
using border_align_backward::testing::threshold;

template <typename T>
mlusim::demo::Row run_case(const Shape &s) {
  const Problem p = device_values<T>(random_problem(s, 70));
  mlusim::harness::Handle handle;
  DeviceProblem<T> device(p);
  mlusim::demo::Row row{"border_align_backward",
                        "[2," + std::to_string(s.K()) + ",4," + std::to_string(s.C) + "] pool " +
                            std::to_string(s.pool_size),
                        sizeof(T) == 4 ? "float" : "half",
                        {},
                        "",
                        false,
                        0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const auto d = mlusim::harness::compare(device.grad_input(), p.reference(),
                                          mlusim::harness::diff3_eps(dtype_of<T>()));
  char text[64];
  std::snprintf(text, sizeof(text), "diff1=%.1e diff2=%.1e", d.diff1, d.diff2);
  row.accuracy = text;
  row.passed = d.diff1 <= threshold(dtype_of<T>()) && d.diff2 <= threshold(dtype_of<T>());
  return row;
}

std::vector<mlusim::demo::Row> run() {
  const Shape network_case{2, 7, 10, 256, 10};  // K = 70 boxes, one per pixel of a 7 x 10 map
  return {run_case<float>(network_case), run_case<_Float16>(network_case)};
}

}  // namespace

MLUSIM_DEMO(border_align_backward, run);
