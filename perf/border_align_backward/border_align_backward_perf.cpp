// border_align_backward on the design doc's network cases (3.7) and mlu-ops'
// in-tree case: simulated device time and efficiencies on the default device,
// and the host cost of the simulation beside the plain OpenMP version on the
// same data.
#include <benchmark/benchmark.h>

#include "harness/border_align_backward.h"
#include "harness/harness.h"
#include "ops/border_align_backward/border_align_backward_cases.h"
#include "perf/border_align_backward/border_align_backward_omp.h"
#include "perf/common/perf_util.h"

namespace mluop::border_align_backward {
namespace {

template <typename T>
void run_case(benchmark::State &state, const cases::Shape &s, const cases::Problem &p) {
  mlusim::harness::Handle handle;
  harness::DeviceProblem<T> device(p);
  const mlusim::perf::PeakMemory peak;
  mlusim::perf::SimTimes sim;
  for (auto _ : state) {
    sim.time([&] {
      if (device.run(handle) != MLUOP_STATUS_SUCCESS) state.SkipWithError(mlusimGetLastError());
    });
  }
  mlusim::perf::set_memory_counters(state, peak);
  std::vector<float> grad_input(p.grad_output.size());
  const double cpu_ms = mlusim::perf::best_wall_ms(5, [&] {
    omp::border_align_backward(s, p.grad_output.data(), p.boxes.data(), p.argmax_idx.data(),
                               grad_input.data());
  });
  const mlusimReport_t report = mlusim::perf::report_with_error_bars([&] {
    device.run(handle);
    return handle.last_op_report();
  });
  mlusim::perf::set_device_counters(state, report);
  state.counters["atomic_elems"] = report.atomic_elements;  // the design's atomic work
  mlusim::perf::set_host_counters(state, sim, cpu_ms);
  state.SetLabel("grad_output " + cases::name(s));
}

template <typename T>
void BM_BorderAlignBackward(benchmark::State &state) {
  const cases::Shape &s = cases::kNetworkCases[state.range(0)];
  run_case<T>(state, s, cases::device_values<T>(cases::random_problem(s, 2024 + state.range(0))));
}

// mlu-ops' in-tree case (docs/ops/border_align_backward.md).
void BM_MluOpsCase(benchmark::State &state) {
  run_case<float>(state, cases::kMluOpsCase, cases::mluops_problem(2024));
}

constexpr int kLastCase = static_cast<int>(std::size(cases::kNetworkCases)) - 1;
BENCHMARK(BM_BorderAlignBackward<float>)->DenseRange(0, kLastCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BorderAlignBackward<_Float16>)
    ->DenseRange(0, kLastCase)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MluOpsCase)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mluop::border_align_backward

BENCHMARK_MAIN();
