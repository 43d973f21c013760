// Benchmark counters every operator reports: the simulated device's time and
// efficiencies, and the host cost of simulating next to a plain OpenMP CPU
// implementation of the same operator on the same data.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <cnrt.h>

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

// The report of one more call, made under MLUSIM_TIMING=bars so that the
// device counters carry the error bar; outside the measured loop, whose host
// cost is that of the environment's mode ("on" unless MLUSIM_TIMING says).
template <typename Call>
mlusimReport_t report_with_error_bars(Call &&call) {
  mlusimSetTiming("bars");
  const mlusimReport_t report = call();
  mlusimSetTiming(nullptr);
  return report;
}

// The error bar's ends only when the run computed them (MLUSIM_TIMING=bars).
inline void set_device_counters(benchmark::State &state, const mlusimReport_t &r) {
  state.counters["device_us"] = r.device_time_us;
  if (r.error_bars != 0) {
    state.counters["device_us_low"] = r.device_time_us_low;
    state.counters["device_us_high"] = r.device_time_us_high;
  }
  state.counters["io_eff"] = r.io_efficiency;
  state.counters["compute_eff"] = r.compute_efficiency;
}

// The host wall times of a benchmark's simulated calls, one per turn of its
// loop. The ratio to the plain version takes their best, as best_wall_ms()
// gives the plain version's: the same statistic on both sides, so that a run
// the host slowed (a neighbour on a shared machine, a burst of page faults)
// weighs on neither. Their mean is reported beside it.
class SimTimes {
 public:
  template <typename F>
  void time(F &&f) {
    const double ms = wall_ms(std::forward<F>(f));
    best_ = std::min(best_, ms);
    sum_ += ms;
    ++runs_;
  }
  double best() const { return runs_ > 0 ? best_ : 0; }
  double mean() const { return runs_ > 0 ? sum_ / runs_ : 0; }

 private:
  double best_ = 1e300, sum_ = 0;
  int runs_ = 0;
};

// host_sim_ms: the best host wall time of one simulated call (host_sim_mean_ms
// their mean); host_cpu_omp_ms: the plain OpenMP version's best.
inline void set_host_counters(benchmark::State &state, const SimTimes &sim, double cpu_ms) {
  state.counters["host_sim_ms"] = sim.best();
  state.counters["host_sim_mean_ms"] = sim.mean();
  state.counters["host_cpu_omp_ms"] = cpu_ms;
  state.counters["host_overhead_x"] = sim.best() / cpu_ms;
}

// One line of /proc/self/status ("VmRSS", "VmHWM"), in MiB.
inline double status_mib(const std::string &field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) {
      double kib = 0;
      std::istringstream(line.substr(field.size() + 1)) >> kib;
      return kib / 1024;
    }
  return 0;
}

// The host memory the simulated calls of a benchmark hold at their peak,
// beyond what the process held before them: the resident set's high-water
// mark (reset when the watch starts: Linux takes "5" in clear_refs for that)
// above its size then. Memory the simulator pooled during earlier benchmarks
// of the same process is not counted again: a case measured alone is exact.
class PeakMemory {
 public:
  PeakMemory() {
    if (std::FILE *f = std::fopen("/proc/self/clear_refs", "w")) {
      std::fputs("5", f);
      std::fclose(f);
    }
    before_mib_ = status_mib("VmRSS");
  }
  double growth_mib() const { return std::max(0.0, status_mib("VmHWM") - before_mib_); }

 private:
  double before_mib_ = 0;
};

// host_peak_mib: the growth above; host_peak_x: that plus the GDRAM the
// tensors occupy, over those bytes plus the device's on-chip memory (issue
// 19's target: at most 1.3).
inline void set_memory_counters(benchmark::State &state, const PeakMemory &peak) {
  size_t free = 0, total = 0;
  cnrtMemGetInfo(&free, &total);
  mlusimDeviceSpec_t spec{};
  mlusimGetDeviceSpec(&spec);
  const double cores = double(spec.clusters) * spec.cores_per_cluster;
  const double onchip_bytes =
      cores * double(spec.nram_bytes + spec.wram_bytes) + double(spec.clusters) * spec.sram_bytes;
  const double onchip_mib = onchip_bytes / (1 << 20);
  const double tensors_mib = double(total - free) / (1 << 20);
  state.counters["host_peak_mib"] = peak.growth_mib();
  state.counters["host_peak_x"] = (peak.growth_mib() + tensors_mib) / (tensors_mib + onchip_mib);
}

}  // namespace mlusim::perf
