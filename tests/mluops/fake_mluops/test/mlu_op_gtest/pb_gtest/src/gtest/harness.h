// What the fake harness gives each operator's test (zoo/<op>/<op>.cpp).
#pragma once
#include <map>
#include <string>

#include "mlu_op.h"

namespace fake_harness {

// One case file: its "name: value" lines.
struct Case {
  std::string path;
  std::map<std::string, std::string> fields;
  double number(const std::string &name) const;
};

// What a test reports besides passing: the figures mlu-ops' harness prints.
struct Figures {
  double hardware_time_us = 0;
  double io_bytes = 0;
  std::string error;  // why the case failed
};

using Test = bool (*)(mluOpHandle_t handle, const Case &c, Figures *figures);

}  // namespace fake_harness
