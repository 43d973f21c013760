// A time limit per launch, so that no kernel holds the device (and the launch
// lock) forever: an infinite loop, a spin-wait no other core will end, an
// absurd parameter. When a launch outlives it, the watchdog interrupts every
// core still running (a signal to its host thread; runtime/memory_fault.h
// turns it into a fault at the core's recovery point) and the launch fails
// with a report of the unfinished cores and the last intrinsic each issued.
#pragma once

#include <pthread.h>

#include <atomic>
#include <string>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

// The signal the watchdog sends to interrupt a core (runtime/memory_fault.h
// turns it into the core's fault).
int watchdog_signal();

// What the watchdog sees of one physical core during a launch.
struct CoreWatch {
  enum State : int { kNotStarted, kInTask, kBetweenTasks };
  std::atomic<int> state{kNotStarted};
  std::atomic<int> task{-1};
  std::atomic<bool> on_thread{false};  // its fiber is running on `thread` now
  // Stopped while the timing model places its steps (runtime/scheduler.h):
  // still running its task, as far as the kernel can tell.
  std::atomic<bool> at_checkpoint{false};
  pthread_t thread{};
  std::atomic<bool> interrupt{false};  // the watchdog asks it to stop
  std::atomic<CoreContext *> ctx{nullptr};
};
CoreWatch &core_watch(int physical_core);
// Forgets the previous launch's states (cores 0..count-1).
void reset_core_watch(int count);

// Seconds a launch may run on the host; 0 for no limit. Starts from
// MLUSIM_WATCHDOG_SECONDS (default 60).
double watchdog_seconds();
bool set_watchdog_seconds(double seconds);

// Watches one launch while alive: `cores` compute cores, numbered first, then
// the memory cores of a UNION launch, one per cluster. Launch lock held.
class WatchdogScope {
 public:
  WatchdogScope(const char *kernel, int cores, int memory_cores, int cores_per_cluster);
  ~WatchdogScope();
  WatchdogScope(const WatchdogScope &) = delete;
  WatchdogScope &operator=(const WatchdogScope &) = delete;
};

// The report of the launch the watchdog stopped, for the interrupted cores' faults.
std::string watchdog_report();

}  // namespace mlusim
