// Loops the runtime spreads over OpenMP threads: the refill of on-chip memory,
// the replays at a checkpoint and at the end of a launch.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>

namespace mlusim {

// Runs each(i) for every i in [0, count) on up to `threads` OpenMP threads,
// which take them one at a time; on this thread alone, in a plain loop, when
// one would do. Entering an OpenMP region, even an inactive one, wakes the
// pool's idle threads (a futex call) and allocates.
template <typename Each>
void run_each(size_t count, int threads, Each &&each) {
  threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), count));
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) each(i);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t i = 0; i < count; ++i) each(i);
}

}  // namespace mlusim
