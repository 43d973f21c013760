// The calibration suite: published measurements of real boards that mlusim
// reproduces on the same board's preset and clock, with mlu-ops' own kernels
// (through mlusim-mluops, given an mlu-ops build) or with BANG C programs of
// our own (harness/calibration_kernels.mlu). `mlusim calibrate` and
// perf/calibration run them; docs/cost_model.md gives the results and which
// constants they fit.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace mlusim::calibration {

// What a case reproduces: our own program (run in this process), or an
// mlu-ops operator on a prototxt case (run by mlusim-mluops).
enum class Kind { kProgram, kMluOps };

struct Case {
  std::string name;
  std::string board;      // the preset
  double clock_mhz;       // 0: the board's rated clock
  std::string unit;       // "us", "cycles/iteration", "ns/iteration"
  double published_low;   // the published figure, or its range
  double published_high;
  std::string citation;
  bool held_out;          // not used to set any constant: checks the fit
  Kind kind;
  std::function<double()> program;  // kProgram: the figure, in `unit`, on the current device
  std::string op;         // kMluOps: the operator (mlu-ops' name)
  std::string arch;       // kMluOps: the architecture its build must be for
  std::string in_tree;    // kMluOps: an in-tree case file (under the build's test zoo), or
  std::string prototxt;   // the case written from the published shapes
};

const std::vector<Case> &cases();

// How far `predicted` is from the published figure, relative to it: 0 inside
// a published range, else to its nearest end (+: mlusim is slower).
double relative_error(const Case &c, double predicted);
// "80", "630-780".
std::string published_text(const Case &c);

// Runs a kProgram case on its board and clock, then restores the device.
double run_program(const Case &c);

// The median of |errors|.
double median_abs(std::vector<double> errors);

// The programs (harness/calibration_kernels.mlu), on the current device.
double scalar_nram_loop_cycles_per_iteration();
double scalar_gdram_loop_ns_per_iteration();
double small_elementwise_us();

}  // namespace mlusim::calibration
