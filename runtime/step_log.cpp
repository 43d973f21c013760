#include "mlusim/bang/detail/step_log.h"

#include <algorithm>
#include <new>

namespace mlusim {
namespace {

// Room for steps, not constructed: push() constructs each step in place.
Step *new_chunk() {
  return static_cast<Step *>(::operator new(StepLog::kChunkSteps * sizeof(Step)));
}
void delete_chunk(Step *chunk) { ::operator delete(chunk); }

}  // namespace

void StepLog::free_chunks() {
  for (Step *chunk : chunks_) delete_chunk(chunk);
  for (Step *chunk : spare_) delete_chunk(chunk);
  chunks_.clear();
  spare_.clear();
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
  const size_t first = first_held();
  const auto released_far = [first](const FarScalar &f) { return f.step < first; };
  far_.erase(far_.begin(), std::partition_point(far_.begin(), far_.end(), released_far));
}

const FarScalar &StepLog::FarReader::of(size_t index) const {
  return *std::lower_bound(first, last, index,
                           [](const FarScalar &f, size_t i) { return f.step < i; });
}

void StepLog::keep_room(size_t kept_chunks) {
  if (chunks_.size() > 1) {
    spare_.insert(spare_.end(), chunks_.begin() + 1, chunks_.end());
    chunks_.resize(1);
  }
  while (!spare_.empty() && spare_.size() + chunks_.size() > kept_chunks) {
    delete_chunk(spare_.back());
    spare_.pop_back();
  }
}

}  // namespace mlusim
