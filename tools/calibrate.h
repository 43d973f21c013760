// mlusim calibrate [--fit] [--mluops <mlu-ops build>]...: every published
// board case (harness/calibration.h) mlusim can reproduce here, on its board's
// preset and clock, with the predicted and the published figure and the
// error; then the median error, over the fitted cases and over the held-out
// ones. Our own programs always run; mlu-ops' cases run through mlusim-mluops
// when a build of their architecture that has their operator is given, and
// are listed as skipped otherwise. --fit first fits every fitted constant on
// its cases (harness/calibration_fit.h), prints the values found beside the
// ones in use, then runs every case at the values found.
#pragma once

namespace mlusim::tools {

int run_calibrate(int argc, char **argv);

}  // namespace mlusim::tools
