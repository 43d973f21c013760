// The demo's case registry: each operator adds tools/demo/<op>.cpp, which runs
// realistic cases through mlu_op.h, checks them against the CPU reference and
// returns one row per case for the results table.
#pragma once

#include <string>
#include <vector>

#include "mlusim.h"

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
