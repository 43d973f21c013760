// Atomics to one 64-byte block run one after another, in the order they are
// issued, whichever cores issue them: each waits for the end of the one
// before it to its block. (That the issue order is the same however the
// replay reaches the cores is the stream's concern: Model::others_first.)
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "runtime/timing/replay/core.h"

namespace mlusim::timing {
namespace {

class AtomicOrder {
 public:
  // Every atomic gets a cell for its end; the last one to each 64-byte block
  // (by its first byte) is the one the next atomic there waits for: n, issued
  // by `core`, takes that one's end into n.after if it is known, or else
  // waits for it (atomic_before), and `core` is woken when it ends.
  void serialise(int core, Node &n) {
    const auto id = static_cast<int64_t>(ends_.size());
    ends_.push_back(kUnknown);
    waiter_.push_back(-1);
    n.atomic_cell = id;
    auto [it, fresh] = last_.try_emplace(n.step->access.w_lo >> 6, id);
    if (fresh) return;
    const double before = ends_[static_cast<size_t>(it->second)];
    if (before != kUnknown) {
      n.after = std::max(n.after, before);
    } else {
      n.atomic_before = it->second;
      waiter_[static_cast<size_t>(it->second)] = core;
    }
    it->second = id;
  }

  // Atomic n (atomic_cell >= 0) ended: the core whose next atomic waits for
  // it, or -1.
  int ended(const Node &n) {
    ends_[static_cast<size_t>(n.atomic_cell)] = n.end;
    return waiter_[static_cast<size_t>(n.atomic_cell)];
  }

  // Whether the atomic n waits for (atomic_before >= 0) has ended; if so, n
  // waits for it no more and its end is in n.after.
  bool before_ended(Node &n) const {
    const double end = ends_[static_cast<size_t>(n.atomic_before)];
    if (end == kUnknown) return false;
    n.after = std::max(n.after, end);
    n.atomic_before = -1;
    return true;
  }

 private:
  std::vector<double> ends_;                     // per atomic, its end
  std::unordered_map<uintptr_t, int64_t> last_;  // per block, the last atomic's cell
  std::vector<int> waiter_;  // per atomic, the core whose next atomic waits for it, or -1
};

}  // namespace
}  // namespace mlusim::timing
