// The replay's entry points (runtime/timing/replay.h). The model itself is in
// runtime/timing/replay/, one concern a header, all included here alone: one
// translation unit, so that the compiler inlines across the parts.
#include "runtime/timing/replay.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <memory>
#include <utility>

#include "mlusim/bang/detail/steps.h"
#include "runtime/logging.h"
#include "runtime/timing/replay/clock.h"
#include "runtime/timing/replay/model.h"
#include "runtime/timing/replay/pipes.h"
#include "runtime/timing/replay/stream.h"

namespace mlusim::timing {
namespace {

inline Model::Model(const std::vector<CoreSteps> &input, const std::vector<uint8_t> &complete,
                    const Prices &prices, bool keeps_trace)
    : prices_(prices),
      out_(input.size()),
      replayed_(input.size(), -1),
      bandwidth_(prices.gdram_bytes_per_cycle, prices.cluster_bytes_per_cycle, clusters_of(input)),
      // Each cluster's SRAM port, and no bound above them.
      sram_(clusters_of(input) * prices.sram_bytes_per_cycle, prices.sram_bytes_per_cycle,
            clusters_of(input)) {
  cores_.reserve(input.size());  // one allocation, touched only as far as used
  for (size_t i = 0; i < input.size(); ++i) {
    const CoreSteps &c = input[i];
    const bool traced = c.traced && keeps_trace;
    if (complete[i] && !traced && ends_without_instructions(c, dispatched_at(i), out_[i])) continue;
    add_core(i, c, traced);
  }
  dirty_.assign((cores_.size() + 63) / 64, 0);
  schedule_all();
}

// How many clusters the launch's cores belong to (each has its bandwidth cap).
inline int Model::clusters_of(const std::vector<CoreSteps> &input) {
  int clusters = 1;
  for (const CoreSteps &c : input) clusters = std::max(clusters, c.cluster + 1);
  return clusters;
}

// Core `launch_index` of the launch gets the next replayed index.
inline void Model::add_core(size_t launch_index, const CoreSteps &c, bool traced) {
  replayed_[launch_index] = static_cast<int>(cores_.size());
  launch_index_.push_back(launch_index);
  cores_.emplace_back();
  Core &k = cores_.back();
  k.log = c.steps;
  k.count = 0;
  k.complete = false;
  k.cluster = c.cluster;
  k.traced = traced;
  k.has_scratch = has_scratch(c);
  std::copy(std::begin(c.scratch), std::end(c.scratch), k.scratch);
  k.nram = c.nram;
  k.now = dispatched_at(launch_index);
}

inline bool Model::place(const std::vector<uint8_t> &complete, size_t rounds) {
  take_recorded(complete);
  if (starved_ >= 0) {
    const Core &k = cores_[static_cast<size_t>(starved_)];
    if (k.next == k.count && !k.complete) return true;
    const int core = starved_;
    starved_ = -1;
    run_core(core);
    resolve_dirty();
  }
  // Every round of advance() moves a core or a transfer on; far more rounds
  // than steps can only be a fault of the model itself: stop, say so.
  for (size_t left = rounds; starved_ < 0 && !gave_up_;) {
    if (left-- == 0) return false;
    if (!advance()) return true;
    if (++rounds_ > 64 * recorded_ + 4096) give_up();
  }
  return true;
}

// Every core reads the steps recorded since the last place(), and whether it
// records more.
inline void Model::take_recorded(const std::vector<uint8_t> &complete) {
  for (size_t i = 0; i < cores_.size(); ++i) {
    Core &k = cores_[i];
    recorded_ += k.log->size() - k.count;
    k.count = k.log->size();
    k.steps = k.log->reader();
    k.far = k.log->far_reader();
    k.complete = complete[launch_index_[i]] != 0;
  }
}

// The model made no progress: every core ends where it stands.
inline void Model::give_up() {
  log::runtime().error("timing model: no progress after {} rounds on {} steps; the "
                       "launch's device time is what was reached",
                       rounds_, recorded_);
  for (Core &k : cores_) k.out.finish = std::max(k.out.finish, std::max(k.now, now_));
  gave_up_ = true;
}

inline size_t Model::first_needed(size_t core) const {
  if (replayed_[core] < 0) return std::numeric_limits<size_t>::max();
  const Core &k = cores_[static_cast<size_t>(replayed_[core])];
  if (k.traced) return 0;
  size_t first = k.next;
  for (const PipeRing &q : k.pipe)
    if (q.head() < q.tail()) first = std::min<size_t>(first, q.at(q.head()).index);
  return first;
}

inline std::vector<CoreTiming> Model::results() {
  for (size_t i = 0; i < cores_.size(); ++i)
    if (cores_[i].state != Core::kDone)
      log::runtime().error("timing model: core {} stopped at step {} of {} ({})",
                           launch_index_[i], cores_[i].next, cores_[i].count,
                           cores_[i].state == Core::kAtBarrier ? "at a barrier" : "waiting");
  for (size_t i = 0; i < cores_.size(); ++i) out_[launch_index_[i]] = std::move(cores_[i].out);
  return std::move(out_);
}

}  // namespace

class ReplayState : public Model {
 public:
  using Model::Model;
};

Replay::Replay(const std::vector<CoreSteps> &cores, const Prices &prices, bool keeps_trace)
    : cores_(&cores), prices_(prices), keeps_trace_(keeps_trace) {}

Replay::~Replay() = default;
Replay::Replay(Replay &&) noexcept = default;

bool Replay::place(const std::vector<uint8_t> &complete, size_t rounds) {
  if (state_ == nullptr)
    state_ = std::make_unique<ReplayState>(*cores_, complete, prices_, keeps_trace_);
  return state_->place(complete, rounds);
}

size_t Replay::first_needed(size_t core) const {
  return state_ == nullptr ? 0 : state_->first_needed(core);
}

std::vector<CoreTiming> Replay::finish(const std::vector<uint8_t> &complete) {
  place(complete, std::numeric_limits<size_t>::max());
  return state_->results();
}

}  // namespace mlusim::timing
