#include "runtime/scheduler.h"

#include <omp.h>

#include <algorithm>

#include <spdlog/fmt/fmt.h>

#include "runtime/memory_fault.h"

namespace mlusim {
namespace {

constexpr size_t kFiberStackBytes = size_t{1} << 20;

// Fiber stacks outlive launches (launches are serialised by the caller).
Fiber *pooled_fiber(size_t index) {
  static std::vector<std::unique_ptr<Fiber>> pool;
  while (pool.size() <= index) pool.push_back(std::make_unique<Fiber>(kFiberStackBytes));
  return pool[index].get();
}

}  // namespace

Scheduler::Scheduler(std::vector<CoreContext> &cores, int cores_per_unit, int cores_per_cluster)
    : cores_(cores.size()),
      clusters_((cores.size() + cores_per_cluster - 1) / cores_per_cluster),
      cores_per_unit_(cores_per_unit),
      units_(static_cast<int>((cores.size() + cores_per_unit - 1) / cores_per_unit)) {
  for (size_t i = 0; i < cores.size(); ++i) {
    cores_[i].ctx = &cores[i];
    cores_[i].fiber = pooled_fiber(i);
    clusters_[i / cores_per_cluster].participants++;
  }
  all_.participants = static_cast<int>(cores.size());
}

std::string Scheduler::run(const std::function<void(CoreContext &)> &core_main) {
  const int workers = std::max(1, std::min(units_, omp_get_max_threads()));
  alive_workers_ = workers;
#pragma omp parallel num_threads(workers)
  work(core_main);
  return first_fault_;
}

void Scheduler::work(const std::function<void(CoreContext &)> &core_main) {
  std::vector<Core *> mine;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    auto ready = std::find_if(mine.begin(), mine.end(),
                              [](Core *k) { return k->state == Core::kReady; });
    if (ready == mine.end() && next_unit_ < units_ && !aborted()) {
      const int unit = next_unit_++;  // claim a cluster (or core) for this worker
      for (int i = unit * cores_per_unit_;
           i < std::min<int>((unit + 1) * cores_per_unit_, static_cast<int>(cores_.size())); ++i) {
        Core &k = cores_[i];
        k.fiber->reset([&core_main, &k] { core_main(*k.ctx); });
        mine.push_back(&k);
      }
      continue;
    }
    if (ready == mine.end()) {
      const bool mine_done = std::all_of(mine.begin(), mine.end(),
                                         [](Core *k) { return k->state == Core::kDone; });
      if (mine_done && (next_unit_ >= units_ || aborted())) {
        --alive_workers_;
        if (alive_workers_ > 0 && idle_workers_ == alive_workers_) declare_deadlock();
        return;
      }
      if (++idle_workers_ == alive_workers_)
        declare_deadlock();  // nobody is running: the parked cores can never be released
      else
        wake_.wait(lock);
      --idle_workers_;
      continue;
    }
    Core &core = **ready;
    lock.unlock();
    enter_core(*core.ctx);
    const bool finished = core.fiber->resume();
    leave_core(*core.ctx);
    lock.lock();
    if (finished)
      on_finished(core);
    else
      on_parked(core);
  }
}

void Scheduler::on_parked(Core &core) {
  Barrier &b = *core.parked_at;
  core.parked_at = nullptr;
  if (aborted()) {
    core.wake_fault = "launch aborted by a fault on another core";
    return;  // stays ready: it resumes only to unwind
  }
  if (b.finished > 0) {
    core.wake_fault = fmt::format(
        "{} of {} cores already finished the kernel without reaching it; this barrier can "
        "never complete (a deadlock on hardware)",
        b.finished, b.participants);
    return;
  }
  core.state = Core::kParked;
  b.waiting.push_back(&core);
  b.latest_arrival = std::max(b.latest_arrival, core.arrival);
  if (static_cast<int>(b.waiting.size()) < b.participants) return;
  for (Core *k : b.waiting) {
    k->release = b.latest_arrival;
    k->state = Core::kReady;
  }
  b.waiting.clear();
  b.latest_arrival = 0;
  wake_.notify_all();  // a union-wide barrier may release other workers' cores
}

void Scheduler::on_finished(Core &core) {
  core.state = Core::kDone;
  for (Barrier *b : {&clusters_[core.ctx->physical_cluster], &all_}) {
    ++b->finished;
    wake_with_fault(*b, fmt::format("{} of {} cores finished the kernel while this core waited; "
                                    "this barrier can never complete (a deadlock on hardware)",
                                    b->finished, b->participants));
  }
}

void Scheduler::wake_with_fault(Barrier &b, const std::string &why) {
  if (b.waiting.empty()) return;
  for (Core *k : b.waiting) {
    k->wake_fault = why;
    k->state = Core::kReady;
  }
  b.waiting.clear();
  wake_.notify_all();
}

void Scheduler::declare_deadlock() {
  const std::string why =
      "every unfinished core waits at a barrier that cannot complete (a deadlock on hardware)";
  for (Barrier &b : clusters_) wake_with_fault(b, why);
  wake_with_fault(all_, why);
}

void Scheduler::report_fault(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (first_fault_.empty()) first_fault_ = message;
  aborted_ = true;
  const std::string why = "launch aborted by a fault on another core";
  for (Barrier &b : clusters_) wake_with_fault(b, why);
  wake_with_fault(all_, why);
}

void Scheduler::barrier(CoreContext &c, bool whole_launch, const char *op) {
  Core &me = cores_[c.physical_core];
  me.parked_at = whole_launch ? &all_ : &clusters_[c.physical_cluster];
  me.arrival = c.now;
  me.wake_fault.clear();
  Fiber::park();  // the worker records the arrival once this core is off its stack
  if (!me.wake_fault.empty()) detail::fault(c, fmt::format("{}: {}", op, me.wake_fault));
  c.now = me.release + c.cost.barrier_latency;
}

}  // namespace mlusim
