// One simulated MLU core: its identity in the launch, its on-chip memory, its
// simulated clock and counters. Everything an intrinsic touches on the hot path
// is here and inline; the slow paths (faults, hazards, tracing) are out of line.
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "mlusim.h"
#include "mlusim/bang/detail/gdram_table.h"

namespace mlusim {

// The pipes of an MLU core (guide 3.3.3). Each runs its instructions in order;
// different pipes run in parallel. Scalar code is not costed, so it has no pipe
// here (docs/cost_model.md).
enum Pipe : uint8_t {
  kIoPipe = 0,      // copies touching GDRAM (and SRAM<->GDRAM), atomics
  kMovePipe = 1,    // on-chip copies: NRAM/SRAM/WRAM
  kVectorPipe = 2,  // vector intrinsics (__bang_add, __bang_transpose, ...)
  kTensorPipe = 3,  // matrix/conv intrinsics (detail::issue_tensor)
  kPipeCount = 4,
};
// Trace events of the instruction stream itself (fences, barriers) use this lane.
constexpr uint8_t kStreamLane = kPipeCount;
const char *pipe_name(uint8_t pipe);

enum class Space : uint8_t { kNram, kSram, kWram, kGdram, kLdram };
const char *space_name(Space s);

// Thrown by an intrinsic that breaks a device rule; caught by the launch.
struct KernelFault {
  std::string message;
};

// `count` runs of `bytes` bytes, each `stride` bytes after the previous one
// (a strided copy's side; count 1 for a plain range).
struct Segments {
  uintptr_t lo;
  size_t bytes, stride, count;
  uintptr_t hi() const { return lo + (count - 1) * stride + bytes; }
};

// An async copy issued but not yet retired by a fence: its data lands then.
struct PendingCopy {
  Segments dst, src;
  Pipe pipe;
  const char *op;  // "__memcpy_async GDRAM2NRAM"
  uint64_t seq;    // its instruction number on this core
};

// A synchronous instruction that may still be running (in simulated time):
// later instructions on other pipes that touch its ranges wait for its end.
struct InFlight {
  uintptr_t w_lo, w_hi, r0_lo, r0_hi, r1_lo, r1_hi;
  double end;
};

// One pipe's synchronous instructions still running, oldest first. A pipe runs
// in order, so their ends increase and the oldest is the first to retire.
struct PipeQueue {
  static constexpr unsigned kDepth = 16;  // in flight per pipe before the stream stalls
  InFlight entries[kDepth];
  unsigned head = 0, count = 0;
  const InFlight &at(unsigned i) const { return entries[(head + i) % kDepth]; }
  const InFlight &oldest() const { return entries[head]; }
  void pop() {
    head = (head + 1) % kDepth;
    --count;
  }
  void push(const InFlight &f) {
    entries[(head + count) % kDepth] = f;
    ++count;
  }
};

// The memory one instruction writes and reads (up to two ranges, empty when lo == hi).
struct Access {
  uintptr_t w_lo = 0, w_hi = 0, r0_lo = 0, r0_hi = 0, r1_lo = 0, r1_hi = 0;
};

struct TraceEvent {
  const char *op;
  const char *detail;  // direction or dtype, static string
  uint8_t lane;        // a Pipe, or kStreamLane for fences and barriers
  bool async;
  double issue;        // when the stream issued it
  double ready;        // when its pipe was free (start > ready: it waited on a dependency)
  double start, end;   // cycles
  const void *dst;
  const void *src;
  uint64_t size;       // bytes for copies, elements for vector ops
};

// Per-launch cost parameters, derived once from the device spec.
struct CostParams {
  double gdram_bytes_per_cycle;  // this core's share of GDRAM bandwidth
  double onchip_bytes_per_cycle;
  double vector_bytes_per_cycle;
  double gdram_latency, onchip_latency, vector_latency, atomic_latency, barrier_latency;
  double issue_cycles;  // the stream's cost to issue one instruction
  uintptr_t nram_align_mask;
  size_t vector_count_align;
  size_t transpose_align;
};

class Scheduler;
class OnchipLayout;
struct SharedAccessLog;

// What the cores of one launch share.
struct LaunchShared {
  const char *kernel = "";
  bool is_union = false;
  Scheduler *scheduler = nullptr;
  OnchipLayout *layout = nullptr;  // the kernel's declared on-chip variables
};

// The on-chip variables a .mlu kernel declared in one space, as one launch
// lays them out for all its cores (runtime/onchip_layout.cpp): for each 64-byte
// granule, the offset where the variable holding it ends (0: none does). An
// operand is valid when it ends at or before the end recorded for its first
// granule, so one lookup catches both a run past the declared memory and a run
// from one array into the next.
struct DeclaredEnds {
  static constexpr unsigned kGranuleShift = 6;
  const uint32_t *end = nullptr;
  size_t granules = 0;  // 0 where the core has no such memory (a memory core's NRAM, WRAM)
};

// The coreId a memory core sees (mlu-ops kernels test `coreId == 0x80`).
constexpr int kMpuCoreId = 0x80;

struct CoreContext {
  // BANG built-in variables of the task this core is running.
  int task_id = 0, task_dim = 1;
  int task_id_x = 0, task_id_y = 0, task_id_z = 0;
  int task_dim_x = 1, task_dim_y = 1, task_dim_z = 1;
  int core_id = 0, cluster_id = 0, core_dim = 1, cluster_dim = 1;
  bool is_mpu = false;       // the cluster's memory core (UNION launches only)
  int physical_core = 0;     // index among the launch's core contexts
  int physical_cluster = 0;  // the cluster that core belongs to
  int core_in_cluster = 0;   // 0..3, or cores_per_cluster for the memory core
  LaunchShared *launch = nullptr;
  const GdramSnapshot *gdram = nullptr;
  CostParams cost{};

