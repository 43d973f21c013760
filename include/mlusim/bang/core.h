// One simulated MLU core: its identity in the launch, its on-chip memory, its
// simulated clock and counters. Everything an intrinsic touches on the hot path
// is here and inline; the slow paths (faults, hazards, tracing) are out of line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "mlusim.h"
#include "mlusim/bang/gdram_table.h"

namespace mlusim {

// The core's instruction queues. Async copies run on IO/move while compute goes on.
enum Lane : uint8_t { kIoLane = 0, kMoveLane = 1, kComputeLane = 2, kLaneCount = 3 };

enum class Space : uint8_t { kNram, kSram, kWram, kGdram };
const char *space_name(Space s);

// Thrown by an intrinsic that breaks a device rule; caught by the launch.
struct KernelFault {
  std::string message;
};

struct PendingCopy {  // an async copy not yet fenced by a sync
  uintptr_t dst_lo, dst_hi, src_lo, src_hi;
  Lane lane;
  const char *op;
};

struct TraceEvent {
  const char *op;
  const char *detail;  // direction or dtype, static string
  Lane lane;
  bool async;
  double start, end;  // cycles
  const void *dst;
  const void *src;
  uint64_t size;      // bytes for copies, elements for vector ops
};

// Per-launch cost parameters, derived once from the device spec.
struct CostParams {
  double gdram_bytes_per_cycle;  // this core's share of GDRAM bandwidth
  double onchip_bytes_per_cycle;
  double vector_bytes_per_cycle;
  double gdram_latency, onchip_latency, vector_latency, atomic_latency, barrier_latency;
  uintptr_t nram_align_mask;
  size_t vector_count_align;
  size_t transpose_align;
};

struct LaunchShared;

struct CoreContext {
  // BANG built-in variables of the task this core is running.
  int task_id = 0, task_dim = 1;
  int task_id_x = 0, task_id_y = 0, task_id_z = 0;
  int task_dim_x = 1, task_dim_y = 1, task_dim_z = 1;
  int core_id = 0, cluster_id = 0, core_dim = 1, cluster_dim = 1;
  int physical_core = 0;     // index among the device's cores
  int physical_cluster = 0;  // the cluster that core belongs to
  int core_in_cluster = 0;
  LaunchShared *launch = nullptr;
  const GdramSnapshot *gdram = nullptr;
  CostParams cost{};

  // On-chip memory: declared buffers are bump-allocated from the start of each.
  std::byte *nram = nullptr;
  size_t nram_capacity = 0, nram_declared = 0;
  std::byte *wram = nullptr;
  size_t wram_capacity = 0, wram_declared = 0;
  std::byte *sram = nullptr;  // the cluster's, shared
  size_t sram_capacity = 0, sram_declared = 0;

  // Simulated time in cycles: the instruction stream and each lane's queue.
  double now = 0;
  double lane_free[kLaneCount] = {0, 0, 0};
  double lane_busy[kLaneCount] = {0, 0, 0};

  // Counters for the launch report.
  double bytes_moved[MLUSIM_DIRECTION_COUNT] = {};
  double gdram_traffic = 0;
  double vector_elems_float = 0, vector_elems_half = 0, vector_elems_int = 0;
  double atomic_elems = 0;

  std::vector<PendingCopy> pending;
  bool tracing = false;
  std::vector<TraceEvent> events;

  double finish() const {
    double t = now;
    for (double f : lane_free) t = f > t ? f : t;
    return t;
  }
};

namespace detail {
// initial-exec: kernels inside the shared library reach it with one load
// instead of a __tls_get_addr call per intrinsic.
extern thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec")));

// Integer view of T's bits (bitwise intrinsics, atomics on half).
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                std::conditional_t<sizeof(T) == 2, uint16_t,
                                                   std::conditional_t<sizeof(T) == 4, uint32_t,
                                                                      uint64_t>>>;

[[noreturn]] void fault(const CoreContext &c, const std::string &what);
[[noreturn]] void fault_bounds(const CoreContext &c, const char *op, const char *operand,
                               Space space, const void *p, size_t bytes);
[[noreturn]] void fault_alignment(const CoreContext &c, const char *op, const char *operand,
                                  const void *p, size_t bytes);
void hazard_check(const CoreContext &c, const char *op, uintptr_t lo, uintptr_t hi, bool write);
void record_event(CoreContext &c, const TraceEvent &e);
}  // namespace detail

// The core the calling thread simulates; only valid inside a kernel.
inline CoreContext &this_core() {
  if (detail::tls_core == nullptr) {
    static CoreContext outside;  // lets a stray call fault with a message, not crash
    detail::fault(outside, "device API called outside a kernel launch");
  }
  return *detail::tls_core;
}

// [p, p+bytes) must lie in the declared part of the given on-chip space.
inline void require_onchip(const CoreContext &c, const char *op, const char *operand,
                           Space space, const void *p, size_t bytes) {
  const std::byte *base = space == Space::kNram   ? c.nram
                          : space == Space::kSram ? c.sram
                                                  : c.wram;
  size_t limit = space == Space::kNram   ? c.nram_declared
                 : space == Space::kSram ? c.sram_declared
                                         : c.wram_declared;
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base);
  if (off > limit || bytes > limit - off) detail::fault_bounds(c, op, operand, space, p, bytes);
}

