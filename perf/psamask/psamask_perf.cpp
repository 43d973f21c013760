// psamask on its network cases (ops/psamask/psamask_cases.h): the simulated
// device's time and efficiencies, and the host cost of the simulated call next
// to a plain OpenMP version.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "harness/harness.h"
#include "harness/psamask.h"
#include "ops/psamask/psamask_cases.h"
#include "perf/common/perf_util.h"
#include "perf/psamask/psamask_omp.h"

namespace mluop::psamask {
namespace {

void BM_Psamask(benchmark::State &state, bool backward, int psa_type, cases::Dims d) {
  const cases::Problem p = cases::random_problem(backward, psa_type, d, 5);
  harness::DeviceProblem device(p);
  mlusim::harness::Handle handle;

  auto call = [&] { return device.run(handle); };
  const mlusim::perf::PeakMemory peak;
  // Warm-up, as mlu-ops' gtest does: the first call also pays for the host
  // faulting in the fresh output pages, which the plain version's vector has done.
  if (mluOpStatus_t status = call(); status != MLUOP_STATUS_SUCCESS) {
    state.SkipWithError(mluOpGetErrorString(status));
    return;
  }
  mlusim::perf::SimTimes sim;
  for (auto _ : state) sim.time(call);
  mlusim::perf::set_memory_counters(state, peak);
  mlusim::perf::set_device_counters(state, mlusim::perf::report_with_error_bars([&] {
                                      call();
                                      return handle.last_op_report();
                                    }));

  std::vector<float> plain(p.output_elements());
  const double cpu_ms = mlusim::perf::best_wall_ms(5, [&] {
    if (backward)
      omp::backward(psa_type, p.input.data(), plain.data(), d);
    else
      omp::forward(psa_type, p.input.data(), plain.data(), d);
  });
  mlusim::perf::set_host_counters(state, sim, cpu_ms);
  state.counters["same_as_omp"] = device.output() == plain ? 1 : 0;  // a sanity check, not a test
}

const int kRegistered = [] {
  for (const cases::NetworkCase &c : cases::kNetworkCases) {
    for (int type : {0, 1}) {
      const std::string name = std::string(c.name) + (type == 0 ? "/COLLECT" : "/DISTRIBUTE");
      benchmark::RegisterBenchmark(name.c_str(), BM_Psamask, c.backward, type, c.dims)
          ->Iterations(c.iterations)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return 0;
}();

}  // namespace
}  // namespace mluop::psamask

BENCHMARK_MAIN();