  // On-chip memory (capacity: what kernels may declare). A memory core has no
  // NRAM or WRAM (null, capacity 0).
  std::byte *nram = nullptr;
  size_t nram_capacity = 0;
  std::byte *wram = nullptr;
  size_t wram_capacity = 0;
  std::byte *sram = nullptr;  // the cluster's, shared
  size_t sram_capacity = 0;
  std::byte *ldram = nullptr;  // per-core local DRAM of __ldram__ variables, mapped on first use
  // The kernel's declared variables in NRAM, SRAM and WRAM (indexed by Space).
  DeclaredEnds declared[3];
  // The run of a launch this core is in (runtime/launch.h), read on the hot
  // path of every declared on-chip variable's use.
  uint64_t launch_serial = 0;
  const char *where = nullptr;  // .mlu line of the running intrinsic, if known
  SharedAccessLog *access_log = nullptr;  // the race check's, null when it is off

  // Simulated time in cycles: where the instruction stream is (`now`), when
  // each pipe is free, and the synchronous instructions still running.
  double now = 0;
  double pipe_free[kPipeCount] = {};
  double pipe_busy[kPipeCount] = {};
  uint64_t issued = 0;  // instructions issued (names them in hazard messages)
  PipeQueue inflight[kPipeCount];
  unsigned inflight_pipes = 0;  // bit p: pipe p has instructions in flight

  // Counters for the launch report.
  double bytes_moved[MLUSIM_DIRECTION_COUNT] = {};
  double gdram_traffic = 0;
  double vector_elems_float = 0, vector_elems_half = 0, vector_elems_int = 0;
  double atomic_elems = 0;

  std::vector<PendingCopy> pending;  // in issue order
  // The last intrinsic issued, for the watchdog's report (read by its thread).
  std::atomic<const char *> last_op{nullptr};
  bool tracing = false;
  std::vector<TraceEvent> events;

