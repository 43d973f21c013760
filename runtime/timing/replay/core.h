// One core's state in the replay: its pipes' instructions not yet retired (a
// Node each, in a PipeRing per pipe) and where its stream stands.
//
// Internal to the replay: runtime/timing/replay.cpp is the only file that
// includes the headers of runtime/timing/replay/, so that the model's parts
// stay one translation unit and the compiler inlines across them (the per-step
// work is spread over many small functions). Their functions have internal
// linkage, one definition in the program: `inline` only asks the compiler to
// inline, where the model wants it to.
#pragma once

#include <cstdint>
#include <limits>
#include <memory_resource>
#include <type_traits>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay.h"

namespace mlusim::timing {
namespace {

constexpr double kUnknown = -1;  // an end that waits on a GDRAM transfer still moving
constexpr double kNever = std::numeric_limits<double>::infinity();

// One instruction on its pipe, from issue until the stream's time passes its end.
struct Node {
  const Step *step;
  double issue, ready, start, end;
  double after;                       // the known ends it waits for
  uint64_t waits_for[kPipeCount];     // per other pipe, the latest instruction it waits for
  uint8_t waiting;                    // the pipes whose waits_for entry is still to be resolved
  bool async;                         // step->async, at hand for the searches over a pipe
  uint32_t index;                     // step's, in its core's log
  int64_t atomic_cell;                // an atomic's number in the issue order (atomics.h), or -1
  double bytes_from;                  // a DMA request: when its latency has passed
  uint64_t sync_before;               // synchronous instructions issued on its pipe before it
  bool behind;                        // its bytes wait for the request before it, still moving
  bool queued;                        // an atomic queued at its blocks (AtomicOrder::queue)

  // A node for step s issued at `at` (waits_for is read only where waiting says).
  void reset(const Step &s, size_t at_index, double at, uint64_t sync_issued) {
    step = &s;
    index = static_cast<uint32_t>(at_index);
    issue = at;
    ready = start = end = kUnknown;
    after = 0;
    waiting = 0;
    async = s.async;
    atomic_cell = -1;
    bytes_from = 0;
    sync_before = sync_issued;
    behind = queued = false;
  }
};

// Rings hold nodes in room no constructor ran on.
static_assert(std::is_trivially_default_constructible_v<Node> && std::is_trivially_copyable_v<Node>);

// A pipe's instructions not yet retired, by sequence number: a ring that grows
// when async copies pile up beyond its size (and takes its first room on its
// first instruction: most pipes of most cores of a short launch hold none).
class PipeRing {
 public:
  uint64_t head() const { return head_; }  // oldest held
  uint64_t tail() const { return tail_; }  // next to issue
  bool holds(uint64_t seq) const { return seq >= head_ && seq < tail_; }
  bool full() const { return tail_ - head_ == capacity_; }
  Node &at(uint64_t seq) { return nodes_[seq & mask_]; }
  const Node &at(uint64_t seq) const { return nodes_[seq & mask_]; }
  // Room comes from `arena`, the replay's: it is freed with the replay, not
  // ring by ring (a launch on every core takes hundreds of rings per replay).
  Node &push(std::pmr::memory_resource &arena) {
    if (full()) grow(arena);
    return at(tail_++);
  }
  void pop() { ++head_; }

 private:
  // The room is not zeroed: push()'s caller resets every node it hands out
  // (a ring's first room is 4 KiB, taken per pipe, core and replay).
  void grow(std::pmr::memory_resource &arena) {
    const uint64_t capacity = capacity_ == 0 ? 32 : capacity_ * 2;
    auto *bigger = static_cast<Node *>(arena.allocate(capacity * sizeof(Node), alignof(Node)));
    for (uint64_t s = head_; s < tail_; ++s) bigger[s & (capacity - 1)] = at(s);
    nodes_ = bigger;
    capacity_ = capacity;
    mask_ = capacity_ - 1;
  }
  Node *nodes_ = nullptr;
  uint64_t capacity_ = 0, mask_ = 0;  // kept at hand: at() runs at every step
  uint64_t head_ = 0, tail_ = 0;
};

struct Core {
  const StepLog *log;
  StepLog::Reader steps;  // the log's held steps, as of the last place()
  StepLog::FarReader far;  // their far-scalar spans, as of the last place()
  size_t count;   // of steps recorded so far
  bool complete;  // no more to come
  int cluster;
  bool traced;
  bool has_scratch;
  AddressRange scratch[2];  // a memory core's skipped steps touch these
  uintptr_t nram;           // where the steps' scalar spans count from
  size_t next = 0;
  double now = 0;
  PipeRing pipe[kPipeCount];
  uint64_t placed[kPipeCount] = {};  // instructions with a known start, per pipe
  uint64_t sync_issued[kPipeCount] = {};
  uint64_t running_from[kPipeCount] = {};  // no synchronous one before it still runs
  uint32_t syncs_running = 0;  // the pipes that may hold a synchronous one still running
  double busy_until[kPipeCount] = {};  // a pipe's requests overlap: busy time counts once
  uint64_t ended[kPipeCount] = {};      // instructions whose end is known, per pipe
  double latest_end[kPipeCount] = {};   // the latest of those ends
  enum State { kRunning, kBlocked, kAtBarrier, kDone } state = kRunning;
  size_t scalar_done = 0;  // 1 + the step whose scalar code the stream ran last
  CoreTiming out;
};

// A memory core has a scratch; its steps there were skipped.
bool has_scratch(const CoreSteps &c) { return c.scratch[0].bytes + c.scratch[1].bytes > 0; }

// A memory core's step in its NRAM or WRAM scratch: skipped there.
bool skipped(const AddressRange (&scratch)[2], const Step &s) {
  return touches(s.access, scratch[0].lo, scratch[0].lo + scratch[0].bytes) ||
         touches(s.access, scratch[1].lo, scratch[1].lo + scratch[1].bytes);
}

// Out of line: only traced cores keep events, and the push's code would
// weigh on every step of the others (registers saved, the stack aligned).
[[gnu::cold]] inline void trace(Core &k, const TraceEvent &e) { k.out.events.push_back(e); }

}  // namespace
}  // namespace mlusim::timing
