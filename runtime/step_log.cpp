#include "mlusim/bang/detail/step_log.h"

#include <algorithm>
#include <new>
#include <utility>

namespace mlusim {
namespace {

// Room for steps, not constructed: push() constructs each step in place.
Step *new_chunk() {
  return static_cast<Step *>(::operator new(StepLog::kChunkSteps * sizeof(Step)));
}
void delete_chunk(Step *chunk) { ::operator delete(chunk); }

}  // namespace

StepLog::~StepLog() {
  for (Step *chunk : chunks_) delete_chunk(chunk);
  for (Step *chunk : spare_) delete_chunk(chunk);
}

void StepLog::swap(StepLog &other) noexcept {
  chunks_.swap(other.chunks_);
  spare_.swap(other.spare_);
  std::swap(released_, other.released_);
  std::swap(next_, other.next_);
  std::swap(end_, other.end_);
  std::swap(size_, other.size_);
}

void StepLog::add_chunk() {
  Step *chunk = nullptr;
  if (spare_.empty()) {
    chunk = new_chunk();
  } else {
    chunk = spare_.back();
    spare_.pop_back();
  }
  chunks_.push_back(chunk);
  next_ = chunk;
  end_ = chunk + kChunkSteps;
}

void StepLog::release_before(size_t index) {
  if (chunks_.empty()) return;
  // The chunk being written stays, whatever the index.
  const size_t upto = std::min(index >> kChunkShift, released_ + chunks_.size() - 1);
  if (upto <= released_) return;
  const size_t whole = upto - released_;
  spare_.insert(spare_.end(), chunks_.begin(), chunks_.begin() + static_cast<ptrdiff_t>(whole));
  chunks_.erase(chunks_.begin(), chunks_.begin() + static_cast<ptrdiff_t>(whole));
  released_ += whole;
}

void StepLog::clear(size_t kept_chunks) {
  spare_.insert(spare_.end(), chunks_.begin(), chunks_.end());
  chunks_.clear();
  while (spare_.size() > kept_chunks) {
    delete_chunk(spare_.back());
    spare_.pop_back();
  }
  released_ = size_ = 0;
  next_ = end_ = nullptr;
}

}  // namespace mlusim
