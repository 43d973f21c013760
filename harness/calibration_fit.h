// `mlusim calibrate --fit`: every fitted constant set from the cases marked
// for it (Case::fits), one after another in the order fit_constants() gives,
// each at the value that brings its cases' mean error to their published
// figures to zero (the middle of a published range). A held-out case is
// never evaluated by the fit: it can only check the constants found.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/calibration.h"

namespace mlusim::calibration {

// What running a case gave: its figure in the case's unit, or why it has none.
struct Outcome {
  std::optional<double> figure;
  std::string note;
};

// Runs cases[indices[i]] with settings[i] applied on its board.
using Evaluate = std::function<std::vector<Outcome>(
    const std::vector<size_t> &indices, const std::vector<std::vector<Setting>> &settings)>;

struct Fitted {
  FitConstant constant;
  double in_use = 0;             // on the board of its cases
  std::optional<double> found;
  double error_at_found = 0;     // its cases' mean error there
  std::string note;              // why nothing was found
};

// Fits `constants`, in their order, on the cases of `all` marked for each.
std::vector<Fitted> fit(const std::vector<Case> &all, const std::vector<FitConstant> &constants,
                        const Evaluate &evaluate);

// The settings a case of generation `bang_arch` runs with: the values found
// for the constants that hold on its board.
std::vector<Setting> settings_for(int bang_arch, const std::vector<Fitted> &fitted);

}  // namespace mlusim::calibration