inline void require_gdram(const CoreContext &c, const char *op, const char *operand,
                          const void *p, size_t bytes) {
  if (gdram_find(*c.gdram, p, bytes) == nullptr)
    detail::fault_bounds(c, op, operand, Space::kGdram, p, bytes);
}

inline void require_space(const CoreContext &c, const char *op, const char *operand,
                          Space space, const void *p, size_t bytes) {
  if (space == Space::kGdram)
    require_gdram(c, op, operand, p, bytes);
  else
    require_onchip(c, op, operand, space, p, bytes);
}

// A vector operand: in NRAM, on the alignment boundary, a whole number of granules.
inline void require_vector_operand(const CoreContext &c, const char *op, const char *operand,
                                   const void *p, size_t bytes) {
  require_onchip(c, op, operand, Space::kNram, p, bytes);
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(c.nram);
  if ((off & c.cost.nram_align_mask) != 0 || bytes % c.cost.vector_count_align != 0)
    detail::fault_alignment(c, op, operand, p, bytes);
}

// Reading or writing a range an unfenced async copy still owns is a hazard.
inline void check_read(const CoreContext &c, const char *op, const void *p, size_t bytes) {
  if (!c.pending.empty()) {
    auto lo = reinterpret_cast<uintptr_t>(p);
    detail::hazard_check(c, op, lo, lo + bytes, false);
  }
}
inline void check_write(const CoreContext &c, const char *op, const void *p, size_t bytes) {
  if (!c.pending.empty()) {
    auto lo = reinterpret_cast<uintptr_t>(p);
    detail::hazard_check(c, op, lo, lo + bytes, true);
  }
}

// Advances the core's clock by one instruction on `lane`. A synchronous
// instruction holds the stream until it ends; an async one only queues.
inline void account(CoreContext &c, Lane lane, double cycles, bool async, const char *op,
                    const char *detail_name, const void *dst, const void *src, uint64_t size) {
  double start = c.now > c.lane_free[lane] ? c.now : c.lane_free[lane];
  double end = start + cycles;
  c.lane_free[lane] = end;
  c.lane_busy[lane] += cycles;
  c.now = async ? c.now + 1 : end;
  if (c.tracing)
    detail::record_event(c, TraceEvent{op, detail_name, lane, async, start, end, dst, src, size});
}

// The contracts other parts of the kernel API build on.
namespace detail {

// One operand of a tensor-pipe instruction: [p, p + bytes) in on-chip `space`.
struct TensorOperand {
  const void *p;
  size_t bytes;
  Space space;
};

// Issues one tensor-pipe (matrix/conv) instruction such as __bang_matmul or
// __bang_conv: checks that dst and every source lie in the on-chip space they
// name and that no unfenced async copy owns them, then charges `cycles` on the
// core's tensor pipe (starting once the pipe is free and the earlier
// instructions it depends on through these ranges have finished). The caller
// computes the result right after the call: the next instruction sees it.
void issue_tensor(const char *op, TensorOperand dst, std::initializer_list<TensorOperand> srcs,
                  double cycles);

void scalar_hazard(const CoreContext &c, const void *p, size_t bytes, bool write);

// Scalar kernel code (an NRAM/SRAM/GDRAM subscript) touching [p, p + bytes):
// a hazard when an unfenced async copy still writes that range, or, for a
// write, still reads it. One load and one compare when nothing is in flight;
// a no-op outside a kernel.
inline void check_scalar_access(const void *p, size_t bytes, bool write) {
  const CoreContext *c = tls_core;
  if (c != nullptr && !c->pending.empty()) scalar_hazard(*c, p, bytes, write);
}

}  // namespace detail
}  // namespace mlusim
