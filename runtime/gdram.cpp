#include "runtime/gdram.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <set>

#include <spdlog/fmt/fmt.h>

#include "runtime/devices.h"
#include "runtime/logging.h"
#include "runtime/settings.h"
#include "runtime/onchip_memory.h"

namespace mlusim {
namespace {

constexpr size_t kAllocAlign = 64;  // GDRAM access granule of the real device
// Guarded allocations: inaccessible address space after the data, so that an
// index up to 1 MiB past the end faults instead of reaching other memory.
constexpr size_t kTailGuardBytes = size_t{1} << 20;
// Freed guarded allocations stay inaccessible (and hold no memory) until this
// many later frees have pushed them out.
constexpr size_t kQuarantineEntries = 1024;

// Where one allocation's data lives. A guarded one has its own mapping: one
// inaccessible page, the data (ending on a page boundary), the tail guard.
struct Allocation {
  GdramRange range;
  std::byte *map = nullptr;  // nullptr: plain host heap memory
  size_t map_bytes = 0;
  uint64_t freed_after_launch = 0;
};

struct Table {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> live;  // keyed by begin
  std::deque<Allocation> quarantine;     // oldest first
  size_t live_bytes = 0;
  uint64_t next_id = 1;
  std::multiset<uint64_t> leased_up_to;  // newest allocation id of each running launch
  std::atomic<uint64_t> launch{0};        // the launch now running, or the last one
};

Table &table() {
  static Table t;
  return t;
}

std::atomic<bool> g_guard = [] {
  const char *env = std::getenv("MLUSIM_GDRAM_GUARD");
  if (env == nullptr || std::strcmp(env, "1") == 0) return true;
  if (std::strcmp(env, "0") == 0) return false;
  setting_invalid("MLUSIM_GDRAM_GUARD", env, "1 (guard pages, the default) or 0");
  return true;
}();

size_t page_bytes() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

const GdramRange *find_in(const std::map<uintptr_t, Allocation> &live, uintptr_t p) {
  auto it = live.upper_bound(p);
  if (it == live.begin()) return nullptr;
  --it;
  return p < it->second.range.end ? &it->second.range : nullptr;
}

bool map_guarded(size_t bytes, Allocation *a) {
  const size_t page = page_bytes();
  const size_t padded = (bytes + kAllocAlign - 1) / kAllocAlign * kAllocAlign;
  const size_t data = (padded + page - 1) / page * page;
  a->map_bytes = page + data + kTailGuardBytes;
  void *m = mmap(nullptr, a->map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED) return false;
  a->map = static_cast<std::byte *>(m);
  if (mprotect(a->map + page, data, PROT_READ | PROT_WRITE) != 0) {
    munmap(m, a->map_bytes);
    return false;
  }
  a->range.begin = reinterpret_cast<uintptr_t>(a->map + page + data - padded);
  return true;
}

// A freed guarded allocation gives its memory back but keeps its addresses
// inaccessible for a while, so that a use after free faults.
void quarantine(Table &t, Allocation a) {
  const size_t page = page_bytes();
  std::byte *data = a.map + page;
  const size_t data_bytes = a.map_bytes - page - kTailGuardBytes;
  madvise(data, data_bytes, MADV_DONTNEED);
  mprotect(data, data_bytes, PROT_NONE);
  a.freed_after_launch = t.launch.load();
  t.quarantine.push_back(a);
  if (t.quarantine.size() > kQuarantineEntries) {
    munmap(t.quarantine.front().map, t.quarantine.front().map_bytes);
    t.quarantine.pop_front();
  }
}

bool in_mapping(const Allocation &a, uintptr_t addr) {
  const auto lo = reinterpret_cast<uintptr_t>(a.map);
  return a.map != nullptr && addr >= lo && addr < lo + a.map_bytes;
}

GdramSnapshot snapshot_of(const Table &t) {
  GdramSnapshot s;
  s.reserve(t.live.size());
  for (const auto &kv : t.live) s.push_back(kv.second.range);
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
  Allocation a;
  if (g_guard.load()) {
    if (!map_guarded(bytes, &a)) a.map = nullptr, a.range.begin = 0;
  } else {
    a.range.begin = reinterpret_cast<uintptr_t>(
        ::operator new(bytes, std::align_val_t(kAllocAlign), std::nothrow));
  }
  if (a.range.begin == 0) {
    log::runtime().error("cnrtMalloc: host memory exhausted for {} bytes", bytes);
    return cnrtErrorNoMem;
  }
  a.range.end = a.range.begin + bytes;
  a.range.id = t.next_id++;
  // Memory nobody wrote reads as the fill pattern (NaN), as mlu-ops' tests arrange.
  if (fill_byte() >= 0) std::memset(reinterpret_cast<void *>(a.range.begin), fill_byte(), bytes);
  t.live[a.range.begin] = a;
  t.live_bytes += bytes;
  *ptr = reinterpret_cast<void *>(a.range.begin);
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
  if (leased(t, it->second.range)) {
    log::runtime().error("cnrtFree: {} (allocation #{}) is in use by a running launch", ptr,
                         it->second.range.id);
    return cnrtErrorIllegalState;
  }
  const Allocation a = it->second;
  t.live_bytes -= a.range.end - a.range.begin;
  t.live.erase(it);
  if (a.map != nullptr)
    quarantine(t, a);
  else
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

bool gdram_find_live(const void *p, GdramRange *range) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  const GdramRange *r = find_in(t.live, reinterpret_cast<uintptr_t>(p));
  if (r != nullptr) *range = *r;
  return r != nullptr;
}

size_t gdram_live_bytes() {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.live_bytes;
}

cnrtRet_t gdram_free_all() {
  std::vector<void *> starts;
  {
    Table &t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    for (const auto &[begin, a] : t.live) {
      if (leased(t, a.range)) {
        log::runtime().error("cnrtDeviceReset: allocation #{} is in use by a running launch",
                             a.range.id);
        return cnrtErrorIllegalState;
      }
      starts.push_back(reinterpret_cast<void *>(begin));
    }
  }
  for (void *p : starts) gdram_free(p);  // one at a time, each under the table's lock
  return cnrtSuccess;
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

namespace mlusim {

void gdram_set_guard(bool on) { g_guard = on; }
bool gdram_guard() { return g_guard.load(); }

bool gdram_describe_address(uintptr_t addr, std::string *what) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (const auto &[begin, a] : t.live) {
    if (!in_mapping(a, addr)) continue;
    const GdramRange &r = a.range;
    *what = addr < r.begin ? fmt::format("{} bytes before the start of GDRAM allocation #{} "
                                         "(of {} bytes)",
                                         r.begin - addr, r.id, r.end - r.begin)
            : addr < r.end ? fmt::format("GDRAM allocation #{} +{:#x} (of {} bytes)", r.id,
                                         addr - r.begin, r.end - r.begin)
                           : fmt::format("{} bytes past the end of GDRAM allocation #{} (of {} "
                                         "bytes)",
                                         addr - r.end, r.id, r.end - r.begin);
    return true;
  }
  for (auto q = t.quarantine.rbegin(); q != t.quarantine.rend(); ++q) {
    if (!in_mapping(*q, addr)) continue;
    const GdramRange &r = q->range;
    const bool inside = addr >= r.begin && addr < r.end;
    *what = fmt::format("freed GDRAM allocation #{} ({} of {} bytes), released by cnrtFree after "
                        "launch #{} (this is launch #{}): a use after free",
                        r.id,
                        inside ? fmt::format("+{:#x}", addr - r.begin)
                               : fmt::format("near it, {} bytes from its start",
                                             static_cast<intptr_t>(addr - r.begin)),
                        r.end - r.begin, q->freed_after_launch, t.launch.load());
    return true;
  }
  return false;
}

void gdram_note_launch(uint64_t serial) { table().launch = serial; }

}  // namespace mlusim
