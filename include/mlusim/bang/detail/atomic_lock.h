// What makes a simulated atomic on GDRAM atomic on the host. The cores of a
// launch run on several host threads, so the elements an atomic reads and
// writes must not change under it. GDRAM is cut into 1-KiB stripes, each with
// a host lock: an atomic takes the locks of the stripes it covers, then reads
// and writes its elements with plain instructions, sixteen bytes at a time
// (a compare-and-swap per element would cost a locked host instruction each).
// Every GDRAM atomic goes through here (include/mlusim/bang/memory.h), so two
// atomics on the same bytes never overlap in host time; which one the board's
// memory serves first is the timing model's business, not this lock's.
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "mlusim/bang/detail/core.h"

namespace mlusim::detail {

struct alignas(64) StripeLock {  // one a cache line: stripes near each other do not share one
  std::atomic<bool> held{false};
};
constexpr size_t kAtomicStripeBytes = 1024;
constexpr size_t kAtomicStripes = 4096;  // addresses 4 MiB apart share a lock
extern StripeLock g_atomic_stripes[kAtomicStripes];  // runtime/bang/memory.cpp

// A spinning thread's hint to the CPU that it waits.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Holds the locks of every stripe [p, p + bytes) touches, taken in the order
// of their index (so two atomics never wait for each other in a circle) and
// each once: the stripes' indices from lo_ to hi_, and when they run past the
// table's end, wrap_lo_ to wrap_hi_ too (else an empty run, lo above hi). The
// watchdog's signal waits while they are held: a jump out would leave them
// taken.
class AtomicLock {
 public:
  AtomicLock(const void *p, size_t bytes) : held_(this_core()) {
    const auto address = reinterpret_cast<uintptr_t>(p);
    const size_t first = address / kAtomicStripeBytes;
    const size_t last = (address + (bytes > 0 ? bytes - 1 : 0)) / kAtomicStripeBytes;
    if (last - first + 1 >= kAtomicStripes) {
      lo_ = 0, hi_ = kAtomicStripes - 1;  // every lock, one range
      wrap_lo_ = 1, wrap_hi_ = 0;         // (none)
    } else if (first % kAtomicStripes <= last % kAtomicStripes) {
      lo_ = first % kAtomicStripes, hi_ = last % kAtomicStripes;
      wrap_lo_ = 1, wrap_hi_ = 0;
    } else {  // past the table's end: the low indices first
      lo_ = 0, hi_ = last % kAtomicStripes;
      wrap_lo_ = first % kAtomicStripes, wrap_hi_ = kAtomicStripes - 1;
    }
    take(lo_, hi_);
    take(wrap_lo_, wrap_hi_);
  }
  ~AtomicLock() {
    give(lo_, hi_);
    give(wrap_lo_, wrap_hi_);
  }
  AtomicLock(const AtomicLock &) = delete;
  AtomicLock &operator=(const AtomicLock &) = delete;

 private:
  static void take(size_t lo, size_t hi) {
    for (size_t i = lo; i <= hi; ++i) {
      std::atomic<bool> &held = g_atomic_stripes[i].held;
      while (held.exchange(true, std::memory_order_acquire))
        while (held.load(std::memory_order_relaxed)) spin_pause();
    }
  }
  static void give(size_t lo, size_t hi) {
    for (size_t i = lo; i <= hi; ++i)
      g_atomic_stripes[i].held.store(false, std::memory_order_release);
  }

  HeapHeld held_;
  size_t lo_, hi_, wrap_lo_, wrap_hi_;
};

}  // namespace mlusim::detail
