// Queues, notifiers and the reports the cost model produces for them.
#pragma once

#include <string>

#include "cnrt.h"
#include "mlusim.h"

struct cnrtQueue {
  double now_us = 0;  // simulated device time of everything queued so far
  mlusimReport_t last_launch{};
  mlusimReport_t last_op{};
  mlusimReport_t *open_op = nullptr;  // the operator call in progress, if any
};

struct cnrtNotifier {
  const cnrtQueue *queue = nullptr;
  double time_us = 0;
};

namespace mlusim {

// NULL is the default queue, as in CNRT. Returns nullptr for a destroyed or
// unknown queue.
cnrtQueue *resolve_queue(cnrtQueue_t queue);
cnrtRet_t create_queue(cnrtQueue_t *queue);
cnrtRet_t destroy_queue(cnrtQueue_t queue);

// Adds a finished launch to its queue (and to the operator call in progress).
void record_launch(cnrtQueue &queue, const mlusimReport_t &launch);

// Fills io_efficiency and compute_efficiency from the theory figures, the
// device time and the current device's peaks (mlu-ops' formulas).
void compute_efficiency(mlusimReport_t &report);

// Brackets one operator call: every launch inside it is summed into the
// queue's last_op report together with the operator's theory figures.
class OpScope {
 public:
  OpScope(cnrtQueue_t queue, const char *name, double theory_io_bytes, double theory_ops,
          int theory_dtype);
  ~OpScope();
  OpScope(const OpScope &) = delete;
  OpScope &operator=(const OpScope &) = delete;

 private:
  cnrtQueue *queue_;
  mlusimReport_t report_{};
};

}  // namespace mlusim
