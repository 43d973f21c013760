// The efficiency chart of `mlusim report`: per case of one operator, its IO
// and compute efficiency as horizontal bars (with the cost model's range as
// error bars when it gives one), against the lines of mlu-ops' performance
// standard: 60% on the bottleneck side for network-scale cases, 30% for others.
#pragma once

#include <string>
#include <vector>

#include "runtime/trace/svg.h"

namespace mlusim::report {

struct ChartCase {
  std::string label;           // "[2,70,4,256] pool 10 float"
  svg::Estimate io, compute;   // fractions; negative: the operator declares no figure
  double device_us = 0;
  bool passed = true;          // its result matched the CPU reference
};

struct Chart {
  std::string op;      // "border_align_backward"
  std::string device;  // "MLU370-X4"
  std::vector<ChartCase> cases;
};

inline constexpr double kNetworkStandard = 0.6;  // mlu-ops: network-scale cases
inline constexpr double kGeneralStandard = 0.3;  // mlu-ops: other cases

std::string efficiency_chart_svg(const Chart &chart);

}  // namespace mlusim::report
