#include "runtime/scheduler.h"

#include <omp.h>

#include <algorithm>
#include <chrono>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/issue.h"
#include "runtime/memory_fault.h"
#include "runtime/race_check.h"
#include "runtime/team.h"
#include "runtime/watchdog.h"

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

Scheduler::Scheduler(std::vector<CoreContext> &cores, std::vector<std::vector<int>> units,
                     int union_clusters, const Schedule &schedule)
    : cores_(cores.size()),
      units_(std::move(units)),
      union_clusters_(union_clusters),
      picker_(schedule) {
  picker_.order_units(units_);
  int clusters = 0;
  for (const CoreContext &c : cores) clusters = std::max(clusters, c.physical_cluster + 1);
  const int unions = union_clusters > 0 ? (clusters + union_clusters - 1) / union_clusters : 0;
  clusters_.resize(clusters);
  cluster_ipus_.resize(clusters);
  task_ends_.resize(clusters);
  for (Barrier &b : task_ends_) b.orders_memory = false;
  unions_.resize(unions);
  union_ipus_.resize(unions);
  for (size_t i = 0; i < cores.size(); ++i) {
    Core &k = cores_[i];
    k.ctx = &cores[i];
    k.fiber = pooled_fiber(i);
    k.barrier_count = barriers_of(*k.ctx, k.barriers);
    for (int n = 0; n < k.barrier_count; ++n) ++k.barriers[n]->participants;
  }
}

int Scheduler::team_size() const {
  if (picker_.one_worker()) return 1;
  return std::max(1, std::min(static_cast<int>(units_.size()), omp_get_max_threads()));
}

std::string Scheduler::run(const std::function<void(CoreContext &)> &core_main,
                           bool on_one_worker, Checkpoint *checkpoint) {
  checkpoint_ = checkpoint;
  const auto from = std::chrono::steady_clock::now();
  const int workers = on_one_worker ? 1 : team_size();
  if (workers == 1) {
    // No OpenMP region, not even an inactive one: entering one wakes the
    // pool's idle threads (a futex call per launch) to tell them to stay idle.
    alive_workers_ = workers_ = 1;
    work(core_main);
  } else {
#pragma omp parallel num_threads(workers)
    {
      {
        // The team may be smaller than asked (nested inside the caller's parallel
        // region, or a thread limit): deadlock detection counts the real one.
        std::lock_guard<std::mutex> lock(mutex_);
        if (alive_workers_ < 0) alive_workers_ = workers_ = omp_get_num_threads();
      }
      work(core_main);
    }
  }
  wall_ns_ = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - from)
                 .count();
  return first_fault_;
}

void Scheduler::work(const std::function<void(CoreContext &)> &core_main) {
  enter_worker();
  // The worker's busy time is its whole stay here less its waits: two clock
  // reads per worker, not two per fiber switch.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point arrived = Clock::now();
  std::chrono::duration<double, std::nano> waited{0};
  std::vector<Core *> mine;
  mine.reserve(cores_.size());
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (!part_queue_.empty()) {  // help with a checkpoint
      take_parts(lock);
      continue;
    }
    Core *ready = next_ready(mine);
    if (ready == nullptr && next_unit_ < units_.size() && !aborted()) {
      for (int i : units_[next_unit_++]) {  // claim a cluster (or core) for this worker
        Core &k = cores_[i];
        k.fiber->reset([&core_main, &k] { core_main(*k.ctx); });
        k.claimed = true;
        mine.push_back(&k);
      }
      continue;
    }
    if (ready == nullptr) {
      if (mine.empty() && (next_unit_ >= units_.size() || aborted())) {
        --alive_workers_;
        if (alive_workers_ > 0) settle(lock);
        busy_ns_ += (std::chrono::duration<double, std::nano>(Clock::now() - arrived) - waited)
                        .count();
        return;
      }
      ++idle_workers_;
      if (!settle(lock)) {
        const Clock::time_point asleep = Clock::now();
        wake_.wait(lock);
        waited += Clock::now() - asleep;
      }
      --idle_workers_;
      continue;
    }
    Core &core = *ready;
    lock.unlock();
    enter_core(*core.ctx);
    const bool finished = core.fiber->resume();
    leave_core(*core.ctx);
    lock.lock();
    if (finished) {
      on_finished(core);
      // Out of the worker's list, which next_ready() reads at every switch (a
      // worker may claim many clusters); the order of the rest is kept.
      mine.erase(std::find(mine.begin(), mine.end(), &core));
    } else {
      on_parked(core);
    }
  }
}

