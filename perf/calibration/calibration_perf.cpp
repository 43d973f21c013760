// The calibration suite's own programs (harness/calibration.h) as benchmarks:
// one per case, its board and clock, with the predicted and the published
// figure and the error as counters, and the host time it takes to simulate.
// mlu-ops' cases need an mlu-ops build: `mlusim calibrate --mluops <dir>`.
#include <benchmark/benchmark.h>

#include <string>

#include "harness/calibration.h"

namespace {

using mlusim::calibration::Case;

void run_case(benchmark::State &state, const Case &c) {
  double predicted = 0;
  for (auto _ : state) predicted = mlusim::calibration::run_program(c);
  state.counters["predicted"] = predicted;
  state.counters["published_low"] = c.published_low;
  state.counters["published_high"] = c.published_high;
  state.counters["error_pct"] = 100 * mlusim::calibration::relative_error(c, predicted);
  state.counters["held_out"] = c.held_out() ? 1 : 0;
  state.SetLabel(c.board + ", " + c.unit);
}

}  // namespace

int main(int argc, char **argv) {
  for (const Case &c : mlusim::calibration::cases())
    if (c.kind == mlusim::calibration::Kind::kProgram)
      benchmark::RegisterBenchmark((c.name + " / " + c.board).c_str(),
                                   [&c](benchmark::State &s) { run_case(s, c); })
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
