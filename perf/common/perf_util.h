// Benchmark counters every operator reports: the simulated device's time and
// efficiencies, and the host cost of simulating next to a plain OpenMP CPU
// implementation of the same operator on the same data.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "mlusim.h"

namespace mlusim::perf {

template <typename F>
double wall_ms(F &&f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Best of `reps` runs: the plain implementation's wall time, untimed by the framework.
template <typename F>
double best_wall_ms(int reps, F &&f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) best = std::min(best, wall_ms(f));
  return best;
}

inline void set_device_counters(benchmark::State &state, const mlusimReport_t &r) {
  state.counters["device_us"] = r.device_time_us;
  state.counters["device_us_low"] = r.device_time_us_low;
  state.counters["device_us_high"] = r.device_time_us_high;
  state.counters["io_eff"] = r.io_efficiency;
  state.counters["compute_eff"] = r.compute_efficiency;
}

// sim_ms: mean host wall time of one simulated call; cpu_ms: the plain OpenMP version.
inline void set_host_counters(benchmark::State &state, double sim_ms, double cpu_ms) {
  state.counters["host_sim_ms"] = sim_ms;
  state.counters["host_cpu_omp_ms"] = cpu_ms;
  state.counters["host_overhead_x"] = sim_ms / cpu_ms;
}

}  // namespace mlusim::perf
