// One core's instruction stream: it runs the scalar code recorded before each
// step, issues its instructions to their pipes, one every issue_cycles
// (stalling while a pipe's queue is full), holds at fences until the pipes
// they name drain and at barriers until every participant has arrived.
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay/model.h"
#include "runtime/timing/replay/pipes.h"

namespace mlusim::timing {
namespace {

bool is_instruction(StepKind k) {
  return k == StepKind::kVector || k == StepKind::kTensor || k == StepKind::kOnchipCopy ||
         k == StepKind::kGdramCopy || k == StepKind::kAtomic;
}

// Whether every instruction issued on the pipes in `mask` has a known end;
// if so, `until` becomes the latest of them (those retired ended by the
// stream's time, where `until` starts).
inline bool drained(const Core &k, uint32_t mask, double &until) {
  for (int p = 0; p < kPipeCount; ++p) {
    if (((mask >> p) & 1u) == 0) continue;
    if (k.ended[p] < k.pipe[p].tail()) return false;
    until = std::max(until, k.latest_end[p]);
  }
  return true;
}

// A core whose steps are all fences (a memory core that returned at once,
// a kernel with nothing to do) ends when its stream, started at `start`, has
// run its scalar code: nothing it waits for takes time, and nothing of it
// holds another core. The same sum, in the same order, as run_core() would
// reach. (Not for a traced core: its trace shows the scalar code.)
inline bool Model::ends_without_instructions(const CoreSteps &c, double start,
                                             CoreTiming &out) const {
  const bool scratch = has_scratch(c);
  double end = start;
  for (size_t i = 0; i < c.steps->size(); ++i) {
    const Step &s = (*c.steps)[i];
    if (s.kind != StepKind::kFence) {  // a fence touches no memory: never skipped
      if (scratch && skipped(c.scratch, s)) continue;
      return false;
    }
    if (s.scalar_cycles > 0) end += s.scalar_cycles * prices_.scalar_scale;
  }
  out.finish = end;
  return true;
}

// Runs the core's stream from its time on until it needs what is not known
// yet (an end still moving: blocked) or meets a barrier. A stream reads
// only ends already final and leaves its transfers to the global clock at
// their own times, so it may run ahead of the other cores; only an atomic
// waits until nothing another core or a transfer does could come first,
// since atomics take the blocks they share in the order they are issued.
inline void Model::run_core(int core) {
  Core &k = cores_[core];
  while (k.state == Core::kRunning) {
    if (k.next == k.count) {
      if (k.complete) {
        finish(k);
      } else {
        starved_ = core;  // place() goes on from here once the core recorded more
      }
      return;
    }
    const Step &s = k.steps[k.next];
    if (k.has_scratch && skipped(k.scratch, s)) {
      ++k.next;
      continue;
    }
    if (!run_scalar_code(k, s)) return;  // blocked: it waits for an end not known yet
    if (s.kind == StepKind::kAtomic && others_first(core, k.now)) {
      schedule(core);
      return;
    }
    if (is_instruction(s.kind)) {
      issue(core, k, s);
    } else if (s.kind == StepKind::kFence) {
      fence(k, s);
    } else if (s.kind == StepKind::kBarrier) {
      arrive(core, s);
    } else {
      ++k.next;
    }
  }
}

// The stream waits from its time until `until` at step s (a fence, a
// barrier, or an instruction whose pipe is full: the trace tells them apart
// by the step).
inline void Model::wait(Core &k, const Step &s, double until) {
  if (until <= k.now) return;
  if (k.traced) trace(k, TraceEvent{&s, kStreamLane, k.now, k.now, k.now, until, false});
  k.now = until;
}

// The scalar code the run recorded before step s: the stream is busy with
// it (other pipes go on with what it issued before) once the synchronous
// instructions it depends on through NRAM have ended (guide 5.3.2: the
// hardware keeps scalar data dependencies). Once per step, however often the
// stream comes back to the step (a fence or a full pipe blocks it); false
// while an end it waits for is not known (the core blocks).
inline bool Model::run_scalar_code(Core &k, const Step &s) {
  if (k.scalar_done == k.next + 1) return true;
  double start = k.now;
  if (!s.scalar_reads.empty() || !s.scalar_writes.empty() || s.far_scalar) {
    start = scalar_code_start(k, s);
    if (start == kUnknown) {
      k.state = Core::kBlocked;
      return false;
    }
  }
  k.scalar_done = k.next + 1;
  if (s.scalar_cycles <= 0 && start == k.now) return true;
  const double end = start + s.scalar_cycles * prices_.scalar_scale;
  if (k.traced) trace(k, TraceEvent{&s, kStreamLane, k.now, k.now, start, end, true});
  k.now = end;
  return true;
}

// The latest instruction of a pipe, among [oldest, newest), that an access
// depends on through memory (async ones only if `with_async`): its sequence
// number, or kNoDependency. A pipe runs in order, so that one ends last.
constexpr uint64_t kNoDependency = ~uint64_t{0};
inline uint64_t latest_dependency(const PipeRing &q, uint64_t oldest, uint64_t newest,
                                  const Access &access, bool with_async) {
  for (uint64_t seq = newest; seq-- > oldest;) {
    const Node &other = q.at(seq);
    if ((!other.async || with_async) && depends_on(access, other.step->access)) return seq;
  }
  return kNoDependency;
}

// The NRAM the scalar code before step s read and wrote, as an
// instruction's operands (an empty span reads or writes nothing).
inline Access scalar_access(const Core &k, const Step &s) {
  Access a;
  if (!s.scalar_writes.empty()) {
    a.w_lo = k.nram + s.scalar_writes.lo;
    a.w_hi = k.nram + s.scalar_writes.hi;
  }
  if (!s.scalar_reads.empty()) {
    a.r0_lo = k.nram + s.scalar_reads.lo;
    a.r0_hi = k.nram + s.scalar_reads.hi;
  }
  return a;
}

// The same for what it accessed outside NRAM (SRAM, WRAM, GDRAM), empty
// unless the step has some.
inline Access far_scalar_access(const Core &k, const Step &s) {
  Access a;
  if (!s.far_scalar) return a;
  const FarScalar &f = k.far.of(k.next);
  if (!f.writes.empty()) a.w_lo = f.writes.lo, a.w_hi = f.writes.hi;
  if (!f.reads.empty()) a.r0_lo = f.reads.lo, a.r0_hi = f.reads.hi;
  return a;
}

// When the scalar code before step s may start: at the stream's time, or
// once the latest synchronous instruction of each pipe that writes what it
// reads (RAW), or reads or writes what it writes (WAR, WAW), has ended;
// kUnknown while such an end is not known. Async copies are not waited for:
// their data lands at the fence (an access before it is an async hazard).
inline double Model::scalar_code_start(Core &k, const Step &s) {
  const Access scalar = scalar_access(k, s), far = far_scalar_access(k, s);
  double start = k.now;
  for (uint32_t pipes = k.syncs_running; pipes != 0; pipes &= pipes - 1) {
    const auto p = static_cast<Pipe>(std::countr_zero(pipes));
    const PipeRing &q = k.pipe[p];
    const uint64_t oldest = oldest_running_sync(k, p);
    uint64_t seq = latest_dependency(q, oldest, q.tail(), scalar, false);
    if (s.far_scalar) {
      const uint64_t far_seq = latest_dependency(q, oldest, q.tail(), far, false);
      if (seq == kNoDependency || (far_seq != kNoDependency && far_seq > seq)) seq = far_seq;
    }
    if (seq == kNoDependency) continue;
    if (q.at(seq).end == kUnknown) return kUnknown;
    start = std::max(start, q.at(seq).end);
  }
  return start;
}

inline void Model::issue(int core, Core &k, const Step &s) {
  if (!s.async && !has_room(k, s)) return;  // run_core goes on from there
  PipeRing &own = k.pipe[s.pipe];
  // Retiring only makes room: an ended instruction still held gives the
  // same waits as one retired (it ended before anything not placed was
  // issued), so it runs when the ring is full.
  if (own.full()) retire(k, s.pipe);
  const bool rest_placed = k.placed[s.pipe] == own.tail();
  Node &n = own.push(ring_arena_);
  n.reset(s, k.next, k.now, k.sync_issued[s.pipe]);
  if (!s.async || s.ordered) find_dependencies(k, s, n);
  if (!s.async) {
    ++k.sync_issued[s.pipe];
    k.syncs_running |= 1u << s.pipe;
  }
  if (s.kind == StepKind::kAtomic) atomics_.number(n);
  ++k.next;
  if (rest_placed) {  // the common case: the new one is the only one left to place
    place_next(core, k, s.pipe);
  } else {
    place(core, s.pipe);
  }
  if (s.kind == StepKind::kAtomic && n.start == kUnknown) atomics_.queue(core, n);
  k.now += prices_.issue_cycles;
}

// Whether the pipe of synchronous step s takes it now. A full pipe stalls
// the stream until the oldest synchronous instruction still running on it
// ends (blocked while that end is unknown); then it has room, but an atomic
// goes back to run_core, which holds it while anything could come first.
inline bool Model::has_room(Core &k, const Step &s) {
  const PipeRing &own = k.pipe[s.pipe];
  const uint64_t oldest = oldest_running_sync(k, s.pipe);
  if (oldest == own.tail()) return true;  // none running
  if (k.sync_issued[s.pipe] - own.at(oldest).sync_before < prices_.pipe_queue_depth) return true;
  const double end = own.at(oldest).end;
  if (end == kUnknown) {
    k.state = Core::kBlocked;
    return false;
  }
  wait(k, s, end);
  return s.kind != StepKind::kAtomic;
}

// What synchronous step s, issued as n, waits for: the latest synchronous
// instruction of each other pipe it depends on through memory (a pipe runs
// in order: that one ends last), and on a DMA queue, whose requests overlap,
// the latest of its own queue (n is its tail). The synchronous ones before the
// oldest still running ended by the stream's time and cannot hold s back
// (it starts after its issue): the search stops there, and skips the pipes
// where none runs (most steps of most kernels keep one or two pipes busy).
// A step of a resolved pipe hazard (Step::ordered, rare) also waits for
// async copies: it looks at every instruction each other pipe still holds
// (the rest ended before it was issued).
inline void Model::find_dependencies(Core &k, const Step &s, Node &n) {
  const uint32_t pipes = s.ordered ? (1u << kPipeCount) - 1 : k.syncs_running;
  const uint32_t in_order = is_dma(s.pipe) ? 0 : 1u << s.pipe;
  for (uint32_t searched = pipes & ~in_order; searched != 0; searched &= searched - 1) {
    const int p = std::countr_zero(searched);
    const PipeRing &q = k.pipe[p];
    const uint64_t oldest = s.ordered ? q.head() : oldest_running_sync(k, static_cast<Pipe>(p));
    const uint64_t newest = p == s.pipe ? q.tail() - 1 : q.tail();  // n is its own pipe's tail
    const bool waits_for_async = s.ordered && p != s.pipe;  // its own queue runs them in order
    const uint64_t seq = latest_dependency(q, oldest, newest, s.access, waits_for_async);
    if (seq == kNoDependency) continue;
    if (q.at(seq).end == kUnknown) {
      n.waits_for[p] = seq;
      n.waiting |= 1u << p;
    } else {
      n.after = std::max(n.after, q.at(seq).end);
    }
  }
}

// The oldest synchronous instruction of pipe p that has not ended by the
// stream's time (the pipe's tail if none). A pipe's ends come in issue
// order, an unknown end followed only by unknown ones, so every synchronous
// one from it on still runs; and the stream's time only grows, so the
// search goes on from where the last one stopped.
inline uint64_t Model::oldest_running_sync(Core &k, Pipe p) {
  const PipeRing &q = k.pipe[p];
  uint64_t &seq = k.running_from[p];
  for (seq = std::max(seq, q.head()); seq < q.tail(); ++seq) {
    const Node &n = q.at(seq);
    if (!n.async && (n.end == kUnknown || n.end > k.now)) return seq;
  }
  k.syncs_running &= ~(1u << p);
  return seq;
}

// A fence holds the stream until the pipes in its mask (Step::count) drain.
inline void Model::fence(Core &k, const Step &s) {
  double until = k.now;
  if (!drained(k, s.count, until)) {
    k.state = Core::kBlocked;
    return;
  }
  wait(k, s, until);
  ++k.next;
}

// The core arrives at barrier s (its key is the step's amount, its
// participants the count): the last to arrive releases them all, a barrier
// latency after the latest arrival (none between waves of tasks).
inline void Model::arrive(int core, const Step &s) {
  Core &k = cores_[core];
  ++k.next;
  Meeting &m = meetings_[s.amount];
  ++m.arrived;
  m.latest = std::max(m.latest, k.now);
  m.arrivals.push_back(Arrival{core, &s});
  k.state = Core::kAtBarrier;
  if (m.arrived < s.count) return;
  const auto scope = static_cast<BarrierScope>(s.amount & 0xff);
  const double release =
      m.latest + (scope == BarrierScope::kTaskEnd ? 0 : prices_.barrier_latency);
  for (const Arrival &a : m.arrivals) {
    Core &other = cores_[a.core];
    other.state = Core::kRunning;
    wait(other, *a.step, release);  // at its own barrier step, not this core's
    if (a.core != core) schedule(a.core);
  }
  meetings_.erase(s.amount);
}

// The core issued its last step: it is done once its pipes drain.
inline void Model::finish(Core &k) {
  double end = k.now;
  if (!drained(k, (1u << kPipeCount) - 1, end)) {
    k.state = Core::kBlocked;
    return;
  }
  k.out.finish = end;
  k.state = Core::kDone;
}

}  // namespace
}  // namespace mlusim::timing