// Every worker waits and no claimed core is ready, nor a checkpoint under
// way. (A barrier's release makes cores ready and wakes their worker, which
// counts as waiting until it runs.)
bool Scheduler::all_wait() const {
  return idle_workers_ == alive_workers_ && parts_left_ == 0 &&
         std::none_of(cores_.begin(), cores_.end(),
                      [](const Core &k) { return k.claimed && k.state == Core::kReady; });
}

// When every worker waits: a checkpoint if cores stopped at one (this worker
// starts it), a deadlock if not (the parked cores can never be released).
// False if some worker or core may still move.
bool Scheduler::settle(std::unique_lock<std::mutex> &lock) {
  if (!all_wait()) return false;
  if (at_checkpoint_ == 0) {
    declare_deadlock();
    return true;
  }
  checkpoint_->begin();
  if (checkpoint_->parts() == 0) {  // nothing to place (an untimed launch): the logs only
    end_checkpoint();
    return true;
  }
  for (int i = 0; i < checkpoint_->parts(); ++i) part_queue_.push_back(i);
  parts_left_ = checkpoint_->parts();
  wake_.notify_all();  // the other workers take parts too
  take_parts(lock);
  return true;
}

void Scheduler::take_parts(std::unique_lock<std::mutex> &lock) {
  using Clock = std::chrono::steady_clock;
  if (!omp_in_parallel()) return run_parts_on_a_team(lock);
  while (!part_queue_.empty()) {
    const int part = part_queue_.front();
    part_queue_.pop_front();
    lock.unlock();
    const Clock::time_point from = Clock::now();
    const bool done = checkpoint_->part(part);
    const Clock::time_point to = Clock::now();
    lock.lock();
    parts_ns_ += std::chrono::duration<double, std::nano>(to - from).count();
    if (!done) {
      part_queue_.push_back(part);
      wake_.notify_all();  // a worker that found no part to take may take this one
    } else if (--parts_left_ == 0) {
      end_checkpoint();
    }
  }
}

// A lone worker (no parallel region is active: its team is itself) runs the
// parts on a team of their own, which would otherwise run one after the
// other on it.
void Scheduler::run_parts_on_a_team(std::unique_lock<std::mutex> &lock) {
  const std::vector<int> parts(part_queue_.begin(), part_queue_.end());
  part_queue_.clear();
  lock.unlock();
  const auto from = std::chrono::steady_clock::now();
  run_each(parts.size(), omp_get_max_threads(), [&](size_t i) {
    while (!checkpoint_->part(parts[i])) {
    }
  });
  const auto to = std::chrono::steady_clock::now();
  lock.lock();
  parts_ns_ += std::chrono::duration<double, std::nano>(to - from).count();
  parts_left_ = 0;
  end_checkpoint();
}

// The last part ended: the cores stopped at the checkpoint go on.
void Scheduler::end_checkpoint() {
  checkpoint_->end();
  for (Core &k : cores_) {
    if (k.state != Core::kAtCheckpoint) continue;
    k.steps_from = k.ctx->steps.size();
    go_on(k);
  }
  at_checkpoint_ = 0;
  wake_.notify_all();
}

void Scheduler::go_on(Core &k) {
  k.state = Core::kReady;
  core_watch(k.ctx->physical_core).at_checkpoint.store(false, std::memory_order_relaxed);
}

