// The device time of one launch: a replay of its cores' steps at the model's
// prices, and under MLUSIM_TIMING=bars four more, at both ends of the error
// bar under both tie orders (docs/cost_model.md, runtime/timing/timing_mode.h). A
// long launch's replays place the steps at the scheduler's checkpoints while
// the cores run, and the steps placed are given back to the cores' logs
// (runtime/scheduler.h); what is left is placed when the launch ends.
#pragma once

#include <vector>

#include "runtime/devices.h"
#include "runtime/timing/replay.h"

namespace mlusim::timing {

struct LaunchTiming {
  std::vector<CoreTiming> cores;  // at the model's prices
  double us = 0, low_us = 0, high_us = 0;  // without error bars, low_us = high_us = us
  bool timed = true;                        // false: MLUSIM_TIMING=off, us the launch overhead
  bool error_bars = false;
};

// An untimed launch (MLUSIM_TIMING=off) of `cores` cores: its device time is
// the launch overhead alone, its cores' pipes idle.
LaunchTiming untimed(const DeviceSpec &spec, size_t cores);

class LaunchTimer {
 public:
  // The prices as fitted; the low end and the high end, ties to the lower
  // core; the same, ties to the higher.
  static constexpr int kMaxReplays = 5;

  // `replays`: 1 (the prices as fitted) or kMaxReplays (with the error bar).
  LaunchTimer(std::vector<CoreSteps> cores, const DeviceSpec &spec, int replays);
  LaunchTimer(const LaunchTimer &) = delete;  // the replays point at its cores
  LaunchTimer &operator=(const LaunchTimer &) = delete;

  // At a checkpoint, before the replays: whether core i records no more steps.
  void set_complete(size_t core, bool complete) { complete_[core] = complete; }
  // At a checkpoint: replay r places what the steps recorded so far allow, a
  // slice at a time: false if there is more to place (the host threads take
  // turns at the replays). The replays may run side by side.
  bool place(int r);
  int replays() const { return static_cast<int>(replays_.size()); }
  // The first step of core i any replay may still read.
  size_t first_needed(size_t core) const;
  // Once every core is complete: the launch's timing.
  LaunchTiming finish();

 private:
  size_t recorded() const;

  const DeviceSpec &spec_;
  std::vector<CoreSteps> cores_;
  std::vector<uint8_t> complete_;
  size_t placed_ = 0;  // steps recorded at the last checkpoint
  std::vector<Replay> replays_;
};

}  // namespace mlusim::timing
