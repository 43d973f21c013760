// What an operator library built on the simulator (ops/ and cnnl/) takes
// from the runtime, through this one header: an operator call's report
// (OpScope), whether a queue is live, the current device and its usable
// sizes (runtime/devices.h), whether device memory lies in an allocation
// (runtime/gdram.h), registries of live handles (runtime/handles.h) and the
// operators' logger (runtime/logging.h). The rest of the runtime is not
// theirs to reach.
#pragma once

#include <memory>

#include "cnrt.h"
#include "mlusim.h"
#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/handles.h"
#include "runtime/logging.h"

namespace mlusim {

// NULL (the calling thread's default queue) or a queue not destroyed.
bool queue_is_live(cnrtQueue_t queue);

// Brackets one operator call on this host thread: every launch the thread
// makes on the queue inside it is summed into the thread's last_op report on
// that queue, together with the operator's theory figures.
class OpScope {
 public:
  OpScope(cnrtQueue_t queue, const char *name, double theory_io_bytes, double theory_ops,
          int theory_dtype);
  ~OpScope();
  OpScope(const OpScope &) = delete;
  OpScope &operator=(const OpScope &) = delete;

 private:
  std::shared_ptr<cnrtQueue> queue_;  // null when the queue was not live
  mlusimReport_t report_{};
};

}  // namespace mlusim
