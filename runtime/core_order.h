// The order in which a launch runs its simulated cores. By default the
// clusters are spread over OpenMP workers (fast, but two runs of a racy kernel
// may differ). A chosen order runs the launch on one worker, so its outcome is
// reproducible: `ordered` (cluster 0 first, its cores in order), `reverse`, or
// `random:<seed>` (clusters shuffled, and at every barrier and task end the
// next core to run is drawn). Every fault report names the order.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace mlusim {

struct Schedule {
  enum class Order { kParallel, kOrdered, kReverse, kRandom };
  Order order = Order::kParallel;
  uint64_t seed = 0;  // kRandom only

  bool reproducible() const { return order != Order::kParallel; }
  // "ordered", "reverse", "random:42" (what MLUSIM_SCHEDULE accepts), "parallel".
  std::string name() const;
};

// Parses one order; "random" alone draws a seed. Returns false if malformed.
bool parse_schedule(std::string_view text, Schedule *out);

// MLUSIM_SCHEDULE: the order of every launch (parallel when unset; a malformed
// value is a settings problem, runtime/settings.h).
Schedule launch_schedule();

// MLUSIM_SCHEDULES: a comma-separated list of orders ("ordered,reverse,random:7").
// When set, each launch runs once per order from the same GDRAM contents and
// fails if their outputs differ. Empty when unset or malformed (a settings problem).
std::vector<Schedule> schedules_to_compare();

// Picks, among the cores a worker holds, the next one to run.
class CorePicker {
 public:
  explicit CorePicker(const Schedule &s) : schedule_(s) {
    if (s.order == Schedule::Order::kRandom) rng_.emplace(s.seed);
  }
  // A chosen order runs the whole launch on one worker.
  bool one_worker() const { return schedule_.reproducible(); }
  // Index into `ready` (non-empty) of the core to run next.
  size_t pick(size_t ready_count);
  // Reorders the units (clusters, or cores of a BLOCK launch) a worker claims.
  void order_units(std::vector<std::vector<int>> &units);

 private:
  Schedule schedule_;
  // Random orders only: seeding one fills 312 words, a fifth of the
  // scheduler's set-up in a launch that does not use it.
  std::optional<std::mt19937_64> rng_;
};

}  // namespace mlusim
