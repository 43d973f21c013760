// A core's steps of one launch (steps.h), in chunks that stay where they are
// written. The timing model places the steps while the cores go on recording
// (runtime/timing/launch_timing.h): the chunks it no longer reads come back
// as room for the steps to come, so a long launch holds a few chunks per
// core, not every step it ran.
#pragma once

#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <cstddef>
#include <memory>
#include <vector>

#include "mlusim/bang/detail/steps.h"

namespace mlusim {

class StepLog {
 public:
  static constexpr size_t kChunkShift = 10;
  static constexpr size_t kChunkSteps = size_t{1} << kChunkShift;  // 96 KiB

  StepLog() = default;
  StepLog(StepLog &&other) noexcept { swap(other); }
  StepLog(const StepLog &) = delete;
  StepLog &operator=(const StepLog &) = delete;
  ~StepLog();
  void swap(StepLog &other) noexcept;

  // Steps recorded; those from first_held() on can be read.
  size_t size() const { return size_; }
  size_t first_held() const { return released_ << kChunkShift; }
  // The chunk at hand is full: add_chunk() before the next push().
  bool full() const { return next_ == end_; }
  Step &push(const Step &s) {
    ++size_;
    return *std::construct_at(next_++, s);
  }
  Step &operator[](size_t i) { return chunks_[(i >> kChunkShift) - released_][i & kMask]; }
  const Step &operator[](size_t i) const {
    return chunks_[(i >> kChunkShift) - released_][i & kMask];
  }

  // Room for the next kChunkSteps steps: a released chunk, or a new one.
  void add_chunk();
  // The whole chunks before step `index` are not read again: they become
  // room for steps to come.
  void release_before(size_t index);
  // Empty for the next launch, keeping at most `kept_chunks` chunks of room.
  void clear(size_t kept_chunks);
  // Chunks held or kept as room (the memory the log takes).
  size_t chunks() const { return chunks_.size() + spare_.size(); }

 private:
  static constexpr size_t kMask = kChunkSteps - 1;
  std::vector<Step *> chunks_;  // chunks_[k] holds steps from (released_ + k) * kChunkSteps
  std::vector<Step *> spare_;   // room for steps to come
  size_t released_ = 0;         // chunks released from the front
  Step *next_ = nullptr, *end_ = nullptr;
  size_t size_ = 0;
};

}  // namespace mlusim