Scheduler::Core *Scheduler::next_ready(const std::vector<Core *> &mine) {
  const auto ready = [](const Core *k) { return k->state == Core::kReady; };
  const auto count = static_cast<size_t>(std::count_if(mine.begin(), mine.end(), ready));
  if (count == 0) return nullptr;
  size_t skip = picker_.pick(count);
  for (Core *k : mine)
    if (ready(k) && skip-- == 0) return k;
  return nullptr;
}

std::string Scheduler::who_waits(const Barrier &b) {
  std::string waiting, finished;
  for (const Core &k : cores_) {
    const Barrier *const *its = k.barriers;
    if (std::find(its, its + k.barrier_count, &b) == its + k.barrier_count)
      continue;  // not a participant
    // parked_at is the running core's own until it has parked (state is ours).
    if (k.state == Core::kParked && k.parked_at == &b)
      waiting += fmt::format("{}{} at {}", waiting.empty() ? "" : ", ", detail::core_name(*k.ctx),
                             k.parked_op);
    else if (k.state == Core::kDone)
      finished += (finished.empty() ? "" : ", ") + detail::core_name(*k.ctx);
  }
  return fmt::format("waiting: {}; finished without reaching it: {}",
                     waiting.empty() ? "none" : waiting, finished.empty() ? "none" : finished);
}

void Scheduler::on_parked(Core &core) {
  if (core.to_checkpoint) {
    core.to_checkpoint = false;
    if (aborted()) {
      core.wake_fault = "launch aborted by a fault on another core";
      return;  // stays ready: it resumes only to unwind
    }
    core.state = Core::kAtCheckpoint;
    core_watch(core.ctx->physical_core).at_checkpoint.store(true, std::memory_order_relaxed);
    ++at_checkpoint_;
    return;
  }
  Barrier &b = *core.parked_at;
  if (aborted()) {
    core.parked_at = nullptr;
    core.wake_fault = "launch aborted by a fault on another core";
    return;  // stays ready: it resumes only to unwind
  }
  if (b.finished > 0) {
    core.wake_fault = fmt::format(
        "{} of {} participants already finished the kernel without reaching it; this barrier "
        "can never complete (a deadlock on hardware). {}",
        b.finished, b.participants, who_waits(b));
    core.parked_at = nullptr;
    return;  // stays ready: it resumes to fault
  }
  core.state = Core::kParked;
  b.waiting.push_back(&core);
  if (b.waiting.size() < b.participants) return;
  for (Core *k : b.waiting) {
    k->state = Core::kReady;
    k->parked_at = nullptr;
  }
  // Every participant is here: what each did before is ordered before what
  // any does after.
  if (b.orders_memory && core.ctx->access_log != nullptr) {  // the race check is on
    std::vector<SharedAccessLog *> logs;
    for (const Core *k : b.waiting) logs.push_back(k->ctx->access_log);
    join_clocks(logs);
  }
  b.waiting.clear();
  wake_.notify_all();  // a union-wide barrier may release other workers' cores
}

void Scheduler::on_finished(Core &core) {
  core.state = Core::kDone;
  for (int i = 0; i < core.barrier_count; ++i) {
    Barrier &b = *core.barriers[i];
    ++b.finished;
    if (b.waiting.empty()) continue;
    wake_with_fault(b, fmt::format("{} finished the kernel while this core waited; this barrier "
                                   "can never complete (a deadlock on hardware). {}",
                                   detail::core_name(*core.ctx), who_waits(b)));
  }
}

void Scheduler::wake_with_fault(Barrier &b, const std::string &why) {
  if (b.waiting.empty()) return;
  for (Core *k : b.waiting) {
    k->wake_fault = why;
    k->state = Core::kReady;
    k->parked_at = nullptr;
  }
  b.waiting.clear();
  wake_.notify_all();
}

void Scheduler::declare_deadlock() {
  std::string parked;
  for (const Core &k : cores_)
    if (k.state == Core::kParked && k.parked_at != nullptr)
      parked += fmt::format("{}{} at {}", parked.empty() ? "" : ", ", detail::core_name(*k.ctx),
                            k.parked_op);
  const std::string why =
      "every unfinished core waits at a barrier that cannot complete (a deadlock on hardware): " +
      parked;
  for (std::vector<Barrier> *group :
       {&clusters_, &cluster_ipus_, &unions_, &union_ipus_, &task_ends_})
    for (Barrier &b : *group) wake_with_fault(b, why);
}

