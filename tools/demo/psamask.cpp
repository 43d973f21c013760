// mlusim demo psamask: PSANet's mask layer on one ADE20K image
// (ops/psamask/psamask_cases.h): forward and backward, COLLECT and DISTRIBUTE,
// each against the CPU reference.
#include <cstdio>
#include <string>
#include <vector>

#include "harness/harness.h"
#include "harness/psamask.h"
#include "ops/psamask/psamask_cases.h"
#include "tools/demo.h"

namespace mluop::psamask {
namespace {

std::string shape_text(const std::vector<int> &s) {
  return "[" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) +
         "," + std::to_string(s[3]) + "]";
}

mlusim::demo::Row run_case(const cases::Problem &p) {
  harness::DeviceProblem device(p);
  mlusim::harness::Handle handle;
  mlusim::demo::Row row{p.backward ? "psamask_backward" : "psamask_forward",
                        shape_text(p.input_shape()) +
                            (p.psa_type == 0 ? " COLLECT" : " DISTRIBUTE"),
                        "float", {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const auto diffs = mlusim::harness::compare(mlusim::harness::to_double(device.output()),
                                              mlusim::harness::to_double(p.expected()),
                                              mlusim::harness::diff3_eps(MLUOP_DTYPE_FLOAT));
  char text[32];
  std::snprintf(text, sizeof(text), "diff3=%g", diffs.diff3);
  row.accuracy = text;
  row.passed = diffs.diff3 == 0;  // pure IO: exact
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  std::vector<mlusim::demo::Row> rows;
  uint32_t seed = 66;
  for (bool backward : {false, true})
    for (int psa_type : {0, 1})
      rows.push_back(
          run_case(cases::random_problem(backward, psa_type, cases::kAde20kOneImage, seed++)));
  return rows;
}

std::vector<mlusim::demo::Case> network_cases() {
  std::vector<mlusim::demo::Case> out;
  for (const cases::NetworkCase &c : cases::kNetworkCases)
    for (int psa_type : {0, 1})
      out.emplace_back([&c, psa_type] {
        mlusim::demo::Row row = run_case(cases::random_problem(c.backward, psa_type, c.dims, 66));
        row.case_name = std::string(c.name) + (psa_type == 0 ? " COLLECT" : " DISTRIBUTE");
        return row;
      });
  return out;
}

}  // namespace
}  // namespace mluop::psamask

MLUSIM_DEMO(psamask, mluop::psamask::demo_rows);
MLUSIM_NETWORK_CASES(psamask, mluop::psamask::network_cases);
