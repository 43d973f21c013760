#include "runtime/queue.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "runtime/device_spec.h"
#include "runtime/logging.h"

namespace mlusim {
namespace {

std::mutex g_queues_mutex;
std::set<const cnrtQueue *> g_queues;

cnrtQueue &default_queue() {
  static cnrtQueue q;
  return q;
}

void add_into(mlusimReport_t &total, const mlusimReport_t &r) {
  total.launches += r.launches;
  total.device_time_us += r.device_time_us;
  for (int d = 0; d < MLUSIM_DIRECTION_COUNT; ++d) total.bytes_moved[d] += r.bytes_moved[d];
  total.gdram_bytes += r.gdram_bytes;
  total.vector_ops_float += r.vector_ops_float;
  total.vector_ops_half += r.vector_ops_half;
  total.vector_ops_int += r.vector_ops_int;
  total.atomic_elements += r.atomic_elements;
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

}  // namespace

cnrtQueue *resolve_queue(cnrtQueue_t queue) {
  if (queue == nullptr) return &default_queue();
  std::lock_guard<std::mutex> lock(g_queues_mutex);
  return g_queues.count(queue) != 0 ? queue : nullptr;
}

cnrtRet_t create_queue(cnrtQueue_t *queue) {
  if (queue == nullptr) return cnrtErrorArgsInvalid;
  auto *q = new cnrtQueue();
  std::lock_guard<std::mutex> lock(g_queues_mutex);
  g_queues.insert(q);
  *queue = q;
  return cnrtSuccess;
}

cnrtRet_t destroy_queue(cnrtQueue_t queue) {
  std::lock_guard<std::mutex> lock(g_queues_mutex);
  if (g_queues.erase(queue) == 0) {
    log::runtime().error("cnrtQueueDestroy: {} is not a live queue", static_cast<void *>(queue));
    return cnrtErrorInvalidQueue;
  }
  delete queue;
  return cnrtSuccess;
}

void record_launch(cnrtQueue &queue, const mlusimReport_t &launch) {
  queue.now_us += launch.device_time_us;
  queue.last_launch = launch;
  if (queue.open_op != nullptr) add_into(*queue.open_op, launch);
}

void compute_efficiency(mlusimReport_t &r) {
  const DeviceSpec &spec = current_device();
  double seconds = r.device_time_us * 1e-6;
  r.io_efficiency = (r.theory_io_bytes > 0 && seconds > 0)
                        ? r.theory_io_bytes / (seconds * spec.gdram_gbps * 1e9)
                        : -1;
  r.compute_efficiency = (r.theory_ops > 0 && seconds > 0)
                             ? r.theory_ops / (seconds * mlusimPeakOpsPerSecond(r.theory_dtype))
                             : -1;
}

OpScope::OpScope(cnrtQueue_t queue, const char *name, double theory_io_bytes, double theory_ops,
                 int theory_dtype)
    : queue_(resolve_queue(queue)) {
  std::snprintf(report_.name, sizeof(report_.name), "%s", name);
  report_.theory_io_bytes = theory_io_bytes;
  report_.theory_ops = theory_ops;
  report_.theory_dtype = theory_dtype;
  if (queue_ != nullptr) queue_->open_op = &report_;
}

OpScope::~OpScope() {
  if (queue_ == nullptr) return;
  queue_->open_op = nullptr;
  compute_efficiency(report_);
  queue_->last_op = report_;
  log::op().debug("{}: {:.2f} us on {}, IO efficiency {:.1f}%, compute efficiency {:.1f}%",
                  report_.name, report_.device_time_us, current_device().name,
                  100 * report_.io_efficiency, 100 * report_.compute_efficiency);
}

}  // namespace mlusim
