#include "runtime/timing/prices.h"

#include <algorithm>
#include <cmath>

namespace mlusim::timing {
namespace {

// The instruction stream issues one instruction per cycle (an estimate:
// docs/cost_model.md).
constexpr double kIssueCycles = 1;

// The lowest share of the rated bandwidth measured on a board: mlu-ops issue
// #24's one-way stream on an MLU290, 460 of 1228.8 GB/s (docs/cost_model.md).
// The slow end of the bar, whichever way a launch's traffic goes.
constexpr double kLowestMeasuredShare = 0.37;

// An estimated time at the end of its range: half when the launch is to be
// short, double when long. An estimated throughput goes the other way.
double time_at(double estimate, Estimates e) {
  return e == Estimates::kLow ? estimate / 2 : e == Estimates::kHigh ? estimate * 2 : estimate;
}
double rate_at(double estimate, Estimates e) {
  return e == Estimates::kLow ? estimate * 2 : e == Estimates::kHigh ? estimate / 2 : estimate;
}

}  // namespace

Prices prices_of(const DeviceSpec &s, Estimates e) {
  Prices p;
  // The rated bandwidth is sourced, the share of it the DRAM sustains a fit
  // on one bandwidth-bound case: the bar's fast end halves its shortfall, its
  // slow end is the lowest share measured on a board.
  const double sustained = e == Estimates::kLow    ? 1 - (1 - s.gdram_efficiency) / 2
                           : e == Estimates::kHigh ? std::min(s.gdram_efficiency, kLowestMeasuredShare)
                                                   : s.gdram_efficiency;
  p.gdram_bytes_per_cycle = s.gdram_gbps * sustained / s.clock_ghz;
  // The board's figures: sourced ones are not varied, the ones no public
  // source gives for this board (its cluster cap, its half and float matrix
  // rates: docs/devices.md) are, as throughputs.
  const EstimatedFigures guessed = estimated_figures(s);
  p.cluster_bytes_per_cycle =
      (guessed.cluster_gbps ? rate_at(s.cluster_gbps, e) : s.cluster_gbps) / s.clock_ghz;
  p.vector_bytes_per_cycle = s.vector_bytes_per_cycle;
  static_assert(kMatrixRates == MLUSIM_MATRIX_CLASSES);
  for (int m = 0; m < kMatrixRates; ++m) {
    const bool guess = guessed.half_float_macs && (m == kMatrixHalf || m == kMatrixFloat);
    p.matrix_macs_per_cycle[m] =
        guess ? rate_at(s.matrix_macs_per_cycle[m], e) : s.matrix_macs_per_cycle[m];
  }
  // Estimates. GDRAM's latencies are memory time: more cycles at a faster clock.
  p.onchip_bytes_per_cycle = rate_at(s.onchip_bytes_per_cycle, e);
  p.sram_bytes_per_cycle = rate_at(s.sram_bytes_per_cycle, e);
  p.gdram_latency = time_at(s.gdram_latency_ns * s.clock_ghz, e);
  p.atomic_latency = time_at(s.atomic_latency_ns * s.clock_ghz, e);
  p.atomic_hold = time_at(s.atomic_hold_ns * s.clock_ghz, e);
  p.onchip_latency = time_at(s.onchip_latency_cycles, e);
  p.vector_latency = time_at(s.vector_latency_cycles, e);
  p.barrier_latency = time_at(s.barrier_latency_cycles, e);
  p.issue_cycles = time_at(kIssueCycles, e);
  p.dispatch_cycles = time_at(s.dispatch_cycles, e);
  p.pipe_queue_depth = static_cast<uint32_t>(rate_at(kPipeQueueDepth, e));
  p.dma_in_flight = static_cast<uint32_t>(std::max(1.0, rate_at(s.dma_requests_in_flight, e)));
  p.gdram_write_extra = time_at(s.gdram_write_extra, e);
  p.gdram_segment_bytes = time_at(s.gdram_segment_bytes, e);
  // Every scalar price is an estimate: the run adds them up at the fitted
  // values, and the ends of the bar take half or double of the sum.
  p.scalar_scale = time_at(1, e);
  return p;
}

ScalarPrices scalar_prices_of(const DeviceSpec &s) {
  const auto cycles = [](double c) { return static_cast<uint32_t>(std::lround(c)); };
  return ScalarPrices{cycles(s.scalar_op_cycles),     cycles(s.scalar_divide_cycles),
                      cycles(s.scalar_block_cycles),  cycles(s.scalar_onchip_cycles),
                      cycles(s.scalar_sram_cycles),   cycles(s.scalar_gdram_load_ns * s.clock_ghz),
                      cycles(s.scalar_gdram_store_cycles)};
}

double launch_overhead_us(const DeviceSpec &s, Estimates e) {
  return time_at(s.launch_overhead_us, e);
}

}  // namespace mlusim::timing