  // When the last pipe drains.
  double finish() const {
    double t = now;
    for (double f : pipe_free) t = f > t ? f : t;
    return t;
  }
};

namespace detail {
// initial-exec: kernels inside the shared library reach it with one load
// instead of a __tls_get_addr call per intrinsic; constinit: programs outside
// it need no call of a thread-local initialisation wrapper either.
extern constinit thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec")));

// Integer view of T's bits (bitwise intrinsics, atomics on half).
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                std::conditional_t<sizeof(T) == 2, uint16_t,
                                                   std::conditional_t<sizeof(T) == 4, uint32_t,
                                                                      uint64_t>>>;

// "cluster 2 core 1", "cluster 2 memory core".
std::string core_name(const CoreContext &c);
[[noreturn]] void fault(const CoreContext &c, const std::string &what);
[[noreturn]] void fault_bounds(const CoreContext &c, const char *op, const char *operand,
                               Space space, const void *p, size_t bytes);
// An on-chip operand the granule lookup did not pass: an empty one inside the
// space is fine; otherwise a fault saying where it is and what it runs into.
void check_onchip_slowly(const CoreContext &c, const char *op, const char *operand, Space space,
                         const void *p, size_t bytes);
// An operand that leaves the declared variable it starts in (runtime/onchip_layout.cpp).
[[noreturn]] void fault_crossing(const CoreContext &c, const char *op, const char *operand,
                                 Space space, const void *p, size_t bytes);
[[noreturn]] void fault_alignment(const CoreContext &c, const char *op, const char *operand,
                                  const void *p, size_t bytes);
// Faults when `range` (read, or written if `write`) meets an unfenced async
// copy of another pipe than `own`: the copy's destination, or for a write its source.
void hazard_check(const CoreContext &c, const char *op, const Segments &range, bool write,
                  Pipe own);
void record_event(CoreContext &c, const TraceEvent &e);
void append_shared_access(CoreContext &c, Space space, const Segments &range, bool write,
                          bool atomic, const char *op);

// An intrinsic's access to memory other cores share (GDRAM, and in UNION
// launches the cluster's SRAM), for the race check (runtime/race_check.h).
inline void log_shared(CoreContext &c, Space space, const Segments &range, bool write,
                       bool atomic, const char *op) {
  if (c.access_log != nullptr) append_shared_access(c, space, range, write, atomic, op);
}
}  // namespace detail

// The core the calling thread simulates; only valid inside a kernel.
inline CoreContext &this_core() {
  if (detail::tls_core == nullptr) {
    static CoreContext outside;  // lets a stray call fault with a message, not crash
    detail::fault(outside, "device API called outside a kernel launch");
  }
  return *detail::tls_core;
}

inline std::byte *onchip_base(const CoreContext &c, Space space) {
  return space == Space::kNram ? c.nram : space == Space::kSram ? c.sram : c.wram;
}

// [p, p+bytes) must lie inside one variable the kernel declared in the given
// on-chip space (NRAM, SRAM or WRAM): a granule lookup and two compares.
inline void require_onchip(const CoreContext &c, const char *op, const char *operand,
                           Space space, const void *p, size_t bytes) {
  const DeclaredEnds &d = c.declared[static_cast<int>(space)];
  const uintptr_t off =
      reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(onchip_base(c, space));
  const size_t granule = off >> DeclaredEnds::kGranuleShift;
  if (granule >= d.granules) return detail::check_onchip_slowly(c, op, operand, space, p, bytes);
  const size_t end = __atomic_load_n(&d.end[granule], __ATOMIC_RELAXED);
  if (bytes > end || off + bytes > end)
    detail::check_onchip_slowly(c, op, operand, space, p, bytes);
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

// Reading or writing a range an unfenced async copy still owns is a hazard
// when the access comes from another pipe than the copy's (`own` is the
// accessing copy's DMA pipe, or kPipeCount for any other instruction).
inline void check_read(const CoreContext &c, const char *op, const void *p, size_t bytes,
                       Pipe own = kPipeCount) {
  if (!c.pending.empty())
    detail::hazard_check(c, op, Segments{reinterpret_cast<uintptr_t>(p), bytes, bytes, 1}, false,
                         own);
}
inline void check_write(const CoreContext &c, const char *op, const void *p, size_t bytes,
                        Pipe own = kPipeCount) {
  if (!c.pending.empty())
    detail::hazard_check(c, op, Segments{reinterpret_cast<uintptr_t>(p), bytes, bytes, 1}, true,
                         own);
}

inline bool overlaps(uintptr_t a_lo, uintptr_t a_hi, uintptr_t b_lo, uintptr_t b_hi) {
  return a_lo < b_hi && b_lo < a_hi;
}

inline bool depends_on(const Access &a, const InFlight &f) {
  return overlaps(a.r0_lo, a.r0_hi, f.w_lo, f.w_hi) || overlaps(a.r1_lo, a.r1_hi, f.w_lo, f.w_hi) ||
         overlaps(a.w_lo, a.w_hi, f.w_lo, f.w_hi) || overlaps(a.w_lo, a.w_hi, f.r0_lo, f.r0_hi) ||
         overlaps(a.w_lo, a.w_hi, f.r1_lo, f.r1_hi);
}

// When every earlier synchronous instruction on another pipe that `a` depends
// on has finished: RAW (it reads what they write), WAR (it writes what they
// read), WAW. Those on its own pipe end before it starts anyway.
inline double dependencies_done(const CoreContext &c, Pipe pipe, const Access &a) {
  double t = 0;
  for (unsigned others = c.inflight_pipes & ~(1u << pipe); others != 0; others &= others - 1) {
    const PipeQueue &pq = c.inflight[__builtin_ctz(others)];
    for (unsigned i = 0; i < pq.count; ++i)
      if (pq.at(i).end > t && depends_on(a, pq.at(i))) t = pq.at(i).end;
  }
  return t;
}

// Forgets the instructions that ended by `now`.
inline void retire_finished(CoreContext &c) {
  for (unsigned busy = c.inflight_pipes; busy != 0; busy &= busy - 1) {
    const unsigned q = __builtin_ctz(busy);
    PipeQueue &pq = c.inflight[q];
    while (pq.count != 0 && pq.oldest().end <= c.now) pq.pop();
    if (pq.count == 0) c.inflight_pipes &= ~(1u << q);
  }
}

// Issues one instruction on `pipe` and charges `cycles` to it. The stream
// moves on after issue_cycles; the instruction starts when its pipe is free
// and the synchronous instructions it depends on have finished. Its result is
// visible to the next instruction of the program (the simulator computes it
// right away); only its time runs in parallel. Async copies are not tracked
// here: using their ranges before a fence is a hazard (hazard_check). A pipe
// with PipeQueue::kDepth synchronous instructions in flight stalls the stream.
inline void issue(CoreContext &c, Pipe pipe, double cycles, bool async, const Access &a,
                  const char *op, const char *detail_name, const void *dst, const void *src,
                  uint64_t size) {
  retire_finished(c);
  PipeQueue &own = c.inflight[pipe];
  if (!async && own.count == PipeQueue::kDepth) {
    c.now = own.oldest().end;
    retire_finished(c);
  }
  const double ready = c.now > c.pipe_free[pipe] ? c.now : c.pipe_free[pipe];
  const double deps = dependencies_done(c, pipe, a);
  const double start = deps > ready ? deps : ready;
  const double end = start + cycles;
  c.pipe_free[pipe] = end;
  c.pipe_busy[pipe] += cycles;
  ++c.issued;
  c.last_op.store(op, std::memory_order_relaxed);
  if (!async && end > c.now + c.cost.issue_cycles) {
    own.push(InFlight{a.w_lo, a.w_hi, a.r0_lo, a.r0_hi, a.r1_lo, a.r1_hi, end});
    c.inflight_pipes |= 1u << pipe;
  }
  if (c.tracing)
    detail::record_event(
        c, TraceEvent{op, detail_name, pipe, async, c.now, ready, start, end, dst, src, size});
  c.now += c.cost.issue_cycles;
}

inline Access access_of(const void *w, size_t w_bytes, const void *r0, size_t r0_bytes,
                        const void *r1, size_t r1_bytes) {
  auto u = [](const void *p) { return reinterpret_cast<uintptr_t>(p); };
  return Access{u(w), u(w) + w_bytes, u(r0), u(r0) + r0_bytes, u(r1), u(r1) + r1_bytes};
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
