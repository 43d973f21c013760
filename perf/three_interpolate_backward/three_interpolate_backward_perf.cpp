// The design doc's network cases 1-10 (section 3.6, from
// ops/three_interpolate_backward/three_interpolate_backward_cases.h) in float
// and half: the simulated device time, IO and compute efficiency on the
// default device, and the host wall time of the simulated call next to a plain
// OpenMP CPU implementation on the same data. Each case is checked once
// against the CPU reference before it is timed.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/harness.h"
#include "harness/three_interpolate_backward.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_cases.h"
#include "perf/common/perf_util.h"
#include "perf/three_interpolate_backward/three_interpolate_backward_omp.h"
#include "runtime/devices.h"

namespace mluop::three_interpolate_backward {
namespace {

using namespace mlusim::harness;

template <typename T>
void run_case(benchmark::State &state, const Shape &k) {
  const cases::Problem<T> p =
      cases::random_problem<T>(k, static_cast<uint32_t>(k.b * 131 + k.c * 7 + k.n + k.m));
  Handle handle;
  harness::DeviceProblem<T> device(p);
  auto simulate = [&] { return device.run(handle); };

  const mlusim::perf::PeakMemory peak;
  if (simulate() != MLUOP_STATUS_SUCCESS) {
    state.SkipWithError(mlusimGetLastError());
    return;
  }
  const double threshold = cases::threshold(dtype_of<T>());
  const Diffs d =
      compare(to_double(device.grad_features()), p.expected(), diff3_eps(dtype_of<T>()));
  if (!(d.diff1 <= threshold && d.diff2 <= threshold)) {
    state.SkipWithError(
        ("accuracy: diff1 " + std::to_string(d.diff1) + " diff2 " + std::to_string(d.diff2))
            .c_str());
    return;
  }

  mlusim::perf::SimTimes sim;
  for (auto _ : state) sim.time(simulate);
  mlusim::perf::set_memory_counters(state, peak);
  std::vector<T> plain_out(size_t(k.b) * k.c * k.m);
  // Best of several runs: small cases are at the mercy of thread wake-ups on a shared host.
  const int reps = p.grad_output.size() > (size_t{1} << 24) ? 3 : 10;
  const double cpu_ms = mlusim::perf::best_wall_ms(reps, [&] {
    omp::three_interpolate_backward(p.grad_output, p.indices, p.weights, plain_out, k);
  });

  const mlusimReport_t report = mlusim::perf::report_with_error_bars([&] {
    simulate();
    return handle.last_op_report();
  });
  mlusim::perf::set_device_counters(state, report);
  mlusim::perf::set_host_counters(state, sim, cpu_ms);
  state.counters["diff1"] = d.diff1;
  state.counters["diff2"] = d.diff2;
  // Why the time is what it is: the busiest core's IO (+ on-chip move) and
  // vector time, which the doc's unpipelined kernel adds up, and the tiling.
  state.counters["core_io_us"] =
      *std::max_element(report.core_io_busy_us, report.core_io_busy_us + report.cores);
  state.counters["core_compute_us"] =
      *std::max_element(report.core_compute_busy_us, report.core_compute_busy_us + report.cores);
  const Tiles t =
      choose_tiles<T>(k, static_cast<int64_t>(mlusim::nram_usable(mlusim::current_device())));
  state.SetLabel("No=" + std::to_string(t.n) + " Co=" + std::to_string(t.c) + " Mo=" +
                 std::to_string(t.m) + " tasks=" + std::to_string(task_count(k, t)));
}

template <typename T>
void register_case(const std::string &name, const Shape &k) {
  benchmark::RegisterBenchmark(name.c_str(), [k](benchmark::State &s) { run_case<T>(s, k); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void register_cases() {
  // mlu-ops' in-tree cases, in their own dtype (docs/ops/three_interpolate_backward.md).
  for (const cases::MluOpsCase &c : cases::kMluOpsCases) {
    if (c.half)
      register_case<_Float16>(c.name, c.shape);
    else
      register_case<float>(c.name, c.shape);
  }
  for (const cases::NetworkCase &c : cases::kNetworkCases) {
    const Shape &k = c.shape;
    const std::string name = std::string(c.name) + "/[" + std::to_string(k.b) + "," +
                             std::to_string(k.c) + "," + std::to_string(k.n) + "]->M" +
                             std::to_string(k.m);
    register_case<float>(name + "/float", k);
    register_case<_Float16>(name + "/half", k);
  }
}

}  // namespace
}  // namespace mluop::three_interpolate_backward

int main(int argc, char **argv) {
  mluop::three_interpolate_backward::register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
