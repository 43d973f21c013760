// The replay's global clock: it moves to the next moment something happens
// (a core's stream runs, a transfer begins or ends) and hands that moment to
// whatever waited for it. Transfers move their bytes on this clock; a core's
// stream may run ahead of it (stream.h).
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "runtime/timing/replay/model.h"

namespace mlusim::timing {
namespace {

// Moves to the next moment something happens; false when nothing is left.
inline bool Model::advance() {
  const double t_core = ready_.empty() ? kNever : ready_.top().time;
  const double next = std::min({t_core, bandwidth_.next_begin(), bandwidth_.next_done(now_),
                                sram_.next_begin(), sram_.next_done(now_)});
  if (next == kNever) return false;
  const double t = std::max(next, now_);  // a core queued earlier runs now
  bandwidth_.elapse(now_, t);
  sram_.elapse(now_, t);
  now_ = t;
  if (complete_transfers()) resolve_dirty();
  if (t_core <= now_ && !ready_.empty() && ready_.top().time <= now_) {
    const int core = ready_.top().core;
    ready_.pop();
    run_core(core);
    resolve_dirty();  // an atomic it placed may let another core's go
  }
  return true;
}

inline void Model::schedule(int core) {
  ready_.push({std::max(cores_[core].now, now_), rank(core), core});
}

// Every stream starts at 0, in the order of their ranks (the queue makes a
// heap of them at once: pushed one by one, a launch of many cores would
// grow its storage step by step).
inline void Model::schedule_all() {
  std::vector<Turn> start;
  start.reserve(cores_.size());
  for (int i = 0; i < static_cast<int>(cores_.size()); ++i)
    start.push_back(Turn{0.0, rank(i), i});
  ready_ = ReadyQueue(std::greater<>{}, std::move(start));
}

// Whether something could still come before an atomic the core issues at
// t: a transfer beginning or ending by then (it may free a core), a stream
// running earlier, or one running at t on a core of lower rank. So atomics
// to one block at one cycle go in the order of their cores' ranks, whatever
// order the replay reached them in.
inline bool Model::others_first(int core, double t) {
  if (bandwidth_.next_done(now_) <= t || bandwidth_.next_begin() <= t) return true;
  if (sram_.next_done(now_) <= t || sram_.next_begin() <= t) return true;
  if (ready_.empty()) return false;
  const Turn &next = ready_.top();
  return next.time < t || (next.time == t && next.rank < rank(core));
}

// The transfers that moved their last byte now end their requests; true if any did.
inline bool Model::complete_transfers() {
  const bool gdram = complete_transfers(bandwidth_);
  return complete_transfers(sram_) || gdram;
}

inline bool Model::complete_transfers(Bandwidth &transfers) {
  if (!transfers.any_done(now_)) return false;  // the common case: none ends now
  const std::vector<Transfer> &done = transfers.take_done(now_);
  for (const Transfer &x : done) complete(x.core, x.pipe, x.seq, now_);
  return !done.empty();
}

// An end the core may wait for became known: resolve_dirty() places what
// it can.
inline void Model::mark_dirty(int core) {
  dirty_[static_cast<size_t>(core) >> 6] |= uint64_t{1} << (core & 63);
}

// The first dirty core from `from` on, or cores_.size().
inline size_t Model::next_dirty(size_t from) const {
  for (size_t w = from >> 6; w < dirty_.size(); ++w) {
    uint64_t bits = dirty_[w];
    if (w == from >> 6) bits &= ~uint64_t{0} << (from & 63);
    if (bits != 0) return (w << 6) + static_cast<size_t>(std::countr_zero(bits));
  }
  return cores_.size();
}

// The dirty cores in order, as a loop over every core would; one made dirty
// meanwhile (an atomic placed lets the next in line at its blocks go) is
// resolved in the same pass if it comes after the one being resolved, in
// another pass otherwise, at the same time.
inline void Model::resolve_dirty() {
  for (size_t i = next_dirty(0); i < cores_.size();) {
    Core &k = cores_[i];
    dirty_[i >> 6] &= ~(uint64_t{1} << (i & 63));
    place_all(static_cast<int>(i));
    if (k.state == Core::kBlocked) {  // it retries the step it stopped at
      k.state = Core::kRunning;
      schedule(static_cast<int>(i));
    }
    i = next_dirty(i + 1);
    if (i == cores_.size()) i = next_dirty(0);
  }
}

}  // namespace
}  // namespace mlusim::timing
