#include "runtime/barrier.h"

#include <chrono>

#include <spdlog/fmt/fmt.h>

#include "runtime/core.h"

namespace mlusim {

void CoreBarrier::reset(int participants, double timeout_seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  participants_ = participants;
  arrived_ = left_ = 0;
  generation_ = 0;
  max_arrival_ = released_at_ = 0;
  timeout_seconds_ = timeout_seconds;
  aborted_ = false;
}

double CoreBarrier::arrive_and_wait(const CoreContext &c, double arrival_time, const char *op) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto deadlock = [&] {
    return fmt::format(
        "{}: {} of {} cores already finished the kernel without reaching it; "
        "this barrier can never complete (a deadlock on hardware)",
        op, left_, participants_);
  };
  if (left_ > 0) detail::fault(c, deadlock());
  max_arrival_ = arrival_time > max_arrival_ ? arrival_time : max_arrival_;
  if (++arrived_ == participants_) {
    released_at_ = max_arrival_;
    arrived_ = 0;
    max_arrival_ = 0;
    ++generation_;
    cv_.notify_all();
    return released_at_;
  }
  const uint64_t my_generation = generation_;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds_);
  while (generation_ == my_generation) {
    if (aborted_) detail::fault(c, fmt::format("{}: launch aborted by a fault on another core", op));
    if (left_ > 0) detail::fault(c, deadlock());
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && generation_ == my_generation)
      detail::fault(c, fmt::format("{}: waited {} s for {} of {} cores (MLUSIM_BARRIER_TIMEOUT)",
                                   op, timeout_seconds_, participants_ - arrived_,
                                   participants_));
  }
  return released_at_;
}

void CoreBarrier::leave() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++left_;
  cv_.notify_all();
}

void CoreBarrier::abort() {
  std::lock_guard<std::mutex> lock(mutex_);
  aborted_ = true;
  cv_.notify_all();
}

}  // namespace mlusim
