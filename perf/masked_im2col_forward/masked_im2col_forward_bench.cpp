// masked_im2col_forward on the design doc's network cases and a larger map:
// simulated device time, IO efficiency (mlu-ops' definition and a window-based
// one), each of the four steps' share of the device time, and the host wall
// time of the simulation next to a plain OpenMP implementation.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/perf_util.h"
#include "mlu_op.h"
#include "ops/masked_im2col_forward/masked_im2col_forward.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_reference.h"
#include "harness/harness.h"
#include "tests/masked_im2col_forward/network_case.h"

namespace {

using mlusim::harness::Handle;

using masked_im2col_testing::NetworkCase;
using masked_im2col_testing::Shape;

// The plain CPU version: one data_col row per iteration, as mmcv's loop.
template <typename T>
void masked_im2col_omp(const T *feature, const Shape &s, const int32_t *h_idx, const int32_t *w_idx,
                       T *data_col) {
  const int64_t rows = int64_t{s.channels} * s.kernel * s.kernel;
#pragma omp parallel for
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t c = row / (s.kernel * s.kernel), i = row / s.kernel % s.kernel,
                  j = row % s.kernel;
    const T *plane = feature + c * s.height * s.width;
    T *out = data_col + row * s.mask_cnt;
    for (int64_t m = 0; m < s.mask_cnt; ++m) {
      const int64_t h = int64_t{h_idx[m]} - s.pad + i, w = int64_t{w_idx[m]} - s.pad + j;
      out[m] = h >= 0 && w >= 0 && h < s.height && w < s.width ? plane[h * s.width + w] : T(0);
    }
  }
}

// Bytes of the feature that the windows cover (each window's valid part).
double window_bytes(const Shape &s, const std::vector<int32_t> &h_idx,
                    const std::vector<int32_t> &w_idx, size_t elem_bytes) {
  double total = 0;
  for (size_t m = 0; m < h_idx.size(); ++m) {
    const int64_t h0 = std::max<int64_t>(0, h_idx[m] - s.pad);
    const int64_t h1 = std::min<int64_t>(s.height, h_idx[m] - s.pad + s.kernel);
    const int64_t w0 = std::max<int64_t>(0, w_idx[m] - s.pad);
    const int64_t w1 = std::min<int64_t>(s.width, w_idx[m] - s.pad + s.kernel);
    if (h1 > h0 && w1 > w0) total += double((h1 - h0) * (w1 - w0)) * s.channels * elem_bytes;
  }
  return total;
}

template <typename T>
void BM_MaskedIm2colForward(benchmark::State &state, Shape s) {
  Handle handle;
  NetworkCase<T> c(handle, s, 42);
  const std::vector<int32_t> &h_idx = c.h_idx, &w_idx = c.w_idx;
  auto run = [&] { return c.run(handle); };

  double sim_ms = 0;
  for (auto _ : state) {
    mluOpStatus_t status;
    sim_ms += mlusim::perf::wall_ms([&] { status = run(); });
    if (status != MLUOP_STATUS_SUCCESS) {
      state.SkipWithError(mlusimGetLastError());
      return;
    }
  }
  const std::vector<T> expected = c.expected();
  if (std::memcmp(c.data_col->download().data(), expected.data(), expected.size() * sizeof(T)))
    state.SkipWithError("data_col differs from the CPU reference");
  const mlusimReport_t report = handle.last_op_report();
  mlusim::perf::set_device_counters(state, report);

  // GDRAM traffic of the four steps against mlu-ops' theory IO.
  state.counters["traffic_x"] = report.gdram_bytes / report.theory_io_bytes;
  // The alternative theory: the windows' valid feature bytes plus data_col.
  const double window_io =
      window_bytes(s, h_idx, w_idx, sizeof(T)) + double(expected.size()) * sizeof(T);
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  state.counters["io_eff_windows"] =
      window_io / (report.device_time_us * 1e-6 * spec.gdram_gbps * 1e9);

  // Each step's share of the device time, from its launch report.
  const mluop::MaskedIm2colForwardProblem problem{.dtype = c.dtype,
                                                  .channels = s.channels,
                                                  .height = s.height,
                                                  .width = s.width,
                                                  .kernel_h = s.kernel,
                                                  .kernel_w = s.kernel,
                                                  .pad_h = s.pad,
                                                  .pad_w = s.pad,
                                                  .mask_cnt = s.mask_cnt,
                                                  .feature = c.feature_dev->get(),
                                                  .mask_h_idx = c.h_dev->get(),
                                                  .mask_w_idx = c.w_dev->get(),
                                                  .workspace = c.workspace->get(),
                                                  .data_col = c.data_col->get()};
  const char *step_names[] = {"", "step1_transpose_pct", "step2_fill_pct", "step3_windows_pct",
                              "step4_permute_pct"};
  mluop::masked_im2col_forward_steps(handle, "bench", problem, [&](int step) {
    mlusimReport_t launch{};
    mlusimGetLastLaunchReport(handle.queue(), &launch);
    state.counters[step_names[step]] = 100 * launch.device_time_us / report.device_time_us;
  });

  std::vector<T> plain(expected.size());
  const double cpu_ms = mlusim::perf::best_wall_ms(
      5, [&] { masked_im2col_omp(c.feature.data(), s, h_idx.data(), w_idx.data(), plain.data()); });
  mlusim::perf::set_host_counters(state, sim_ms / double(state.iterations()), cpu_ms);
}

void BM_Float(benchmark::State &state, Shape s) { BM_MaskedIm2colForward<float>(state, s); }
void BM_Half(benchmark::State &state, Shape s) { BM_MaskedIm2colForward<_Float16>(state, s); }

const Shape kDocKernel3{256, 20, 20, 200, 3, 1};
const Shape kDocKernel1{256, 20, 20, 200, 1, 1};
const Shape kLargeMap{256, 100, 152, 4000, 3, 1};

BENCHMARK_CAPTURE(BM_Float, doc_256x20x20_200m_k3, kDocKernel3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, doc_256x20x20_200m_k3, kDocKernel3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Float, doc_256x20x20_200m_k1, kDocKernel1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, doc_256x20x20_200m_k1, kDocKernel1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Float, map_256x100x152_4000m_k3, kLargeMap)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Half, map_256x100x152_4000m_k3, kLargeMap)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
