// A registry of live handles of one type. A handle a caller passes in is looked
// up by its address, never dereferenced first, so a destroyed, foreign or
// garbage pointer is refused instead of used, and a second destroy fails
// instead of freeing twice. Objects are shared: a thread that looked a handle up
// keeps it alive while another thread destroys it, and its address cannot be
// reused (and mistaken for a new handle) until that thread lets go.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace mlusim {

template <typename T>
class HandleRegistry {
 public:
  template <typename... Args>
  T *create(Args &&...args) {
    auto object = std::make_shared<T>(std::forward<Args>(args)...);
    std::lock_guard<std::mutex> lock(mutex_);
    live_.emplace(object.get(), object);
    return object.get();
  }

  // The live object at `handle`, or nullptr.
  std::shared_ptr<T> find(const void *handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(handle);
    return it != live_.end() ? it->second : nullptr;
  }

  // False when `handle` is not live (already destroyed, or never created here).
  bool destroy(const void *handle) {
    std::shared_ptr<T> doomed;  // released after the lock: T's destructor may be slow
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(handle);
    if (it == live_.end()) return false;
    doomed = std::move(it->second);
    live_.erase(it);
    return true;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void *, std::shared_ptr<T>> live_;
};

}  // namespace mlusim
