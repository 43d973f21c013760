#include "runtime/timing/launch_timing.h"

#include <omp.h>

#include <algorithm>

#include "runtime/team.h"
#include "runtime/timing/prices.h"

namespace mlusim::timing {
namespace {

// The replays: the prices as fitted, then the error bar's ends, each under
// both tie orders (Prices::higher_core_first).
struct ReplayChoice {
  Estimates estimates;
  bool higher_core_first;
};
constexpr ReplayChoice kReplays[LaunchTimer::kMaxReplays] = {
    {Estimates::kAsFitted, false}, {Estimates::kLow, false}, {Estimates::kHigh, false},
    {Estimates::kLow, true},       {Estimates::kHigh, true}};

Prices prices_for(const DeviceSpec &spec, const ReplayChoice &choice) {
  Prices p = prices_of(spec, choice.estimates);
  p.higher_core_first = choice.higher_core_first;
  return p;
}

// Below this many steps left to place, the replays finish one after the
// other: waking more host threads (some 25 us) would cost more than they
// save (about 35 ns a step on the 2-core VM, where three replays cost some
// 75 ns a step in a row). The ten network cases gained 3-10 % at 2,000
// against 20,000.
constexpr size_t kStepsWorthThreads = 2000;

// A slice of a replay at a checkpoint, some 50-100 us of host time: short, as
// a checkpoint ends with one worker on the last slice and the other idle.
constexpr size_t kRoundsPerSlice = 500;

// One replay's device time: its last core's finish plus the launch overhead,
// both at the same estimates.
double device_time_us(const std::vector<CoreTiming> &cores, const DeviceSpec &spec,
                      Estimates estimates) {
  double finish = 0;
  for (const CoreTiming &c : cores) finish = std::max(finish, c.finish);
  return finish / (spec.clock_ghz * 1e3) + launch_overhead_us(spec, estimates);
}

}  // namespace

LaunchTiming untimed(const DeviceSpec &spec, size_t cores) {
  LaunchTiming t;
  t.cores.resize(cores);
  t.us = t.low_us = t.high_us = launch_overhead_us(spec, Estimates::kAsFitted);
  t.timed = false;
  return t;
}

// Only the first replay keeps trace events.
LaunchTimer::LaunchTimer(std::vector<CoreSteps> cores, const DeviceSpec &spec, int replays)
    : spec_(spec), cores_(std::move(cores)), complete_(cores_.size()) {
  replays_.reserve(static_cast<size_t>(replays));
  for (int r = 0; r < replays; ++r)
    replays_.emplace_back(cores_, prices_for(spec, kReplays[r]), r == 0);
}

size_t LaunchTimer::recorded() const {
  size_t steps = 0;
  for (const CoreSteps &c : cores_) steps += c.steps->size();
  return steps;
}

bool LaunchTimer::place(int r) {
  if (r == 0) placed_ = recorded();  // the cores wait: no step comes meanwhile
  return replays_[static_cast<size_t>(r)].place(complete_, kRoundsPerSlice);
}

size_t LaunchTimer::first_needed(size_t core) const {
  size_t first = cores_[core].steps->size();
  for (const Replay &r : replays_) first = std::min(first, r.first_needed(core));
  return first;
}

LaunchTiming LaunchTimer::finish() {
  std::fill(complete_.begin(), complete_.end(), 1);
  LaunchTiming t;
  const int replays = this->replays();
  double us[kMaxReplays];
  // No more threads than the host gives OpenMP: five replays take turns on them.
  const bool worth_threads = recorded() - placed_ >= kStepsWorthThreads;
  run_each(static_cast<size_t>(replays), worth_threads ? omp_get_max_threads() : 1, [&](size_t r) {
    std::vector<CoreTiming> cores = replays_[r].finish(complete_);
    us[r] = device_time_us(cores, spec_, kReplays[r].estimates);
    if (r == 0) t.cores = std::move(cores);  // the first keeps the trace events
  });
  // The bar spans every replay: where atomics contend, an estimate at its
  // unfavourable end can reorder them into a shorter launch.
  t.us = us[0];
  t.low_us = *std::min_element(us, us + replays);
  t.high_us = *std::max_element(us, us + replays);
  t.error_bars = replays == kMaxReplays;
  return t;
}

}  // namespace mlusim::timing
