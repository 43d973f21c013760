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
#include <utility>
#include <vector>

#include "mlusim/bang/detail/steps.h"

namespace mlusim {

class StepLog {
 public:
  static constexpr size_t kChunkShift = 10;
  static constexpr size_t kChunkSteps = size_t{1} << kChunkShift;  // 112 KiB

  StepLog() = default;
  StepLog(StepLog &&other) noexcept { swap(other); }
  StepLog(const StepLog &) = delete;
  StepLog &operator=(const StepLog &) = delete;
  ~StepLog() {
    if (!chunks_.empty() || !spare_.empty()) free_chunks();  // a launch's logs are lent: empty
  }
  void swap(StepLog &other) noexcept {
    chunks_.swap(other.chunks_);
    spare_.swap(other.spare_);
    std::swap(released_, other.released_);
    std::swap(next_, other.next_);
    std::swap(end_, other.end_);
    std::swap(size_, other.size_);
    far_.swap(other.far_);
  }

  // Steps recorded; those from first_held() on can be read.
  size_t size() const { return size_; }
  size_t first_held() const { return released_ << kChunkShift; }
  // The chunk at hand is full: add_chunk() before the next push().
  bool full() const { return next_ == end_; }
  Step &push(const Step &s) {
    ++size_;
    return *std::construct_at(next_++, s);
  }
  // The held steps as a reader finds them, with no load through the log:
  // valid until the next add_chunk() or release_before().
  struct Reader {
    Step *const *chunks = nullptr;
    size_t released = 0;
    const Step &operator[](size_t i) const {
      return chunks[(i >> kChunkShift) - released][i & (kChunkSteps - 1)];
    }
  };
  Reader reader() const { return Reader{chunks_.data(), released_}; }
  const Step &operator[](size_t i) const { return reader()[i]; }

  // Room for the next kChunkSteps steps: a released chunk, or a new one.
  void add_chunk();
  // The whole chunks before step `index` are not read again: they become
  // room for steps to come.
  void release_before(size_t index);
  // Empty for the next launch, keeping at most `kept_chunks` chunks of room
  // (at least one). The first chunk stays at hand: the next launch's first
  // step goes there (most launches record less than a chunk per core).
  void clear(size_t kept_chunks) {
    released_ = size_ = 0;
    far_.clear();
    if (chunks_.size() > 1 || spare_.size() >= kept_chunks) keep_room(kept_chunks);
    if (chunks_.empty()) return;
    next_ = chunks_[0];
    end_ = next_ + kChunkSteps;
  }
  // The far spans of the steps whose scalar code had some (Step::far_scalar),
  // in step order; those of released steps are dropped with them.
  void keep_far(const FarScalar &f) { far_.push_back(f); }
  struct FarReader {
    const FarScalar *first = nullptr, *last = nullptr;
    // The spans of step `index`, which has some.
    const FarScalar &of(size_t index) const;
  };
  FarReader far_reader() const { return FarReader{far_.data(), far_.data() + far_.size()}; }

  // Chunks held or kept as room (the memory the log takes).
  size_t chunks() const { return chunks_.size() + spare_.size(); }

 private:
  void free_chunks();
  void keep_room(size_t kept_chunks);  // clear()'s: chunks beyond the first go spare
  std::vector<Step *> chunks_;  // chunks_[k] holds steps from (released_ + k) * kChunkSteps
  std::vector<Step *> spare_;   // room for steps to come
  std::vector<FarScalar> far_;
  size_t released_ = 0;         // chunks released from the front
  Step *next_ = nullptr, *end_ = nullptr;
  size_t size_ = 0;
};

}  // namespace mlusim
