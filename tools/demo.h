// The demo's case registry: each operator adds tools/demo/<op>.cpp, which runs
// realistic cases through mlu_op.h, checks them against the CPU reference and
// returns one row per case for the results table; it may also list all its
// network cases for `mlusim report` (MLUSIM_NETWORK_CASES).
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
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

// The demo's rows of one operator, run when called.
using CaseRunner = std::vector<Row> (*)();
// An operator's network cases for `mlusim report`, each run when called (so
// that the report can show its progress case by case).
using Case = std::function<Row()>;
using CaseLister = std::vector<Case> (*)();

// Every operator's function of one kind (CaseRunner or CaseLister), in the
// order the operators registered them.
template <typename Fn>
struct Registered {
  const char *op;
  Fn run;
};
template <typename Fn>
std::vector<Registered<Fn>> &registry() {
  static std::vector<Registered<Fn>> r;
  return r;
}
template <typename Fn>
struct Registrar {
  Registrar(const char *op, Fn fn) { registry<Fn>().push_back({op, fn}); }
};
using Entry = Registered<CaseRunner>;
using NetworkEntry = Registered<CaseLister>;
inline const std::vector<Entry> &entries() { return registry<CaseRunner>(); }
inline const std::vector<NetworkEntry> &network_entries() { return registry<CaseLister>(); }

// Both dtypes of every case in `cases`: run(case, float{}) and run(case, _Float16{}).
template <typename Cases, typename Run>
std::vector<Case> float_and_half(const Cases &cases, Run run) {
  std::vector<Case> out;
  for (const auto &c : cases) {
    out.emplace_back([&c, run] { return run(c, float{}); });
    out.emplace_back([&c, run] { return run(c, _Float16{}); });
  }
  return out;
}

}  // namespace mlusim::demo

#define MLUSIM_DEMO(op, runner)                                                             \
  static const ::mlusim::demo::Registrar<::mlusim::demo::CaseRunner> mlusim_demo_registrar_##op( \
      #op, runner)
#define MLUSIM_NETWORK_CASES(op, lister)                                  \
  static const ::mlusim::demo::Registrar<::mlusim::demo::CaseLister>      \
      mlusim_network_registrar_##op(#op, lister)
