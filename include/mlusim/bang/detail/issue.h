// What the run tells the timing model, and the one way it does: every
// instruction issues a Step (steps.h) here. The compute pipes' hazard window
// (core.h's ComputeWindow) takes it, whether the launch is timed or not; a
// timed launch's core keeps it in its step log (step_log.h) with the cycles of
// the scalar code the stream ran since the last one. The replay
// (runtime/timing/replay.h) reads nothing else of the run.
#pragma once

#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/detail/steps.h"

namespace mlusim {

// Keeps one step for the timing model, if the launch is timed. A core that
// takes more than kMaxSteps (an endless loop, say) faults, timed or not, and
// one the watchdog stops faults here.
inline void record(CoreContext &c, const Step &step) {
  if (c.steps_taken++ >= c.step_limit.load(std::memory_order_relaxed)) [[unlikely]]
    detail::fault_too_many_steps(c, step.op);
  if (!c.timed) return;
  if (c.steps.full()) [[unlikely]]
    detail::next_step_chunk(c);
  Step &kept = c.steps.push(step);
  kept.scalar_cycles =
      static_cast<float>(c.scalar_cycles + c.scalar_nram_accesses * c.scalar_prices.onchip);
  kept.scalar_reads = c.scalar_reads_span;
  kept.scalar_writes = c.scalar_writes_span;
  c.scalar_cycles = c.scalar_nram_accesses = 0;
  c.scalar_reads_span = c.scalar_writes_span = NramSpan{};
  if ((c.scalar_far_reads.hi | c.scalar_far_writes.hi) != 0) [[unlikely]] {  // either not empty
    kept.far_scalar = true;
    detail::keep_far_scalar(c);
  }
}

// No vector or tensor instruction since their last fence may still run.
inline bool compute_fenced(const CoreContext &c) {
  return c.compute[0].empty() && c.compute[1].empty();
}

// Records one instruction for the timing model (runtime/timing/replay.h), which
// places it in simulated time after the launch: it starts when its pipe is
// free and the synchronous instructions it depends on through memory have
// ended. Its result is already computed (the next instruction of the program
// sees it); only its time runs in parallel with other pipes.
inline void issue(CoreContext &c, const Step &step) {
  ++c.issued;
  c.last_op.store(step.op, std::memory_order_relaxed);
  if (!step.async && step.kind >= StepKind::kOnchipCopy && step.kind <= StepKind::kAtomic &&
      !compute_fenced(c)) [[unlikely]]
    detail::compute_waited_for(c, step.access);
  record(c, step);
  if (step.pipe == kVectorPipe || step.pipe == kTensorPipe) {
    ComputeWindow &w = c.compute[step.pipe - kVectorPipe];
    if (w.ring_full()) [[unlikely]]
      detail::settle_window(w);
    w.push(step, static_cast<uint32_t>(c.issued), c.where);
  }
}

// Scalar code reads a value the instruction just issued on `pipe` returns (a
// count, an index, a sum, the old value of an atomic): the stream waits until
// that pipe has run it, as for a scalar GDRAM load. Time only: no async copy
// lands and the hazard checks see no fence (BANG C's rules name the fences).
inline void await_result(CoreContext &c, Pipe pipe, const char *op) {
  record(c, Step{.op = op, .detail = "its result", .count = 1u << pipe, .kind = StepKind::kFence,
                 .pipe = pipe});
}

// GDRAM's 64-byte blocks that the segments of one side of a transfer touch,
// and of those the ones it covers only in part.
struct BlockSpan {
  uint64_t touched = 0, partial = 0;
};
inline BlockSpan blocks_of(const Segments &s) {
  auto one = [](uintptr_t lo, size_t n) {
    if (n == 0) return BlockSpan{};
    const uint64_t first = lo >> 6, end = (lo + n + 63) >> 6;
    const uint64_t full_first = (lo + 63) >> 6, full_end = (lo + n) >> 6;
    const uint64_t full = full_end > full_first ? full_end - full_first : 0;
    return BlockSpan{end - first, end - first - full};
  };
  if (s.count == 1 || s.stride % 64 == 0) {  // every segment sits alike in its blocks
    const BlockSpan b = one(s.lo, s.bytes);
    return BlockSpan{b.touched * s.count, b.partial * s.count};
  }
  BlockSpan total;
  for (size_t i = 0; i < s.count; ++i) {
    const BlockSpan b = one(s.lo + i * s.stride, s.bytes);
    total.touched += b.touched;
    total.partial += b.partial;
  }
  return total;
}

namespace detail {

// One operand of a tensor-pipe instruction: [p, p + bytes) in on-chip `space`.
struct TensorOperand {
  const void *p;
  size_t bytes;
  Space space;
};

// Issues one tensor-pipe (matrix/conv) instruction such as __bang_matmul or
// __bang_conv: checks that dst and every source lie in the on-chip space they
// name and that no unfenced async copy owns them, then records `macs`
// multiply-adds of operand class `rate` on the core's tensor pipe. The caller
// computes the result right after the call: the next instruction sees it.
void issue_tensor(const char *op, TensorOperand dst, std::initializer_list<TensorOperand> srcs,
                  double macs, MatrixRate rate);

}  // namespace detail

}  // namespace mlusim
