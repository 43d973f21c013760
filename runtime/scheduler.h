// Runs the simulated cores of one launch as fibers on a few OpenMP worker
// threads. A unit (a cluster and its memory core for UNION tasks, a core for
// BLOCK) is claimed by one worker, which interleaves its cores at barriers, so
// __sync_cluster works with any number of host threads. Deadlocks are detected
// exactly: a core that waits for one that finished, or every unfinished core
// parked at a barrier; the message names who waits where.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"
#include "runtime/fiber.h"
#include "runtime/core_order.h"

namespace mlusim {

// Work the workers do while every core waits (runtime/timing/launch_timing.h
// places the steps recorded so far): a core that recorded another
// steps_between() steps stops at a checkpoint; once no core can run, begin()
// runs, then the parts() on whichever workers are free, then end(); then the
// cores go on. A part returns false to be taken again (by any worker: a part
// runs in slices, so that two workers share three parts evenly). begin and
// end run under the scheduler's lock.
class Checkpoint {
 public:
  virtual ~Checkpoint() = default;
  virtual size_t steps_between() const = 0;
  virtual int parts() const = 0;
  virtual void begin() = 0;
  virtual bool part(int i) = 0;
  virtual void end() = 0;
};

class Scheduler {
 public:
  // units: the core indices each worker claims together. union_clusters: N of
  // a UnionN launch (0 for BLOCK); a UnionN task spans N consecutive clusters.
  // A reproducible schedule runs every unit on one worker, in its order.
  Scheduler(std::vector<CoreContext> &cores, std::vector<std::vector<int>> units,
            int union_clusters, const Schedule &schedule);

  // Runs core_main(core) for every core to completion, on a team of host
  // threads or on this one alone, stopping them at `checkpoint` if given;
  // returns the first fault message, or "" if none.
  std::string run(const std::function<void(CoreContext &)> &core_main, bool on_one_worker,
                  Checkpoint *checkpoint = nullptr);
  // The workers a run on a team would have (1 where the schedule allows one).
  int team_size() const;
  // The host time the workers of the last run() spent running cores and
  // switching between them (their waits and checkpoints left out), summed.
  double cores_busy_us() const { return (busy_ns_ - parts_ns_) / 1e3; }
  // The last run()'s workers, and its wall time with its workers' share of
  // the checkpoints left out.
  int workers() const { return workers_; }
  double wall_us() const { return (wall_ns_ - parts_ns_ / workers_) / 1e3; }

  // Inside a core: wait until every participant of the scope arrives (its
  // pipes drained and its scalar code's accesses logged by the caller).
  void barrier(CoreContext &c, BarrierScope scope, const char *op);
  // Inside a core that needs room for more steps: stops at a checkpoint when
  // it recorded the checkpoint's steps_between since it last ran from one.
  void room_for_steps(CoreContext &c);
  // Whether core i has ended (its steps are complete), at a checkpoint.
  bool finished(size_t core) const { return cores_[core].state == Core::kDone; }
  // Inside a core: the first fault aborts the launch and wakes every parked core.
  void report_fault(const std::string &message);
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }

 private:
  struct Barrier;
  static constexpr int kBarriersPerCore = static_cast<int>(BarrierScope::kScopeCount);
  struct Core {
    Core() {}  // user-provided: a vector of them is not zeroed before the initialisers run
    CoreContext *ctx = nullptr;
    Fiber *fiber = nullptr;
    enum State { kReady, kParked, kAtCheckpoint, kDone } state = kReady;
    bool claimed = false;  // a worker runs it
    Barrier *parked_at = nullptr;
    const char *parked_op = "";
    uint32_t passed[static_cast<size_t>(BarrierScope::kScopeCount)] = {};  // per scope
    std::string wake_fault;  // set when the core must fault instead of passing
    bool to_checkpoint = false;  // parking at a checkpoint, not at parked_at
    size_t steps_from = 0;       // its steps when it last ran from a checkpoint
    Barrier *barriers[kBarriersPerCore];  // every one it takes part in: barriers_of()
    int barrier_count = 0;
  };
  struct Barrier {
    Barrier() {}  // as Core()
    // What a participant did before it is ordered before what any does after
    // (not so for the start of a cluster's next task, which only takes turns).
    bool orders_memory = true;
    size_t participants = 0;  // counted, not listed: a launch sets up 40 barriers, most unused
    int finished = 0;
    std::vector<Core *> waiting;
  };

  void work(const std::function<void(CoreContext &)> &core_main);
  Core *next_ready(const std::vector<Core *> &mine);
  bool all_wait() const;
  bool settle(std::unique_lock<std::mutex> &lock);
  void take_parts(std::unique_lock<std::mutex> &lock);
  void run_parts_on_a_team(std::unique_lock<std::mutex> &lock);
  void end_checkpoint();
  void go_on(Core &k);  // a core stopped at the checkpoint
  void on_parked(Core &core);
  void on_finished(Core &core);
  void wake_with_fault(Barrier &b, const std::string &why);
  void declare_deadlock();
  std::string who_waits(const Barrier &b);
  Barrier &barrier_of(const CoreContext &c, BarrierScope scope);
  int barriers_of(const CoreContext &c, Barrier *out[]);
  std::vector<Barrier> &group_of(BarrierScope scope);
  size_t group_index(const CoreContext &c, BarrierScope scope) const;

  std::vector<Core> cores_;
  std::vector<std::vector<int>> units_;
  std::vector<Barrier> clusters_, cluster_ipus_, unions_, union_ipus_, task_ends_;
  int union_clusters_;
  CorePicker picker_;
  size_t next_unit_ = 0;
  int alive_workers_ = -1, idle_workers_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> aborted_{false};
  std::string first_fault_;
  double busy_ns_ = 0, wall_ns_ = 0;
  int workers_ = 1;
  Checkpoint *checkpoint_ = nullptr;
  size_t at_checkpoint_ = 0;         // cores stopped there
  std::deque<int> part_queue_;       // parts of the checkpoint under way to take
  int parts_left_ = 0;               // not yet done (> 0: a checkpoint is under way)
  double parts_ns_ = 0;              // the workers' time in checkpoint parts
};

}  // namespace mlusim
