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
  // matrix_ops_per_cycle counts two ops per multiply-add of 16-bit operands;
  // float runs at a quarter of it, int8 at twice (docs/devices.md).
  const double half_macs = s.matrix_ops_per_cycle / 2;
  p.matrix_macs_per_cycle[kMatrixInt8] = 2 * half_macs;
  p.matrix_macs_per_cycle[kMatrixInt16] = half_macs;
  p.matrix_macs_per_cycle[kMatrixHalf] = half_macs;
  p.matrix_macs_per_cycle[kMatrixFloat] = half_macs / 4;
  p.gdram_latency = s.gdram_latency_cycles;
  p.atomic_latency = s.atomic_latency_cycles;
  p.onchip_latency = s.onchip_latency_cycles;
  p.vector_latency = s.vector_latency_cycles;
  p.barrier_latency = s.barrier_latency_cycles;
  p.issue_cycles = kIssueCycles;
  return p;
}

}  // namespace mlusim::timing
