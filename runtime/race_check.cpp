#include "runtime/race_check.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"
#include "runtime/segments.h"

namespace mlusim {

RaceMode race_mode() {
  const char *env = std::getenv("MLUSIM_RACES");
  setting_valid("MLUSIM_RACES");
  if (env == nullptr || std::strcmp(env, "fault") == 0) return RaceMode::kFault;
  if (std::strcmp(env, "warn") == 0) return RaceMode::kWarn;
  if (std::strcmp(env, "off") == 0) return RaceMode::kOff;
  setting_invalid("MLUSIM_RACES", env, "fault (the default), warn or off");
  return RaceMode::kFault;
}

namespace detail {

void append_shared_access(CoreContext &c, Space space, const Segments &range, bool write,
                          bool atomic, const char *op) {
  SharedAccessLog &log = *c.access_log;
  if (!log.accesses.empty()) {
    // A run of contiguous (or repeated) plain accesses is one entry.
    SharedAccess &last = log.accesses.back();
    if (last.generation == log.generation && last.write == write && last.atomic == atomic &&
        last.op == op && last.task == c.task_id && last.range.count == 1 && range.count == 1) {
      if (range.lo == last.range.lo && range.bytes <= last.range.bytes) return;
      if (range.lo == last.range.lo + last.range.bytes) {
        last.range.bytes += range.bytes;
        last.range.stride = last.range.bytes;
        return;
      }
    }
  }
  if (log.accesses.size() >= SharedAccessLog::kMaxAccesses) {
    log.truncated = true;
    return;
  }
  if (log.history_generation != log.generation) {  // the clock this generation reads by
    log.history.insert(log.history.end(), log.clock.begin(), log.clock.end());
    log.history_generation = log.generation;
  }
  const auto clock = static_cast<uint32_t>(log.history.size() / log.clock.size() - 1);
  log.accesses.push_back(SharedAccess{range, space, log.generation, clock, write, atomic, op,
                                      c.where, c.issued + 1, c.task_id});
}

}  // namespace detail

void join_clocks(const std::vector<SharedAccessLog *> &participants) {
  std::vector<uint32_t> joined(participants.front()->clock.size(), 0);
  for (const SharedAccessLog *log : participants)
    for (size_t k = 0; k < joined.size(); ++k) joined[k] = std::max(joined[k], log->clock[k]);
  // What each core did before this barrier is now ordered before what any
  // participant does after it.
  for (const SharedAccessLog *log : participants)
    joined[log->core] = std::max(joined[log->core], log->generation + 1);
  for (SharedAccessLog *log : participants) {
    log->clock = joined;
    ++log->generation;
  }
}

namespace {

// The logs keep their capacity from launch to launch (launches are serialised):
// a fresh log per launch would page-fault its way to its size every time.
std::vector<SharedAccessLog> &pooled_logs(size_t cores) {
  static std::vector<SharedAccessLog> pool;
  if (pool.size() < cores) pool.resize(cores);
  return pool;
}

}  // namespace

RaceCheck::RaceCheck(std::vector<CoreContext> &cores)
    : cores_(cores), logs_(pooled_logs(cores.size())) {
  for (size_t i = 0; i < cores.size(); ++i) {
    SharedAccessLog &log = logs_[i];
    log.core = static_cast<int>(i);
    log.generation = 0;
    log.clock.assign(cores.size(), 0);
    log.history.clear();
    log.history_generation = UINT32_MAX;
    log.accesses.clear();
    log.truncated = false;
    cores[i].access_log = &log;
  }
}

namespace {

struct Entry {
  uintptr_t lo, hi;  // bounding bytes
  const SharedAccessLog *log;
  const SharedAccess *access;
};

// a happened before b: a barrier that b's core had passed ended a's generation.
bool ordered_before(const Entry &a, const Entry &b) {
  const size_t n = b.log->clock.size();
  return a.access->generation < b.log->history[b.access->clock * n + a.log->core];
}

// (Two atomics never meet here: the sweep keeps them in a set of their own.)
bool conflict(const Entry &a, const Entry &b, uintptr_t *lo, uintptr_t *hi) {
  if (a.log == b.log) return false;
  if (!detail::first_overlap(a.access->range, b.access->range, lo, hi)) return false;
  return !ordered_before(a, b) && !ordered_before(b, a);
}

std::string describe(const CoreContext &core, const SharedAccess &a) {
  return fmt::format("{} (task {}) {}{} (its instruction #{})", detail::core_name(core), a.task,
                     a.op, a.where != nullptr ? fmt::format(" at {}", a.where) : std::string(),
                     a.seq);
}

// The accesses of one kind (plain reads, plain writes, atomics) that may still
// meet later ones in the sweep. Expired entries are dropped before the set is
// searched, or when it has doubled since the last drop (amortised linear).
class ActiveSet {
 public:
  void clear() { entries_.clear(), kept_ = 0; }
  void add(const Entry &e, uintptr_t lo) {
    if (entries_.size() > 2 * kept_ + 64) expire(lo);
    entries_.push_back(e);
  }
  // The first entry of this set that races with e, or null.
  const Entry *race_with(const Entry &e, uintptr_t *lo, uintptr_t *hi) {
    expire(e.lo);
    for (const Entry &o : entries_)
      if (conflict(o, e, lo, hi)) return &o;
    return nullptr;
  }

