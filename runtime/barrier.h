// A barrier for the cores of one cluster (__sync_cluster) or of a whole union
// launch (__sync_all). Unlike std::barrier it can tell a deadlock: a core that
// waits while a fellow core has already left the kernel can never be released.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

namespace mlusim {

struct CoreContext;

class CoreBarrier {
 public:
  void reset(int participants, double timeout_seconds);
  // Blocks until every participant arrived; returns the latest arrival time.
  // Throws KernelFault on deadlock, timeout, or when the launch is aborted.
  double arrive_and_wait(const CoreContext &c, double arrival_time, const char *op);
  void leave();  // a participant finished the kernel
  void abort();  // another core faulted: release everybody

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int participants_ = 0, arrived_ = 0, left_ = 0;
  uint64_t generation_ = 0;
  double max_arrival_ = 0, released_at_ = 0;
  double timeout_seconds_ = 60;
  bool aborted_ = false;
};

}  // namespace mlusim
