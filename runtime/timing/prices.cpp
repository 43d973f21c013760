#include "runtime/timing/prices.h"

namespace mlusim::timing {
namespace {

// The instruction stream issues one instruction per cycle (an estimate:
// docs/cost_model.md).
constexpr double kIssueCycles = 1;

}  // namespace

Prices prices_of(const DeviceSpec &s) {
  Prices p;
  p.gdram_bytes_per_cycle = s.gdram_gbps / s.clock_ghz;
  p.cluster_bytes_per_cycle = s.cluster_gbps / s.clock_ghz;
  p.onchip_bytes_per_cycle = s.onchip_bytes_per_cycle;
  p.vector_bytes_per_cycle = s.vector_bytes_per_cycle;
  static_assert(kMatrixRates == MLUSIM_MATRIX_CLASSES);
  for (int m = 0; m < kMatrixRates; ++m) p.matrix_macs_per_cycle[m] = s.matrix_macs_per_cycle[m];
  // GDRAM's latencies are memory time: more cycles at a faster clock.
  p.gdram_latency = s.gdram_latency_ns * s.clock_ghz;
  p.atomic_latency = s.atomic_latency_ns * s.clock_ghz;
  p.onchip_latency = s.onchip_latency_cycles;
  p.vector_latency = s.vector_latency_cycles;
  p.barrier_latency = s.barrier_latency_cycles;
  p.issue_cycles = kIssueCycles;
  return p;
}

}  // namespace mlusim::timing
