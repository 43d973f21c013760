// border_align_backward on the design doc's network cases (3.7): simulated
// device time and efficiencies on the default device, and the host cost of the
// simulation beside the plain OpenMP version on the same data.
#include <benchmark/benchmark.h>

#include "perf/border_align_backward/plain_omp.h"
#include "perf/common/perf_util.h"
#include "tests/border_align_backward/border_align_backward_problem.h"

namespace {

using border_align_backward::testing::DeviceProblem;
using border_align_backward::testing::device_values;
using border_align_backward::testing::Problem;
using border_align_backward::testing::random_problem;
using border_align_backward::testing::Shape;

// grad_output [2, K, 4, C], pool_size 10; boxes are one per pixel (K = H * W),
// so the doc's K = 70 and 950 are the 7 x 10 and 25 x 38 maps.
const Shape kNetworkCases[] = {{2, 7, 10, 256, 10}, {2, 25, 38, 256, 10}, {2, 7, 10, 128, 10}};

template <typename T>
void BM_BorderAlignBackward(benchmark::State &state) {
  const Shape &s = kNetworkCases[state.range(0)];
  const Problem p = device_values<T>(random_problem(s, 2024 + state.range(0)));
  mlusim::harness::Handle handle;
  DeviceProblem<T> device(p);
  double sim_ms = 0;
  for (auto _ : state) {
    sim_ms += mlusim::perf::wall_ms([&] {
      if (device.run(handle) != MLUOP_STATUS_SUCCESS) state.SkipWithError(mlusimGetLastError());
    });
  }
  std::vector<float> grad_input(p.grad_output.size());
  const double cpu_ms = mlusim::perf::best_wall_ms(5, [&] {
    border_align_backward::plain::border_align_backward(s, p.grad_output.data(), p.boxes.data(),
                                                        p.argmax_idx.data(), grad_input.data());
  });
  const mlusimReport_t report = handle.last_op_report();
  mlusim::perf::set_device_counters(state, report);
  state.counters["atomic_elems"] = report.atomic_elements;  // the design's atomic work
  mlusim::perf::set_host_counters(state, sim_ms / state.iterations(), cpu_ms);
  state.SetLabel("grad_output [2," + std::to_string(s.K()) + ",4," + std::to_string(s.C) +
                 "] pool 10");
}

BENCHMARK(BM_BorderAlignBackward<float>)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BorderAlignBackward<_Float16>)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
