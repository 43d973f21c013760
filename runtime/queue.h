// Queues, notifiers and the reports the cost model produces for them. Queues
// and notifiers live in registries (runtime/handles.h): a destroyed or foreign
// handle is an error, never a crash. A queue may be shared by host threads:
// its clock is atomic, and launch and operator reports are kept per host
// thread, so each thread reads the report of its own last call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "cnrt.h"
#include "mlusim.h"

struct cnrtQueue {
  const uint64_t id;  // never reused, unlike addresses: notifiers compare queues by it
  std::atomic<double> now_us{0};  // simulated device time of everything queued so far
  // Of now_us, the time the queue stood waiting for the host to load a
  // kernel's first launch: host-observed intervals hold it, device time not.
  std::atomic<double> host_wait_us{0};
  // A kernel fault not yet returned by cnrtQueueSync.
  std::atomic<cnrtRet_t> unreported_fault{cnrtSuccess};

  struct Reports {
    mlusimReport_t last_launch{};
    mlusimReport_t last_op{};
  };
  std::mutex reports_mutex;
  std::unordered_map<std::thread::id, Reports> reports;  // per host thread

  cnrtQueue();
};

struct cnrtNotifier {
  std::mutex mutex;       // placing races with reading from another thread
  uint64_t queue_id = 0;  // 0: never placed
  double time_us = 0;
  double host_wait_us = 0;  // the queue's host_wait_us when placed
};

namespace mlusim {

using QueueRef = std::shared_ptr<cnrtQueue>;

// NULL is this host thread's default queue, as in CNRT. Returns nullptr for a
// destroyed or unknown queue. The reference keeps the queue alive.
QueueRef resolve_queue(cnrtQueue_t queue);
cnrtRet_t create_queue(cnrtQueue_t *queue);
cnrtRet_t destroy_queue(cnrtQueue_t queue);
// Everything on the queue is done already; returns a kernel fault once.
cnrtRet_t sync_queue(cnrtQueue_t queue);

cnrtRet_t create_notifier(cnrtNotifier_t *notifier);
cnrtRet_t destroy_notifier(cnrtNotifier_t notifier);
cnrtRet_t place_notifier(cnrtNotifier_t notifier, cnrtQueue_t queue);
// Simulated time from `start` to `end`, both placed on one queue: as the host
// observes it (cnrtNotifierElapsedTime), or the device's time alone, without
// the waits for the host (cnrtNotifierDuration).
cnrtRet_t notifier_interval_us(cnrtNotifier_t start, cnrtNotifier_t end, bool host_observed,
                               double *us);
// Work queued on `queue` from now on starts no earlier than `notifier`'s
// place: the queue's clock moves up to the notifier's time, and its time
// waited for the host up to the notifier queue's (device time on both
// queues agrees).
cnrtRet_t queue_wait_notifier(cnrtQueue_t queue, cnrtNotifier_t notifier);

// A launch of `kernel` on `queue` is about to run: if it is the kernel's first
// in this process, the queue waits `load_us` for the host to load it.
void load_on_first_launch(cnrtQueue &queue, std::string_view kernel, double load_us);
// Every kernel loads again at its next launch (mlusimUnloadKernels).
void unload_kernels();

// Adds a finished launch to its queue (and to this thread's operator call in
// progress on that queue).
void record_launch(cnrtQueue &queue, const mlusimReport_t &launch);
// A launch on `queue` (nullptr if the queue was not live) failed with `ret`:
// it becomes this thread's last CNRT error, and a kernel fault is also
// returned by the queue's next cnrtQueueSync. Returns `ret`.
cnrtRet_t fail_launch(cnrtQueue *queue, cnrtRet_t ret);

// This host thread's last launch or operator report on `queue` (zero if none).
cnrtRet_t last_launch_report(cnrtQueue_t queue, mlusimReport_t *report);
cnrtRet_t last_op_report(cnrtQueue_t queue, mlusimReport_t *report);

// Fills io_efficiency and compute_efficiency from the theory figures, the
// device time and the current device's peaks (mlu-ops' formulas).
void compute_efficiency(mlusimReport_t &report);

}  // namespace mlusim