 private:
  void expire(uintptr_t lo) {
    std::erase_if(entries_, [lo](const Entry &e) { return e.hi <= lo; });
    kept_ = entries_.size();
  }
  std::vector<Entry> entries_;
  size_t kept_ = 0;
};

// "GDRAM allocation #2 +0x40 (of 4096 bytes)", "SRAM +0x40 of cluster 1".
std::string describe_place(const CoreContext &core, Space space, uintptr_t p) {
  if (space == Space::kSram)
    return fmt::format("SRAM +{:#x} of cluster {}", p - reinterpret_cast<uintptr_t>(core.sram),
                       core.physical_cluster);
  return gdram_describe(*core.gdram, reinterpret_cast<const void *>(p));
}

std::string describe_race(const std::vector<CoreContext> &cores, const Entry &first,
                          const Entry &second, uintptr_t lo, uintptr_t hi) {
  const SharedAccess &a = *first.access, &b = *second.access;
  const CoreContext &a_core = cores[first.log->core];
  const bool sram = a.space == Space::kSram;
  return fmt::format(
      "{} race: {} {} {} bytes at {} and {} {} it, {}", space_name(a.space),
      describe(a_core, a), a.write ? "writes" : "reads", hi - lo,
      describe_place(a_core, a.space, lo), describe(cores[second.log->core], b),
      b.write ? "writes" : "reads",
      sram ? "with no __sync_cluster() between them"
           : "with no barrier ordering them (tasks of a BLOCK launch, and different UnionN "
             "tasks, are never ordered; the cores of one UnionN task are ordered by "
             "__sync_all, those of a cluster also by __sync_cluster)");
}

}  // namespace

std::string RaceCheck::first_race() const {
  // Reused from launch to launch (launches are serialised), like the logs.
  static std::vector<Entry> entries;
  static ActiveSet reads, writes, atomics;
  entries.clear();
  for (ActiveSet *set : {&reads, &writes, &atomics}) set->clear();
  for (size_t i = 0; i < cores_.size(); ++i) {
    const SharedAccessLog &log = logs_[i];
    if (log.truncated)
      log::runtime().info("race check: {} made more than {} shared-memory accesses; later "
                          "ones are not checked",
                          detail::core_name(cores_[log.core]), SharedAccessLog::kMaxAccesses);
    for (const SharedAccess &a : log.accesses)
      entries.push_back(Entry{a.range.lo, a.range.hi(), &log, &a});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.lo < b.lo; });
  // Sweep by start address: an entry can meet only those still active. Reads
  // race with writes and atomics, atomics with plain accesses, writes with all.
  for (const Entry &e : entries) {
    const bool atomic = e.access->atomic, write = e.access->write && !atomic;
    for (ActiveSet *set : {&writes, atomic ? nullptr : &atomics, write || atomic ? &reads : nullptr}) {
      uintptr_t lo, hi;
      const Entry *other = set != nullptr ? set->race_with(e, &lo, &hi) : nullptr;
      if (other != nullptr) return describe_race(cores_, *other, e, lo, hi);
    }
    (atomic ? atomics : write ? writes : reads).add(e, e.lo);
  }
  return "";
}

}  // namespace mlusim
