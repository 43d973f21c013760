// Runs the simulated cores of one launch as fibers on a few OpenMP worker
// threads. A unit (a cluster for UNION tasks, a core for BLOCK) is claimed by
// one worker, which interleaves its cores at barriers, so __sync_cluster works
// with any number of host threads. Deadlocks are detected exactly: a core that
// waits for one that finished, or every unfinished core parked at a barrier.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mlusim/bang/core.h"
#include "runtime/fiber.h"

namespace mlusim {

class Scheduler {
 public:
  Scheduler(std::vector<CoreContext> &cores, int cores_per_unit, int cores_per_cluster);

  // Runs core_main(core) for every core to completion; returns the first fault
  // message, or "" if none.
  std::string run(const std::function<void(CoreContext &)> &core_main);

  // Inside a core: wait until every core of its cluster (or of the launch) arrives.
  void barrier(CoreContext &c, bool whole_launch, const char *op);
  // Inside a core: the first fault aborts the launch and wakes every parked core.
  void report_fault(const std::string &message);
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }

 private:
  struct Barrier;
  struct Core {
    CoreContext *ctx = nullptr;
    Fiber *fiber = nullptr;
    enum State { kReady, kParked, kDone } state = kReady;
    Barrier *parked_at = nullptr;
    double arrival = 0, release = 0;
    std::string wake_fault;  // set when the core must fault instead of passing
  };
  struct Barrier {
    int participants = 0, finished = 0;
    std::vector<Core *> waiting;
    double latest_arrival = 0;
  };

  void work(const std::function<void(CoreContext &)> &core_main);
  void on_parked(Core &core);
  void on_finished(Core &core);
  void wake_with_fault(Barrier &b, const std::string &why);
  void declare_deadlock();

  std::vector<Core> cores_;
  std::vector<Barrier> clusters_;
  Barrier all_;
  int cores_per_unit_, units_, next_unit_ = 0;
  int alive_workers_ = 0, idle_workers_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> aborted_{false};
  std::string first_fault_;
};

}  // namespace mlusim
