#include "runtime/gdram.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <set>

#include <spdlog/fmt/fmt.h>

#include "runtime/device_spec.h"
#include "runtime/logging.h"

namespace mlusim {
namespace {

constexpr size_t kAllocAlign = 64;  // GDRAM access granule of the real device

struct Table {
  std::mutex mutex;
  std::map<uintptr_t, GdramRange> live;  // keyed by begin
  size_t live_bytes = 0;
  uint64_t next_id = 1;
  std::multiset<uint64_t> leased_up_to;  // newest allocation id of each running launch
};

Table &table() {
  static Table t;
  return t;
}

const GdramRange *find_in(const std::map<uintptr_t, GdramRange> &live, uintptr_t p) {
  auto it = live.upper_bound(p);
  if (it == live.begin()) return nullptr;
  --it;
  return p < it->second.end ? &it->second : nullptr;
}

GdramSnapshot snapshot_of(const Table &t) {
  GdramSnapshot s;
  s.reserve(t.live.size());
  for (const auto &kv : t.live) s.push_back(kv.second);
  return s;  // std::map iterates in address order, so s is sorted
}

// True when a running launch's lease holds this allocation. Ids only grow, so
// a live allocation no newer than a lease's newest id was in its snapshot.
bool leased(const Table &t, const GdramRange &r) {
  return !t.leased_up_to.empty() && r.id <= *t.leased_up_to.rbegin();
}

}  // namespace

cnrtRet_t gdram_alloc(void **ptr, size_t bytes) {
  if (ptr == nullptr || bytes == 0) {
    log::runtime().error("cnrtMalloc: {}", ptr == nullptr ? "null output pointer"
                                                           : "zero-byte allocation");
    return cnrtErrorArgsInvalid;
  }
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.live_bytes + bytes > current_device().gdram_bytes) {
    log::runtime().error("cnrtMalloc: {} bytes would exceed the device's {} bytes of GDRAM",
                         bytes, current_device().gdram_bytes);
    return cnrtErrorNoMem;
  }
  void *p = ::operator new(bytes, std::align_val_t(kAllocAlign), std::nothrow);
  if (p == nullptr) {
    log::runtime().error("cnrtMalloc: host memory exhausted for {} bytes", bytes);
    return cnrtErrorNoMem;
  }
  auto begin = reinterpret_cast<uintptr_t>(p);
  t.live[begin] = GdramRange{begin, begin + bytes, t.next_id++};
  t.live_bytes += bytes;
  *ptr = p;
  return cnrtSuccess;
}

cnrtRet_t gdram_free(void *ptr) {
  if (ptr == nullptr) return cnrtSuccess;  // as free(NULL)
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto begin = reinterpret_cast<uintptr_t>(ptr);
  auto it = t.live.find(begin);
  if (it == t.live.end()) {
    const GdramRange *inside = find_in(t.live, begin);
    log::runtime().error("cnrtFree: {} is {}", ptr,
                         inside ? "inside an allocation, not its start"
                                : "not a live device pointer (host memory or already freed)");
    return inside ? cnrtErrorInvalidDevicePtr : cnrtErrorDoubleFree;
  }
  if (leased(t, it->second)) {
    log::runtime().error("cnrtFree: {} (allocation #{}) is in use by a running launch", ptr,
                         it->second.id);
    return cnrtErrorIllegalState;
  }
  t.live_bytes -= it->second.end - it->second.begin;
  t.live.erase(it);
  ::operator delete(ptr, std::align_val_t(kAllocAlign));
  return cnrtSuccess;
}

GdramLease::GdramLease() {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  snapshot_ = snapshot_of(t);
  newest_id_ = t.next_id - 1;
  t.leased_up_to.insert(newest_id_);
}

GdramLease::~GdramLease() {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.leased_up_to.erase(t.leased_up_to.find(newest_id_));
}

const GdramRange *gdram_find(const GdramSnapshot &s, const void *p, size_t bytes) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = std::upper_bound(s.begin(), s.end(), addr,
                             [](uintptr_t a, const GdramRange &r) { return a < r.begin; });
  if (it == s.begin()) return nullptr;
  --it;
  return (addr < it->end && bytes <= it->end - addr) ? &*it : nullptr;
}

bool gdram_contains(const void *p, size_t bytes) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto addr = reinterpret_cast<uintptr_t>(p);
  const GdramRange *r = find_in(t.live, addr);
  return r != nullptr && bytes <= r->end - addr;
}

std::string gdram_describe(const GdramSnapshot &s, const void *p) {
  const GdramRange *r = gdram_find(s, p, 0);
  auto addr = reinterpret_cast<uintptr_t>(p);
  if (r == nullptr) {
    // A pointer just past an allocation is the common off-by-one: name it.
    auto it = std::upper_bound(s.begin(), s.end(), addr,
                               [](uintptr_t a, const GdramRange &x) { return a < x.begin; });
    if (it != s.begin() && addr >= std::prev(it)->end) {
      const GdramRange &prev = *std::prev(it);
      return fmt::format("{} (not device memory; {} bytes past the end of GDRAM allocation #{})",
                         p, addr - prev.end, prev.id);
    }
    return fmt::format("{} (not device memory)", p);
  }
  return fmt::format("{} (GDRAM allocation #{} +{:#x} of {} bytes)", p, r->id, addr - r->begin,
                     r->end - r->begin);
}

}  // namespace mlusim
