// The design doc's network cases 1-10 (section 3.6) in float and half: the
// simulated device time, IO and compute efficiency on the default device, and
// the host wall time of the simulated call next to a plain OpenMP CPU
// implementation on the same data. Each case is checked once against the CPU
// reference before it is timed.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "common/perf_util.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_reference.h"
#include "runtime/device_spec.h"
#include "harness/harness.h"

namespace {

using namespace mlusim::harness;
namespace tib = three_interpolate_backward;

struct Case {
  const char *name;
  int b, c, n, m;
};
// grad_output [b, c, n], grad_features [b, c, m].
constexpr Case kCases[] = {
    {"case1", 16, 512, 64, 16},     {"case2", 16, 256, 256, 64}, {"case3", 16, 256, 1024, 256},
    {"case4", 16, 128, 4096, 1024}, {"case5", 16, 16, 64, 512},  {"case6", 16, 64, 256, 256},
    {"case7", 16, 1024, 4096, 128}, {"case8", 16, 1, 128, 1024}, {"case9", 16, 128, 512, 256},
    {"case10", 16, 512, 2048, 128},
};

template <typename T>
constexpr mluOpDataType_t kDtype = std::is_same_v<T, float> ? MLUOP_DTYPE_FLOAT : MLUOP_DTYPE_HALF;
template <typename T>
constexpr double kThreshold = std::is_same_v<T, float> ? 1e-5 : 3e-3;

// The plain OpenMP version: one (batch, channel) row per iteration, scattered
// into a float accumulator of M points.
template <typename T>
void plain_omp(const std::vector<T> &grad_output, const std::vector<int32_t> &indices,
               const std::vector<T> &weights, std::vector<T> &grad_features, const Case &k) {
#pragma omp parallel
  {
    std::vector<float> acc(k.m);
#pragma omp for schedule(static)
    for (int row = 0; row < k.b * k.c; ++row) {
      const int batch = row / k.c;
      const T *in = grad_output.data() + size_t(row) * k.n;
      const int32_t *idx = indices.data() + size_t(batch) * k.n * 3;
      const T *w = weights.data() + size_t(batch) * k.n * 3;
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int p = 0; p < k.n; ++p) {
        const float g = static_cast<float>(in[p]);
        for (int j = 0; j < 3; ++j) {
          const int32_t i = idx[p * 3 + j];
          if (i >= 0 && i < k.m) acc[i] += g * static_cast<float>(w[p * 3 + j]);
        }
      }
      T *out = grad_features.data() + size_t(row) * k.m;
      for (int i = 0; i < k.m; ++i) out[i] = static_cast<T>(acc[i]);
    }
  }
}

template <typename T>
void run_case(benchmark::State &state, const Case &k) {
  Random rng(static_cast<uint32_t>(k.b * 131 + k.c * 7 + k.n + k.m));
  auto values = [&rng](size_t count, float lo, float hi) {
    const std::vector<float> v = rng.floats(count, lo, hi);
    return std::vector<T>(v.begin(), v.end());
  };
  const std::vector<T> grad_output = values(size_t(k.b) * k.c * k.n, -1.0f, 1.0f);
  const std::vector<T> weights = values(size_t(k.b) * k.n * 3, 0.0f, 1.0f);
  const std::vector<int32_t> indices = rng.ints(size_t(k.b) * k.n * 3, 0, k.m - 1);

  Handle handle;
  TensorDesc grad_output_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {k.b, k.c, k.n});
  TensorDesc indices_desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {k.b, k.n, 3});
  TensorDesc weights_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {k.b, k.n, 3});
  TensorDesc grad_features_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {k.b, k.c, k.m});
  DeviceBuffer<T> d_grad_output(grad_output), d_weights(weights);
  DeviceBuffer<int32_t> d_indices(indices);
  DeviceBuffer<T> d_grad_features(size_t(k.b) * k.c * k.m);
  auto simulate = [&] {
    return mluOpThreeInterpolateBackward(
        handle, grad_output_desc, d_grad_output.get(), indices_desc, d_indices.get(), weights_desc,
        d_weights.get(), grad_features_desc, d_grad_features.get());
  };

  if (simulate() != MLUOP_STATUS_SUCCESS) {
    state.SkipWithError(mlusimGetLastError());
    return;
  }
  const Diffs d = compare(to_double(d_grad_features.download()),
                          tib::reference(grad_output, indices, weights, k.b, k.c, k.n, k.m),
                          diff3_eps(kDtype<T>));
  if (!(d.diff1 <= kThreshold<T> && d.diff2 <= kThreshold<T>)) {
    state.SkipWithError(
        ("accuracy: diff1 " + std::to_string(d.diff1) + " diff2 " + std::to_string(d.diff2))
            .c_str());
    return;
  }

  double sim_ms = 0;
  for (auto _ : state) sim_ms += mlusim::perf::wall_ms(simulate);
  sim_ms /= static_cast<double>(state.iterations());
  std::vector<T> plain_out(size_t(k.b) * k.c * k.m);
  // Best of several runs: small cases are at the mercy of thread wake-ups on a shared host.
  const int reps = grad_output.size() > (size_t{1} << 24) ? 3 : 10;
  const double cpu_ms = mlusim::perf::best_wall_ms(
      reps, [&] { plain_omp(grad_output, indices, weights, plain_out, k); });

  const mlusimReport_t report = handle.last_op_report();
  mlusim::perf::set_device_counters(state, report);
  mlusim::perf::set_host_counters(state, sim_ms, cpu_ms);
  state.counters["diff1"] = d.diff1;
  state.counters["diff2"] = d.diff2;
  // Why the time is what it is: the busiest core's IO (+ on-chip move) and
  // vector time, which the doc's unpipelined kernel adds up, and the tiling.
  state.counters["core_io_us"] =
      *std::max_element(report.core_io_busy_us, report.core_io_busy_us + report.cores);
  state.counters["core_compute_us"] =
      *std::max_element(report.core_compute_busy_us, report.core_compute_busy_us + report.cores);
  const tib::Shape shape{k.b, k.c, k.n, k.m};
  const tib::Tiles t = tib::choose_tiles<T>(
      shape, static_cast<int64_t>(mlusim::nram_usable(mlusim::current_device())));
  state.SetLabel("No=" + std::to_string(t.n) + " Co=" + std::to_string(t.c) + " Mo=" +
                 std::to_string(t.m) + " tasks=" + std::to_string(tib::task_count(shape, t)));
}

void register_cases() {
  for (const Case &k : kCases) {
    const std::string shape = "/[" + std::to_string(k.b) + "," + std::to_string(k.c) + "," +
                              std::to_string(k.n) + "]->M" + std::to_string(k.m);
    benchmark::RegisterBenchmark((std::string(k.name) + shape + "/float").c_str(),
                                 [k](benchmark::State &s) { run_case<float>(s, k); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string(k.name) + shape + "/half").c_str(),
                                 [k](benchmark::State &s) { run_case<_Float16>(s, k); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char **argv) {
  register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
