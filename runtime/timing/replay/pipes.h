// One core's instructions on its pipes: each pipe takes its instructions in
// order and starts one once the pipe takes it and what it waits for on other
// pipes has ended (an atomic, once the atomics issued before it to its
// blocks have started); its end follows from its price (costs.h), or, for a
// GDRAM request, from when its last byte moves (bandwidth.h).
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay/costs.h"
#include "runtime/timing/replay/model.h"

namespace mlusim::timing {
namespace {

// The DMA queues keep several requests under way (Prices::dma_in_flight); the
// compute pipes run one instruction at a time.
bool is_dma(int pipe) { return pipe == kIoPipe || pipe == kMovePipe; }

// The end of the request before seq on its queue (0 when it is no longer held).
inline double end_before(const PipeRing &q, uint64_t seq) {
  return seq > q.head() ? q.at(seq - 1).end : 0.0;
}

// Places what can be placed on every pipe of the core: an instruction placed
// on one pipe may be what another pipe's next one waits for.
inline void Model::place_all(int core) {
  const Core &k = cores_[core];
  for (bool moved = true; moved;) {
    moved = false;
    for (int p = 0; p < kPipeCount; ++p)  // most pipes have nothing left to place
      if (k.placed[p] < k.pipe[p].tail()) moved |= place(core, static_cast<Pipe>(p));
  }
}

// Places the next instructions of pipe p while their starts can be known;
// true if it placed any.
inline bool Model::place(int core, Pipe p) {
  Core &k = cores_[core];
  bool any = false;
  while (k.placed[p] < k.pipe[p].tail() && place_next(core, k, p)) any = true;
  return any;
}

// Places pipe p's first instruction not placed yet, if its start can be
// known; true if it did. Inlined in place()'s loop as in issue(): a call per
// placed instruction costs more than placing it.
inline bool Model::place_next(int core, Core &k, Pipe p) {
  PipeRing &q = k.pipe[p];
  const uint64_t seq = k.placed[p];
  Node &n = q.at(seq);
  const double taken = taken_at(q, p, seq);
  if (taken == kUnknown) return false;
  const double after = ends_waited_for(k, n);
  if (after == kUnknown) return false;
  n.ready = std::max(n.issue, taken);
  n.start = std::max(n.ready, after);
  ++k.placed[p];
  price(core, k, p, seq, n);
  return true;
}

// When pipe p can take its instruction seq (kUnknown: not known yet). A
// compute pipe runs one at a time: when the one before it ends. A DMA queue
// takes requests in order while fewer than dma_in_flight are under way:
// once the one before it started and the one dma_in_flight back ended.
// Instructions no longer held ended before seq was issued.
inline double Model::taken_at(const PipeRing &q, Pipe p, uint64_t seq) const {
  const bool after_another = seq > q.head();
  if (!is_dma(p)) return after_another ? q.at(seq - 1).end : 0.0;
  const uint64_t depth = prices_.dma_in_flight;
  const double window = seq >= depth && q.holds(seq - depth) ? q.at(seq - depth).end : 0.0;
  if (window == kUnknown) return kUnknown;
  return std::max(window, after_another ? q.at(seq - 1).start : 0.0);
}

// The end of what `n` waits for, or kUnknown while any of it is unknown.
inline double Model::ends_waited_for(const Core &k, Node &n) {
  for (; n.waiting != 0; n.waiting &= n.waiting - 1) {
    const int p = std::countr_zero(n.waiting);
    const uint64_t seq = n.waits_for[p];
    const PipeRing &q = k.pipe[p];
    if (q.holds(seq)) {  // retired ones ended before it was issued
      const double end = q.at(seq).end;
      if (end == kUnknown) return kUnknown;
      n.after = std::max(n.after, end);
    }
  }
  if (n.atomic_cell >= 0 && !atomics_.first_in_line(n)) return kUnknown;
  return n.after;
}

// Instruction n, just placed, ends at its start plus its price; a GDRAM
// request ends once its bytes have moved (complete()).
inline void Model::price(int core, Core &k, Pipe p, uint64_t seq, Node &n) {
  const Step &s = *n.step;
  switch (s.kind) {
    case StepKind::kVector:
      return finish_node(k, n, n.start + prices_.vector_latency + vector_cycles(prices_, s));
    case StepKind::kTensor:
      return finish_node(k, n, n.start + prices_.vector_latency + tensor_cycles(prices_, s));
    default: {  // a copy: after the latency, its bytes follow the request before
      n.end = kUnknown;
      n.bytes_from = s.kind == StepKind::kOnchipCopy ? n.start + prices_.onchip_latency
                     : s.kind == StepKind::kAtomic   ? take_blocks(n)
                                                     : n.start + prices_.gdram_latency;
      const double before = end_before(k.pipe[p], seq);
      if (before == kUnknown) {
        n.behind = true;  // complete() moves its bytes when the one before has moved its own
        return;
      }
      move_bytes(core, k, p, seq, n, std::max(n.bytes_from, before));
    }
  }
}

// Atomic n, placed, reaches GDRAM an atomic latency after its start and takes
// its blocks there (atomics.h): when it holds the last, its bytes may move.
// The next atomic in line at each block may be placed now.
inline double Model::take_blocks(const Node &n) {
  return atomics_.take(n, n.start + prices_.atomic_latency, prices_.atomic_hold,
                       [this](int waiter) { mark_dirty(waiter); });
}

// A request's bytes start to move at `from`: an on-chip copy's in its cycles
// (at its cluster's SRAM port, shared, if it touches SRAM), a GDRAM
// request's at its share of the bandwidth.
inline void Model::move_bytes(int core, Core &k, Pipe p, uint64_t seq, Node &n, double from) {
  const Step &s = *n.step;
  if (s.kind == StepKind::kOnchipCopy) {
    const double cycles = onchip_cycles(prices_, s);
    if (s.sram)
      return sram_.begin(Transfer{core, p, seq, k.cluster, cycles * prices_.sram_bytes_per_cycle},
                         from, now_);
    finish_node(k, n, from + cycles);
    return move_next_behind(core, k, p, seq, n.end);
  }
  const double bytes = gdram_bytes(prices_, s);
  if (bytes <= 0) return complete(core, p, seq, from);
  bandwidth_.begin(Transfer{core, p, seq, k.cluster, bytes}, from, now_);
}

// A transfer's last byte moved at `end`: the next request of its queue may
// move its bytes now.
inline void Model::complete(int core, Pipe p, uint64_t seq, double end) {
  Core &k = cores_[core];
  finish_node(k, k.pipe[p].at(seq), end);
  mark_dirty(core);
  move_next_behind(core, k, p, seq, end);
}

// Request seq of the queue moved its last byte at `end`: the next one, if
// its bytes wait for that, moves them now.
inline void Model::move_next_behind(int core, Core &k, Pipe p, uint64_t seq, double end) {
  if (seq + 1 >= k.placed[p]) return;  // the next one is not placed yet: it will see this end
  Node &next = k.pipe[p].at(seq + 1);
  if (!next.behind) return;
  next.behind = false;
  move_bytes(core, k, p, seq + 1, next, std::max(next.bytes_from, end));
}

// Instruction n ends at `end`: its pipe's busy time and known ends count it.
inline void Model::finish_node(Core &k, Node &n, double end) {
  const Pipe p = n.step->pipe;
  n.end = end;
  double &busy_until = k.busy_until[p];  // a pipe's ends come in order
  k.out.pipe_busy[p] += end - std::max(n.start, busy_until);
  busy_until = end;
  ++k.ended[p];
  k.latest_end[p] = std::max(k.latest_end[p], end);
  if (k.traced) trace(k, TraceEvent{n.step, p, n.issue, n.ready, n.start, end, false});
}

// Forgets pipe p's instructions that ended by the stream's time, and before
// any instruction not placed yet was issued (it may wait for them).
inline void Model::retire(Core &k, Pipe p) {
  double horizon = k.now;
  for (int o = 0; o < kPipeCount; ++o)
    if (k.placed[o] < k.pipe[o].tail()) horizon = std::min(horizon, k.pipe[o].at(k.placed[o]).issue);
  PipeRing &q = k.pipe[p];
  while (q.head() < k.placed[p]) {
    const Node &n = q.at(q.head());
    if (n.end == kUnknown || n.end > horizon) break;
    q.pop();
  }
}

}  // namespace
}  // namespace mlusim::timing
