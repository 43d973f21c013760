// The demo's case registry: each operator adds tools/demo/<op>.cpp, which runs
// realistic cases through mlu_op.h, checks them against the CPU reference and
// returns one row per case for the results table.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "mlusim.h"
#include "harness/harness.h"

namespace mlusim::demo {

struct Row {
  std::string op;        // "psamask_forward"
  std::string case_name; // "[2,64,64,225] COLLECT"
  std::string dtype;     // "float"
  mlusimReport_t report; // the op's report (device time, efficiencies)
  std::string accuracy;  // "diff3=0", "diff1=3e-07 diff2=4e-07"
  bool passed;           // accuracy within the operator's threshold
  double host_ms;        // host wall time of the simulated call
};

// Runs one mlu-ops call (a callable returning mluOpStatus_t) on `handle`, and
// records its host wall time and the op report in `row`. On failure the status
// goes to row.accuracy and the result is false.
template <typename Call>
bool run_timed(Row &row, const harness::Handle &handle, Call &&call) {
  const auto start = std::chrono::steady_clock::now();
  const mluOpStatus_t status = call();
  row.host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != MLUOP_STATUS_SUCCESS) {
    row.accuracy = mluOpGetErrorString(status);
    row.passed = false;
    return false;
  }
  row.report = handle.last_op_report();
  return true;
}

// Judges a result by mlu-ops' diff1 and diff2: row.accuracy names both
// (printf `format` each), row.passed holds both within `threshold`.
inline void judge_diff1_diff2(Row &row, const harness::Diffs &d, double threshold,
                              const char *format = "%.2g") {
  char diff1[32], diff2[32];
  std::snprintf(diff1, sizeof(diff1), format, d.diff1);
  std::snprintf(diff2, sizeof(diff2), format, d.diff2);
  row.accuracy = std::string("diff1=") + diff1 + " diff2=" + diff2;
  row.passed = d.diff1 <= threshold && d.diff2 <= threshold;
}

using CaseRunner = std::vector<Row> (*)();

struct Registrar {
  Registrar(const char *op, CaseRunner runner);
};

struct Entry {
  const char *op;
  CaseRunner runner;
};
const std::vector<Entry> &entries();

}  // namespace mlusim::demo

#define MLUSIM_DEMO(op, runner) \
  static const ::mlusim::demo::Registrar mlusim_demo_registrar_##op(#op, runner)
