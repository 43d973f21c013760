// masked_im2col_forward on the design doc's network cases and a larger map:
// simulated device time, IO efficiency (mlu-ops' definition and a window-based
// one), each of the four steps' share of the device time, and the host wall
// time of the simulation next to a plain OpenMP implementation.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "harness/harness.h"
#include "harness/masked_im2col_forward.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"
#include "perf/common/perf_util.h"
#include "perf/masked_im2col_forward/masked_im2col_forward_omp.h"

namespace mluop::masked_im2col_forward {
namespace {

// Bytes of the feature that the windows cover (each window's valid part).
double window_bytes(const cases::Problem &p, size_t elem_bytes) {
  double total = 0;
  for (int m = 0; m < p.mask_cnt(); ++m) {
    const int64_t h0 = std::max<int64_t>(0, p.h_idx[m] - p.pad_h);
    const int64_t h1 = std::min<int64_t>(p.height, p.h_idx[m] - p.pad_h + p.kernel_h);
    const int64_t w0 = std::max<int64_t>(0, p.w_idx[m] - p.pad_w);
    const int64_t w1 = std::min<int64_t>(p.width, p.w_idx[m] - p.pad_w + p.kernel_w);
    if (h1 > h0 && w1 > w0) total += double((h1 - h0) * (w1 - w0)) * p.channels * elem_bytes;
  }
  return total;
}

template <typename T>
void BM_MaskedIm2colForward(benchmark::State &state, const cases::Problem &p) {
  mlusim::harness::Handle handle;
  harness::DeviceProblem<T> device(handle, p);
  auto run = [&] { return device.run(handle); };

  const mlusim::perf::PeakMemory peak;
  mlusim::perf::SimTimes sim;
  for (auto _ : state) {
    mluOpStatus_t status;
    sim.time([&] { status = run(); });
    if (status != MLUOP_STATUS_SUCCESS) {
      state.SkipWithError(mlusimGetLastError());
      return;
    }
  }
  mlusim::perf::set_memory_counters(state, peak);
  const std::vector<T> expected = p.expected<T>();
  if (std::memcmp(device.data_col().data(), expected.data(), expected.size() * sizeof(T)))
    state.SkipWithError("data_col differs from the CPU reference");
  const mlusimReport_t report = mlusim::perf::report_with_error_bars([&] {
    run();
    return handle.last_op_report();
  });
  mlusim::perf::set_device_counters(state, report);

  // GDRAM traffic of the four steps against mlu-ops' theory IO.
  state.counters["traffic_x"] = report.gdram_bytes / report.theory_io_bytes;
  // The alternative theory: the windows' valid feature bytes plus data_col.
  const double window_io = window_bytes(p, sizeof(T)) + double(expected.size()) * sizeof(T);
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  state.counters["io_eff_windows"] =
      window_io / (report.device_time_us * 1e-6 * spec.gdram_gbps * 1e9);

  // Each step's share of the device time, from its launch report.
  const char *step_names[] = {"", "step1_transpose_pct", "step2_fill_pct", "step3_windows_pct",
                              "step4_permute_pct"};
  run_steps(handle, "bench", device.call(), [&](int step) {
    mlusimReport_t launch{};
    mlusimGetLastLaunchReport(handle.queue(), &launch);
    state.counters[step_names[step]] = 100 * launch.device_time_us / report.device_time_us;
  });

  const std::vector<T> feature = p.feature_as<T>();
  std::vector<T> plain(expected.size());
  const double cpu_ms = mlusim::perf::best_wall_ms(
      5, [&] { omp::masked_im2col_forward(feature.data(), p, plain.data()); });
  mlusim::perf::set_host_counters(state, sim, cpu_ms);
}

void BM_Float(benchmark::State &state, cases::NetworkCase c) {
  BM_MaskedIm2colForward<float>(state, cases::network_problem(c, 42));
}
void BM_Half(benchmark::State &state, cases::NetworkCase c) {
  BM_MaskedIm2colForward<_Float16>(state, cases::network_problem(c, 42));
}
// mlu-ops' in-tree cases, in their own dtype (docs/ops/masked_im2col_forward.md).
void BM_MluOps(benchmark::State &state, cases::MluOpsCase c) {
  const cases::Problem p = cases::mluops_problem(c, 23);
  if (c.half)
    BM_MaskedIm2colForward<_Float16>(state, p);
  else
    BM_MaskedIm2colForward<float>(state, p);
}

using cases::kDocKernel1, cases::kDocKernel3, cases::kLargeMap;
BENCHMARK_CAPTURE(BM_Float, doc_256x20x20_200m_k3, kDocKernel3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, doc_256x20x20_200m_k3, kDocKernel3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Float, doc_256x20x20_200m_k1, kDocKernel1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, doc_256x20x20_200m_k1, kDocKernel1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Float, map_256x100x152_4000m_k3, kLargeMap)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, map_256x100x152_4000m_k3, kLargeMap)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MluOps, mluops_case_0_float_k4, cases::kMluOpsCases[0]);
BENCHMARK_CAPTURE(BM_MluOps, mluops_case_1_float_k14, cases::kMluOpsCases[1]);
BENCHMARK_CAPTURE(BM_MluOps, mluops_case_2_half_k4, cases::kMluOpsCases[2]);

}  // namespace
}  // namespace mluop::masked_im2col_forward

BENCHMARK_MAIN();
