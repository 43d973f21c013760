// What a core's instruction stream did, as the timing model needs it. The
// functional run computes every result at once, in program order, and records
// one Step per instruction (and per fence and barrier): what it costs, which
// memory it touches, and the scalar code the stream ran before it. Simulated
// time is worked out after the launch for all cores together
// (runtime/timing/replay.h), so that GDRAM bandwidth is shared in time,
// barriers meet, and the same steps can be priced again with other constants
// (the error bars of docs/cost_model.md).
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <cstddef>
#include <cstdint>

namespace mlusim {

// The pipes of an MLU core (guide 3.3.3). Each runs its instructions in order;
// different pipes run in parallel. Scalar code runs on the stream itself.
enum Pipe : uint8_t {
  kIoPipe = 0,      // copies touching GDRAM (and SRAM<->GDRAM), atomics
  kMovePipe = 1,    // on-chip copies: NRAM/SRAM/WRAM
  kVectorPipe = 2,  // vector intrinsics (__bang_add, __bang_transpose, ...)
  kTensorPipe = 3,  // matrix/conv intrinsics (detail::issue_tensor)
  kPipeCount = 4,
};
// Synchronous instructions a pipe holds in flight before the stream stalls on
// one more (an estimate: docs/cost_model.md). An instruction this many
// instructions back on its pipe has ended.
constexpr uint32_t kPipeQueueDepth = 16;
// Trace lane of the instruction stream itself (fences, barriers, stalls, scalar code).
constexpr uint8_t kStreamLane = kPipeCount;
const char *pipe_name(uint8_t pipe);

// The memory one instruction writes and reads (up to two ranges, empty when lo == hi).
struct Access {
  uintptr_t w_lo = 0, w_hi = 0, r0_lo = 0, r0_hi = 0, r1_lo = 0, r1_hi = 0;
};

inline bool overlaps(uintptr_t a_lo, uintptr_t a_hi, uintptr_t b_lo, uintptr_t b_hi) {
  return a_lo < b_hi && b_lo < a_hi;
}

// Whether the instruction reads or writes any of [lo, hi).
inline bool touches(const Access &a, uintptr_t lo, uintptr_t hi) {
  return overlaps(a.w_lo, a.w_hi, lo, hi) || overlaps(a.r0_lo, a.r0_hi, lo, hi) ||
         overlaps(a.r1_lo, a.r1_hi, lo, hi);
}

// `later` must wait for `earlier` through memory: it reads what `earlier`
// writes (RAW), writes what it reads (WAR) or what it writes (WAW).
inline bool depends_on(const Access &later, const Access &earlier) {
  return overlaps(later.r0_lo, later.r0_hi, earlier.w_lo, earlier.w_hi) ||
         overlaps(later.r1_lo, later.r1_hi, earlier.w_lo, earlier.w_hi) ||
         overlaps(later.w_lo, later.w_hi, earlier.w_lo, earlier.w_hi) ||
         overlaps(later.w_lo, later.w_hi, earlier.r0_lo, earlier.r0_hi) ||
         overlaps(later.w_lo, later.w_hi, earlier.r1_lo, earlier.r1_hi);
}

inline Access access_of(const void *w, size_t w_bytes, const void *r0, size_t r0_bytes,
                        const void *r1, size_t r1_bytes) {
  auto u = [](const void *p) { return reinterpret_cast<uintptr_t>(p); };
  return Access{u(w), u(w) + w_bytes, u(r0), u(r0) + r0_bytes, u(r1), u(r1) + r1_bytes};
}

// GDRAM moves 64-byte blocks (guide 5.3.3): what one transfer reads and
// writes of them, and how many of the written ones it covers only in part (a
// read-modify-write on the board).
struct GdramBlocks {
  uint32_t read = 0, written = 0, partial = 0;
};

// The transfers (kOnchipCopy to kAtomic) stay together: issue() tests the range.
enum class StepKind : uint8_t {
  kVector,      // amount: bytes through the vector unit
  kTensor,      // amount: multiply-adds; rate: the operand class (docs/cost_model.md)
  kOnchipCopy,  // count segments of amount bytes, NRAM/SRAM/WRAM
  kGdramCopy,   // count segments of amount bytes, touching GDRAM (blocks)
  kAtomic,      // read-modify-write of blocks.written blocks at w_lo; amount: elements
  kFence,       // count: the mask of pipes the stream waits for
  kBarrier,     // amount: the barrier's key; count: its participants
};

// Who a barrier waits for (guide 3.3.5.2).
enum class BarrierScope {
  kCluster,   // __sync_cluster: one physical cluster's cores and memory core
  kUnion,     // __sync_all: every core and memory core of one UnionN task
  kUnionIpu,  // __sync_all_ipu: the compute cores of one UnionN task
  kClusterIpu,  // __sync_all_ipu_within_cluster: the compute cores of one physical cluster
  kTaskEnd,   // between waves: a cluster starts its next UnionN task when all its cores are done
  kScopeCount,
};

// One meeting of a barrier (a kBarrier step's amount): its scope, which group
// of cores (the cluster or union index) and how many times its participants
// have met there before.
constexpr uint64_t barrier_key(BarrierScope scope, uint64_t group, uint64_t generation) {
  return static_cast<uint64_t>(scope) | group << 8 | generation << 32;
}

// A stretch of memory that scalar code accessed, [lo, hi) bounding every
// access (empty while lo >= hi; hi stays 0 until the first one): the replay
// holds the scalar code until the synchronous instructions it depends on have
// ended.
template <typename Offset>
struct Span {
  Offset lo = ~Offset{0}, hi = 0;
  bool empty() const { return lo >= hi; }
  // Stores only what moves: a loop walking up stores hi alone, and a store
  // not made is no chain of stores and loads from one access to the next.
  void add(uintptr_t at, size_t bytes) {
    if (at < lo) lo = static_cast<Offset>(at);
    if (at + bytes > hi) hi = static_cast<Offset>(at + bytes);
  }
};
// The core's NRAM, as offsets (kept in every step).
using NramSpan = Span<uint32_t>;
// SRAM, WRAM and GDRAM, as host addresses. Rarer than NRAM's: a step whose
// scalar code had one keeps them beside the log (StepLog's far-scalar
// table), not in the step.
using AddressSpan = Span<uintptr_t>;

// A step's far spans: what the scalar code before step `step` read and wrote
// outside NRAM.
struct FarScalar {
  size_t step;
  AddressSpan reads, writes;
};

// The operand classes of the matrix unit, by the wider source (docs/cost_model.md).
enum MatrixRate : uint8_t { kMatrixInt8, kMatrixInt16, kMatrixHalf, kMatrixFloat, kMatrixRates };

struct Step {
  const char *op;      // "__bang_add", "__memcpy_async GDRAM2NRAM", "__sync_io", ...
  const char *detail;  // dtype or direction, for traces
  Access access;
  uint64_t amount = 0;
  uint32_t count = 1;
  GdramBlocks blocks;
  // The NRAM that the scalar code before it (scalar_cycles) read and wrote:
  // that code waits for the earlier synchronous instructions that write what
  // it reads, or read or write what it writes.
  NramSpan scalar_reads, scalar_writes;
  StepKind kind = StepKind::kVector;
  Pipe pipe = kVectorPipe;
  bool async : 1 = false;
  // A copy or fill that waits for the instructions of other pipes it depends
  // on through memory, async copies included: a pipe hazard the board
  // resolves (runtime/pipe_hazards.h).
  bool ordered : 1 = false;
  // An on-chip copy to or from SRAM: it shares its cluster's SRAM port.
  bool sram : 1 = false;
  // The scalar code before it also accessed SRAM, WRAM or GDRAM: its spans
  // are in the log's far-scalar table.
  bool far_scalar : 1 = false;
  uint8_t rate = 0;
  // Scalar code the stream ran before issuing this step, in cycles at the
  // fitted prices (every one an estimate: the error bar's replays scale it).
  float scalar_cycles = 0;
};
// Steps are kept per instruction while the replay places them (a few chunks
// per core, runtime/launch.cpp): the scalar spans took them from 96 bytes to 112.
static_assert(sizeof(Step) == 112, "a Step grew: every launch keeps one per instruction");

}  // namespace mlusim
