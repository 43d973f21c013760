// The calibration suite: published measurements of real boards that mlusim
// reproduces on the same board's preset and clock, with mlu-ops' own kernels
// (through mlusim-mluops, given an mlu-ops build) or with the published course
// lab's BANG C programs (harness/calibration_kernels.mlu). `mlusim calibrate`
// and perf/calibration run them; docs/cost_model.md gives the results and which
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
  std::string unit;       // "us", "ms"
  double published_low;   // the published figure, or its range
  double published_high;
  std::string citation;
  std::string fits;       // the constant it sets (calibration_fit.h), or "": held out
  Kind kind;
  std::function<double()> program;  // kProgram: the figure, in `unit`, on the current device
  std::string op;         // kMluOps: the operator (mlu-ops' name)
  std::string arch;       // kMluOps: the architecture its build must be for
  std::string in_tree;    // kMluOps: an in-tree case file (under the build's test zoo), or
  std::string prototxt;   // the case written from the published shapes
  std::string needs;      // kMluOps: the build it needs, when mlu-ops' own sources of the
                          // architecture will not do ("" when they will): the note of the
                          // skipped case when no build of its architecture holds its operator
  // Read by no fit: it checks the constants the fitted cases set.
  bool held_out() const { return fits.empty(); }
};

// An estimated constant at a value (mlusimSetConstant's names).
struct Setting {
  std::string name;
  double value;
};

// An estimated constant the fitted cases set (calibrate --fit), for the
// boards of generations min_arch..max_arch (bang_arch), searched in [low,
// high]. fit_constants() lists them in the order they depend on each other.
struct FitConstant {
  std::string label;    // "GDRAM latency": what the cases' `fits` name
  std::string setting;  // its name for mlusimSetConstant
  int min_arch, max_arch;
  double low, high;
  double step;  // the device rounds it to a multiple of this (1: whole cycles), or 0
};

const std::vector<Case> &cases();
const std::vector<FitConstant> &fit_constants();

// How far `predicted` is from the published figure, relative to it: 0 inside
// a published range, else to its nearest end (+: mlusim is slower).
double relative_error(const Case &c, double predicted);
// "80", "630-780".
std::string published_text(const Case &c);

// Runs a kProgram case on its board and clock with `settings` applied, then
// restores the device.
double run_program(const Case &c, const std::vector<Setting> &settings = {});
// The value of constant `name` on preset `board`.
double constant_on(const std::string &board, const std::string &name);
// The generation of preset `board` (its bang_arch: 270, 372, 592).
int bang_arch_of(const std::string &board);

// The median of |errors|.
double median_abs(std::vector<double> errors);

// The programs (harness/calibration_kernels.mlu), on the current device: the
// course lab's scalar matrix multiply of 128 x 256 by 256 x k floats over
// GDRAM pointers and over NRAM arrays (k is 128 or 256), in ms.
double lab_gdram_matmul_ms(int k);
double lab_nram_matmul_ms(int k);
// The lab's matrix-unit programs (03, 04, 05) as one of its two published
// copies ran them: the course's (on the MLU370-X8 and X4) or the M8 run's,
// whose sizes and copies differ (docs/cost_model.md); in ms.
enum class LabCopy { kCourse, kM8 };
double lab_matrix_unit_ms(LabCopy copy);
double lab_matrix_blocks_ms(LabCopy copy);
double lab_matrix_pipelined_ms(LabCopy copy);

}  // namespace mlusim::calibration
