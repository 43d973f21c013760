#include "runtime/queue.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "runtime/devices.h"
#include "runtime/handles.h"
#include "runtime/last_error.h"
#include "runtime/logging.h"
#include "runtime/operator_kit.h"
#include "runtime/trace/trace.h"

namespace {
std::atomic<uint64_t> g_next_queue_id{1};
}  // namespace

cnrtQueue::cnrtQueue() : id(g_next_queue_id.fetch_add(1)) {}

namespace mlusim {
namespace {

HandleRegistry<cnrtQueue> &queues() {
  static HandleRegistry<cnrtQueue> registry;
  return registry;
}

HandleRegistry<cnrtNotifier> &notifiers() {
  static HandleRegistry<cnrtNotifier> registry;
  return registry;
}

// This host thread's operator call in progress (OpScope), if any.
struct OpenOp {
  const cnrtQueue *queue = nullptr;
  mlusimReport_t *report = nullptr;
};
thread_local OpenOp t_open_op;

void add_into(mlusimReport_t &total, const mlusimReport_t &r) {
  // A call is timed, and has error bars, when every launch of it has.
  const bool first = total.launches == 0;
  total.timed = first ? r.timed : total.timed & r.timed;
  total.error_bars = first ? r.error_bars : total.error_bars & r.error_bars;
  total.launches += r.launches;
  total.device_time_us += r.device_time_us;
  total.device_time_us_low += r.device_time_us_low;
  total.device_time_us_high += r.device_time_us_high;
  for (int d = 0; d < MLUSIM_DIRECTION_COUNT; ++d) total.bytes_moved[d] += r.bytes_moved[d];
  total.gdram_bytes += r.gdram_bytes;
  total.vector_ops_float += r.vector_ops_float;
  total.vector_ops_half += r.vector_ops_half;
  total.vector_ops_int += r.vector_ops_int;
  total.atomic_elements += r.atomic_elements;
  total.hazards_resolved += r.hazards_resolved;
  // Per-core entries add up by position; a call mixing launch shapes mixes cores.
  total.cores = std::max(total.cores, r.cores);
  total.memory_cores = std::max(total.memory_cores, r.memory_cores);
  for (int i = 0; i < r.cores + r.memory_cores; ++i) {
    total.core_io_busy_us[i] += r.core_io_busy_us[i];
    total.core_compute_busy_us[i] += r.core_compute_busy_us[i];
    for (int p = 0; p < MLUSIM_PIPE_COUNT; ++p)
      total.core_pipe_busy_us[i][p] += r.core_pipe_busy_us[i][p];
  }
}

cnrtQueue::Reports &reports_of_this_thread(cnrtQueue &q) {
  return q.reports[std::this_thread::get_id()];  // caller holds q.reports_mutex
}

// Where and when a notifier was last placed (queue id 0: never), and the
// time its queue had waited for the host by then.
struct Placement {
  uint64_t queue_id;
  double time_us, host_wait_us;
};
Placement placement(cnrtNotifier &n) {
  std::lock_guard<std::mutex> lock(n.mutex);
  return {n.queue_id, n.time_us, n.host_wait_us};
}

// Moves `clock` up to `to` unless it is there already; true if it moved.
bool raise_to(std::atomic<double> &clock, double to) {
  double now = clock.load();
  while (now < to && !clock.compare_exchange_weak(now, to)) {
  }
  return now < to;
}

// The kernels this process has launched, by name: the host loaded them.
// Looked up by the launch's name as it is, with no copy (std::less<>).
struct LoadedKernels {
  std::mutex mutex;
  std::set<std::string, std::less<>> names;
};
LoadedKernels &loaded_kernels() {
  static LoadedKernels loaded;
  return loaded;
}

cnrtRet_t copy_report(cnrtQueue_t queue, mlusimReport_t *report,
                      mlusimReport_t cnrtQueue::Reports::*which, const char *api) {
  const QueueRef q = resolve_queue(queue);
  if (q == nullptr) {
    log::runtime().error("{}: {} is not a live queue", api, static_cast<void *>(queue));
    return cnrtErrorInvalidQueue;
  }
  if (report == nullptr) {
    log::runtime().error("{}: null report pointer", api);
    return cnrtErrorArgsInvalid;
  }
  std::lock_guard<std::mutex> lock(q->reports_mutex);
  *report = reports_of_this_thread(*q).*which;
  return cnrtSuccess;
}

}  // namespace

QueueRef resolve_queue(cnrtQueue_t queue) {
  if (queue == nullptr) {
    thread_local const QueueRef default_queue = std::make_shared<cnrtQueue>();
    return default_queue;
  }
  return queues().find(queue);
}

cnrtRet_t create_queue(cnrtQueue_t *queue) {
  if (queue == nullptr) {
    log::runtime().error("cnrtQueueCreate: null output pointer");
    return cnrtErrorArgsInvalid;
  }
  *queue = queues().create();
  return cnrtSuccess;
}

cnrtRet_t destroy_queue(cnrtQueue_t queue) {
  if (!queues().destroy(queue)) {
    log::runtime().error("cnrtQueueDestroy: {} is not a live queue (destroyed already, the "
                         "default queue, or never created)",
                         static_cast<void *>(queue));
    return cnrtErrorInvalidQueue;
  }
  return cnrtSuccess;
}

cnrtRet_t sync_queue(cnrtQueue_t queue) {
  const QueueRef q = resolve_queue(queue);
  if (q == nullptr) {
    log::runtime().error("cnrtQueueSync: {} is not a live queue", static_cast<void *>(queue));
    return cnrtErrorInvalidQueue;
  }
  const cnrtRet_t fault = q->unreported_fault.exchange(cnrtSuccess);
  if (fault != cnrtSuccess)
    log::runtime().error("cnrtQueueSync: a kernel on queue {} faulted (see mlusimGetLastError "
                         "on the launching thread)",
                         static_cast<void *>(queue));
  return fault;
}

cnrtRet_t create_notifier(cnrtNotifier_t *notifier) {
  if (notifier == nullptr) {
    log::runtime().error("cnrtNotifierCreate: null output pointer");
    return cnrtErrorArgsInvalid;
  }
  *notifier = notifiers().create();
  return cnrtSuccess;
}

cnrtRet_t destroy_notifier(cnrtNotifier_t notifier) {
  if (!notifiers().destroy(notifier)) {
    log::runtime().error("cnrtNotifierDestroy: {} is not a live notifier (destroyed already, or "
                         "never created)",
                         static_cast<void *>(notifier));
    return cnrtErrorInvalidNotifier;
  }
  return cnrtSuccess;
}

cnrtRet_t place_notifier(cnrtNotifier_t notifier, cnrtQueue_t queue) {
  const std::shared_ptr<cnrtNotifier> n = notifiers().find(notifier);
  const QueueRef q = resolve_queue(queue);
  if (n == nullptr || q == nullptr) {
    log::runtime().error("cnrtPlaceNotifier: {} {} is not live",
                         n == nullptr ? "notifier" : "queue",
                         n == nullptr ? static_cast<void *>(notifier) : static_cast<void *>(queue));
    return n == nullptr ? cnrtErrorInvalidNotifier : cnrtErrorInvalidQueue;
  }
  std::lock_guard<std::mutex> lock(n->mutex);
  n->queue_id = q->id;
  n->time_us = q->now_us.load();
  n->host_wait_us = q->host_wait_us.load();
  return cnrtSuccess;
}

cnrtRet_t notifier_interval_us(cnrtNotifier_t start, cnrtNotifier_t end, bool host_observed,
                               double *us) {
  const std::shared_ptr<cnrtNotifier> s = notifiers().find(start), e = notifiers().find(end);
  if (s == nullptr || e == nullptr) {
    log::runtime().error("notifier {} is not live",
                         static_cast<void *>(s == nullptr ? start : end));
    return cnrtErrorInvalidNotifier;
  }
  const Placement from = placement(*s), to = placement(*e);
  if (from.queue_id == 0 || from.queue_id != to.queue_id) {
    log::runtime().error("notifiers {} and {} are not both placed on one queue",
                         static_cast<void *>(start), static_cast<void *>(end));
    return cnrtErrorInvalidNotifier;
  }
  *us = to.time_us - from.time_us;
  if (!host_observed) *us -= to.host_wait_us - from.host_wait_us;
  return cnrtSuccess;
}

cnrtRet_t queue_wait_notifier(cnrtQueue_t queue, cnrtNotifier_t notifier) {
  const std::shared_ptr<cnrtNotifier> n = notifiers().find(notifier);
  const QueueRef q = resolve_queue(queue);
  if (n == nullptr || q == nullptr) {
    log::runtime().error("cnrtQueueWaitNotifier: {} {} is not live",
                         n == nullptr ? "notifier" : "queue",
                         n == nullptr ? static_cast<void *>(notifier) : static_cast<void *>(queue));
    return n == nullptr ? cnrtErrorInvalidNotifier : cnrtErrorInvalidQueue;
  }
  const Placement placed = placement(*n);
  if (placed.queue_id == 0) return cnrtSuccess;  // never placed: nothing to wait for
  // A queue that stood still as long as the other did stood still as long
  // for the host too.
  if (raise_to(q->now_us, placed.time_us)) raise_to(q->host_wait_us, placed.host_wait_us);
  return cnrtSuccess;
}

void load_on_first_launch(cnrtQueue &queue, std::string_view kernel, double load_us) {
  LoadedKernels &loaded = loaded_kernels();
  {
    std::lock_guard<std::mutex> lock(loaded.mutex);
    const auto at = loaded.names.lower_bound(kernel);
    if (at != loaded.names.end() && *at == kernel) return;
    loaded.names.emplace_hint(at, kernel);
  }
  queue.now_us += load_us;
  queue.host_wait_us += load_us;
}

void unload_kernels() {
  LoadedKernels &loaded = loaded_kernels();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  loaded.names.clear();
}

void record_launch(cnrtQueue &queue, const mlusimReport_t &launch) {
  queue.now_us += launch.device_time_us;
  {
    std::lock_guard<std::mutex> lock(queue.reports_mutex);
    reports_of_this_thread(queue).last_launch = launch;
  }
  if (t_open_op.queue == &queue) add_into(*t_open_op.report, launch);
}

cnrtRet_t fail_launch(cnrtQueue *queue, cnrtRet_t ret) {
  if (queue != nullptr && ret == cnrtErrorKernelFault) queue->unreported_fault = ret;
  return note_error(ret);
}

cnrtRet_t last_launch_report(cnrtQueue_t queue, mlusimReport_t *report) {
  return copy_report(queue, report, &cnrtQueue::Reports::last_launch, "mlusimGetLastLaunchReport");
}

cnrtRet_t last_op_report(cnrtQueue_t queue, mlusimReport_t *report) {
  return copy_report(queue, report, &cnrtQueue::Reports::last_op, "mlusimGetLastOpReport");
}

void compute_efficiency(mlusimReport_t &r) {
  const DeviceSpec &spec = current_device();
  const auto io = [&](double us) {
    return r.theory_io_bytes > 0 && us > 0 ? r.theory_io_bytes / (us * 1e-6 * spec.gdram_gbps * 1e9)
                                           : -1;
  };
  const auto compute = [&](double us) {
    return r.theory_ops > 0 && us > 0
               ? r.theory_ops / (us * 1e-6 * mlusimPeakOpsPerSecond(r.theory_dtype))
               : -1;
  };
  // A longer time is a lower efficiency.
  r.io_efficiency = io(r.device_time_us);
  r.io_efficiency_low = io(r.device_time_us_high);
  r.io_efficiency_high = io(r.device_time_us_low);
  r.compute_efficiency = compute(r.device_time_us);
  r.compute_efficiency_low = compute(r.device_time_us_high);
  r.compute_efficiency_high = compute(r.device_time_us_low);
}

bool queue_is_live(cnrtQueue_t queue) { return resolve_queue(queue) != nullptr; }

OpScope::OpScope(cnrtQueue_t queue, const char *name, double theory_io_bytes, double theory_ops,
                 int theory_dtype)
    : queue_(resolve_queue(queue)) {
  std::snprintf(report_.name, sizeof(report_.name), "%s", name);
  report_.theory_io_bytes = theory_io_bytes;
  report_.theory_ops = theory_ops;
  report_.theory_dtype = theory_dtype;
  if (queue_ != nullptr) t_open_op = OpenOp{queue_.get(), &report_};
  trace::op_begin();
}

OpScope::~OpScope() {
  if (queue_ == nullptr) return;
  t_open_op = OpenOp{};
  compute_efficiency(report_);
  {
    std::lock_guard<std::mutex> lock(queue_->reports_mutex);
    reports_of_this_thread(*queue_).last_op = report_;
  }
  trace::op_end(report_);
  log::op().debug("{}: {:.2f} us on {}, IO efficiency {:.1f}%, compute efficiency {:.1f}%",
                  report_.name, report_.device_time_us, current_device().name,
                  100 * report_.io_efficiency, 100 * report_.compute_efficiency);
}

}  // namespace mlusim