void Scheduler::report_fault(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (first_fault_.empty()) first_fault_ = message;
  aborted_ = true;
  const std::string why = "launch aborted by a fault on another core";
  for (std::vector<Barrier> *group :
       {&clusters_, &cluster_ipus_, &unions_, &union_ipus_, &task_ends_})
    for (Barrier &b : *group) wake_with_fault(b, why);
  for (Core &k : cores_) {
    if (k.state != Core::kAtCheckpoint) continue;
    k.wake_fault = why;
    go_on(k);
  }
  at_checkpoint_ = 0;
  wake_.notify_all();
}

// The barriers of one scope, one per group of cores: per physical cluster, or
// per UnionN task for the union-wide scopes.
std::vector<Scheduler::Barrier> &Scheduler::group_of(BarrierScope scope) {
  switch (scope) {
    case BarrierScope::kClusterIpu: return cluster_ipus_;
    case BarrierScope::kUnion: return unions_;
    case BarrierScope::kUnionIpu: return union_ipus_;
    case BarrierScope::kTaskEnd: return task_ends_;
    default: return clusters_;
  }
}

size_t Scheduler::group_index(const CoreContext &c, BarrierScope scope) const {
  const bool union_wide = scope == BarrierScope::kUnion || scope == BarrierScope::kUnionIpu;
  return static_cast<size_t>(union_wide ? c.physical_cluster / union_clusters_
                                        : c.physical_cluster);
}

Scheduler::Barrier &Scheduler::barrier_of(const CoreContext &c, BarrierScope scope) {
  return group_of(scope)[group_index(c, scope)];
}

// Every barrier core c takes part in, into `out` (kBarriersPerCore of room);
// returns how many. A memory core takes no part in the compute cores' own.
int Scheduler::barriers_of(const CoreContext &c, Barrier *out[]) {
  const auto cluster = static_cast<size_t>(c.physical_cluster);
  int n = 0;
  out[n++] = &clusters_[cluster];
  out[n++] = &task_ends_[cluster];
  if (!c.is_mpu) out[n++] = &cluster_ipus_[cluster];
  if (unions_.empty()) return n;
  out[n++] = &unions_[cluster / static_cast<size_t>(union_clusters_)];
  if (!c.is_mpu) out[n++] = &union_ipus_[cluster / static_cast<size_t>(union_clusters_)];
  return n;
}

void Scheduler::room_for_steps(CoreContext &c) {
  Core &me = cores_[static_cast<size_t>(c.physical_core)];
  if (checkpoint_ == nullptr || c.steps.size() - me.steps_from < checkpoint_->steps_between())
    return;
  me.to_checkpoint = true;
  me.wake_fault.clear();
  Fiber::park();  // the worker notes the stop once this core is off its stack
  if (!me.wake_fault.empty()) detail::fault(c, me.wake_fault);
}

void Scheduler::barrier(CoreContext &c, BarrierScope scope, const char *op) {
  Core &me = cores_[c.physical_core];
  Barrier &b = barrier_of(c, scope);
  // The timing model meets the same barrier: the n-th arrival of each of its
  // participants (runtime/timing/replay.h).
  const uint64_t key =
      barrier_key(scope, group_index(c, scope), me.passed[static_cast<size_t>(scope)]++);
  record(c, Step{.op = op, .detail = "barrier", .amount = key,
                 .count = static_cast<uint32_t>(b.participants),
                 .kind = StepKind::kBarrier, .pipe = kIoPipe});
  me.parked_at = &b;
  me.parked_op = op;
  me.wake_fault.clear();
  Fiber::park();  // the worker records the arrival once this core is off its stack
  if (!me.wake_fault.empty()) detail::fault(c, fmt::format("{}: {}", op, me.wake_fault));
}

}  // namespace mlusim
