// Benchmarks of deform_roi_pool_forward on the design doc's network cases, in
// float and half, and on mlu-ops' in-tree case. Each row reports the ping-pong
// kernel (the API's): simulated device time, IO and compute efficiency, host
// wall time of the simulated call next to the plain OpenMP implementation; and
// the serial variant's device time.
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "harness/deform_roi_pool_forward.h"
#include "harness/harness.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h"
#include "perf/common/perf_util.h"
#include "perf/deform_roi_pool_forward/deform_roi_pool_forward_omp.h"

namespace mluop::deform_roi_pool_forward {
namespace {

using cases::Problem;

// Network problems are large (case 1: 31M input values); build each once.
const Problem &problem(int index, mluOpDataType_t dtype) {
  static std::map<std::pair<int, int>, std::unique_ptr<Problem>> cache;
  auto &slot = cache[{index, static_cast<int>(dtype)}];
  if (!slot)
    slot = std::make_unique<Problem>(cases::network_problem(cases::kNetworkCases[index], dtype));
  return *slot;
}

template <typename T>
void BM_DeformRoiPoolForward(benchmark::State &state, const Problem &p) {
  harness::DeviceProblem<T> device(p);
  mlusim::harness::Handle handle;

  auto call = [&](Pipeline pipeline) {
    if (device.run(handle, pipeline) != MLUOP_STATUS_SUCCESS)
      throw std::runtime_error(std::string("deform_roi_pool_forward failed: ") + mlusimGetLastError());
    return handle.last_op_report();
  };
  const mlusim::perf::PeakMemory peak;
  const double serial_us = call(Pipeline::kSerial).device_time_us;
  mlusim::perf::SimTimes sim;
  mlusimReport_t report{};
  for (auto _ : state) sim.time([&] { report = call(Pipeline::kPingPong); });
  mlusim::perf::set_memory_counters(state, peak);

  const std::vector<T> input(p.input.begin(), p.input.end()), rois(p.rois.begin(), p.rois.end()),
      offset(p.offset.begin(), p.offset.end());
  std::vector<T> output(p.output_count());
  const double cpu_ms = mlusim::perf::best_wall_ms(3, [&] {
    omp::deform_roi_pool_forward(input.data(), rois.data(), offset.data(), output.data(),
                                 p.batches, p.height, p.width, p.channels, p.num_rois,
                                 p.pooled_height, p.pooled_width, p.spatial_scale,
                                 p.sampling_ratio, p.gamma);
  });

  report = mlusim::perf::report_with_error_bars([&] { return call(Pipeline::kPingPong); });
  mlusim::perf::set_device_counters(state, report);
  state.counters["serial_device_us"] = serial_us;
  state.counters["pingpong_gain_x"] = serial_us / report.device_time_us;
  mlusim::perf::set_host_counters(state, sim, cpu_ms);
}

const bool registered = [] {
  for (int i = 0; i < static_cast<int>(std::size(cases::kNetworkCases)); ++i) {
    const std::string name = cases::kNetworkCases[i].name;
    benchmark::RegisterBenchmark(("deform_roi_pool_forward/float/" + name).c_str(),
                                 [i](benchmark::State &state) {
                                   BM_DeformRoiPoolForward<float>(state,
                                                                  problem(i, MLUOP_DTYPE_FLOAT));
                                 })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(i == 0 ? 1 : 10);
    benchmark::RegisterBenchmark(("deform_roi_pool_forward/half/" + name).c_str(),
                                 [i](benchmark::State &state) {
                                   BM_DeformRoiPoolForward<_Float16>(state,
                                                                     problem(i, MLUOP_DTYPE_HALF));
                                 })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(i == 0 ? 1 : 10);
  }
  // mlu-ops' in-tree case (docs/ops/deform_roi_pool_forward.md).
  benchmark::RegisterBenchmark("deform_roi_pool_forward/float/mluops_case0",
                               [](benchmark::State &state) {
                                 static const Problem p = cases::mluops_problem(233);
                                 BM_DeformRoiPoolForward<float>(state, p);
                               })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  return true;
}();

}  // namespace
}  // namespace mluop::deform_roi_pool_forward

BENCHMARK_MAIN();
