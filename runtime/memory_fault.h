// Kernel code that touches memory the device would not let it touch (a guard
// page, the NRAM the device reserves, a freed GDRAM allocation) raises SIGSEGV
// or SIGBUS on the host. When that happens on a simulated core's fiber, the
// signal handler jumps back to a recovery point set at the start of the task
// and the core faults like any other broken rule, naming the address and what
// lies there; the host process survives. The watchdog stops a core stuck in a
// loop the same way, with a signal sent to the host thread running it.
// Outside kernel code the signal keeps its ordinary meaning (default action,
// or a handler installed before ours).
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

// The signal the watchdog sends to interrupt a core.
int watchdog_signal();

// Runs one task of core c (body) under the recovery point. A fault signal in
// it throws KernelFault naming the address; a watchdog interrupt throws
// KernelFault with the watchdog's report.
void run_guarded(CoreContext &c, const std::function<void()> &body);

// The worker thread starts or stops running core c's fiber.
void enter_core(CoreContext &c);
void leave_core(CoreContext &c);

// What the watchdog sees of one physical core during a launch.
struct CoreWatch {
  enum State : int { kNotStarted, kInTask, kBetweenTasks };
  std::atomic<int> state{kNotStarted};
  std::atomic<int> task{-1};
  std::atomic<bool> on_thread{false};  // its fiber is running on `thread` now
  pthread_t thread{};
  std::atomic<bool> interrupt{false};  // the watchdog asks it to stop
  std::atomic<CoreContext *> ctx{nullptr};
};
CoreWatch &core_watch(int physical_core);
// Forgets the previous launch's states (cores 0..count-1).
void reset_core_watch(int count);

// Launches begun since the process started: lets messages say when a GDRAM
// allocation was freed.
uint64_t launch_serial();
void count_launch();

}  // namespace mlusim
