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

#include <functional>
#include <string>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

// Runs one task of core c (body) under the recovery point. A fault signal in
// it throws KernelFault naming the address; a watchdog interrupt throws
// KernelFault with the watchdog's report.
void run_guarded(CoreContext &c, const std::function<void()> &body);

// The calling thread is about to run cores: the fault handlers are
// installed and the thread has a signal stack of its own.
void enter_worker();
// The worker thread starts or stops running core c's fiber.
void enter_core(CoreContext &c);
void leave_core(CoreContext &c);

}  // namespace mlusim
