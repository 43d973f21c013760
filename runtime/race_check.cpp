#include "runtime/race_check.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/scalar_code.h"
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

namespace {

// Extends `run` by `range` where the two are one exact run: the same bytes
// again, the bytes right after, or one more segment of the run's size at its
// stride (the second such segment sets the stride). A scalar loop's accesses
// become one entry this way, as an intrinsic's strided range is.
bool extend(Segments &run, const Segments &range) {
  if (range.count != 1) return false;
  if (run.count == 1) {
    if (range.lo >= run.lo && range.lo + range.bytes <= run.lo + run.bytes) return true;
    if (range.lo == run.lo + run.bytes) {
      run.bytes += range.bytes;
      run.stride = run.bytes;
      return true;
    }
    if (range.bytes != run.bytes || range.lo < run.lo + run.bytes) return false;
    run.stride = range.lo - run.lo;
    run.count = 2;
    return true;
  }
  const uintptr_t last = run.lo + (run.count - 1) * run.stride;
  if (range.bytes != run.bytes || (range.lo != last && range.lo != last + run.stride)) return false;
  if (range.lo != last) ++run.count;
  return true;
}

}  // namespace

namespace detail {

void append_shared_access(CoreContext &c, Space space, const Segments &range, bool write,
                          bool atomic, const char *op, const char *where, uint64_t seq) {
  SharedAccessLog &log = *c.access_log;
  const auto continues = [&](size_t k) {
    SharedAccess &run = log.accesses[k];
    return run.write == write && run.generation == log.generation && run.atomic == atomic &&
           run.op == op && run.where == where && run.task == c.task_id &&
           extend(run.range, range);
  };
  // The run this direction continued last, then the newest runs: a loop's
  // interleaved streams (a[i] + c[i] on one line) each stay one run.
  size_t &last = log.last[write];
  if (last != SharedAccessLog::kNone && continues(last)) return;
  const size_t newest = log.accesses.size();
  for (size_t k = newest; k-- > 0 && newest - k <= SharedAccessLog::kRecentRuns;)
    if (k != last && continues(k)) {
      last = k;
      return;
    }
  if (log.accesses.size() >= SharedAccessLog::kMaxAccesses) {
    ++log.dropped;
    return;
  }
  if (log.history_generation != log.generation) {  // the clock this generation reads by
    log.history.insert(log.history.end(), log.clock.begin(), log.clock.end());
    log.history_generation = log.generation;
  }
  const auto clock = static_cast<uint32_t>(log.history.size() / log.clock.size() - 1);
  last = log.accesses.size();
  if (log.accesses.size() == log.accesses.capacity()) grow_log(c, log.accesses);
  log.accesses.push_back(
      SharedAccess{range, space, log.generation, clock, write, atomic, op, where, seq, c.task_id});
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
    log.last[0] = log.last[1] = SharedAccessLog::kNone;
    log.dropped = 0;
    cores[i].access_log = &log;
  }
}

namespace {

struct Entry {
  uintptr_t lo, hi;  // bounding bytes
  const SharedAccessLog *log;
  const SharedAccess *access;
};

// The tasks barriers can order together: one UnionN task's (tasks / `group`),
// or a BLOCK task alone (group 1).
bool same_union_task(const Entry &a, const Entry &b, size_t group) {
  return static_cast<size_t>(a.access->task) / group == static_cast<size_t>(b.access->task) / group;
}

// a happened before b: a barrier that b's core had passed ended a's generation.
bool ordered_before(const Entry &a, const Entry &b) {
  const size_t n = b.log->clock.size();
  return a.access->generation < b.log->history[b.access->clock * n + a.log->core];
}

// (Two atomics never meet here: the sweep keeps them in a set of their own.)
bool conflict(const Entry &a, const Entry &b, size_t group, uintptr_t *lo, uintptr_t *hi) {
  if (a.log == b.log && a.access->task == b.access->task) return false;  // program order
  if (!detail::first_overlap(a.access->range, b.access->range, lo, hi)) return false;
  // A cluster runs its UnionN tasks one after the other, and no other task
  // shares its SRAM: SRAM accesses of different tasks never meet in time.
  if (!same_union_task(a, b, group)) return a.access->space != Space::kSram;
  return !ordered_before(a, b) && !ordered_before(b, a);
}

std::string describe(const CoreContext &core, const SharedAccess &a) {
  // Scalar code runs between instructions: after the last one issued.
  const std::string when =
      a.op != detail::kScalarCodeOp ? fmt::format("its instruction #{}", a.seq)
      : a.seq > 1                   ? fmt::format("after its instruction #{}", a.seq - 1)
                                    : std::string("before its first instruction");
  return fmt::format("{} (task {}) {}{} ({})", detail::core_name(core), a.task, a.op,
                     a.where != nullptr ? fmt::format(" at {}", a.where) : std::string(), when);
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
  const Entry *race_with(const Entry &e, size_t group, uintptr_t *lo, uintptr_t *hi) {
    expire(e.lo);
    for (const Entry &o : entries_)
      if (conflict(o, e, group, lo, hi)) return &o;
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

// Why nothing orders the two accesses.
std::string unordered_because(const Entry &first, const Entry &second, size_t group) {
  if (!same_union_task(first, second, group))
    return group == 1 ? "with nothing ordering them: tasks of a BLOCK launch are never ordered, "
                        "not even when one runs after the other on the same core"
                      : "with nothing ordering them: different UnionN tasks are never ordered, "
                        "not even when one runs after the other on the same cluster";
  if (first.access->space == Space::kSram) return "with no __sync_cluster() between them";
  return "with no barrier ordering them (the cores of one UnionN task are ordered by __sync_all, "
         "those of a cluster also by __sync_cluster)";
}

std::string describe_race(const std::vector<CoreContext> &cores, const Entry &first,
                          const Entry &second, size_t group, uintptr_t lo, uintptr_t hi) {
  const SharedAccess &a = *first.access, &b = *second.access;
  const CoreContext &a_core = cores[first.log->core];
  return fmt::format("{} race: {} {} {} bytes at {} and {} {} it, {}", space_name(a.space),
                     describe(a_core, a), a.write ? "writes" : "reads", hi - lo,
                     describe_place(a_core, a.space, lo), describe(cores[second.log->core], b),
                     b.write ? "writes" : "reads", unordered_because(first, second, group));
}

}  // namespace

std::string RaceCheck::first_race() const {
  // Reused from launch to launch (launches are serialised), like the logs.
  static std::vector<Entry> entries;
  static ActiveSet reads, writes, atomics;
  entries.clear();
  for (ActiveSet *set : {&reads, &writes, &atomics}) set->clear();
  std::string incomplete;
  for (size_t i = 0; i < cores_.size(); ++i) {
    const SharedAccessLog &log = logs_[i];
    if (log.dropped > 0 && incomplete.empty())
      incomplete = fmt::format(
          "the race check is incomplete: {} made more than {} separate accesses to shared "
          "memory, and {} later ones were not checked",
          detail::core_name(cores_[log.core]), SharedAccessLog::kMaxAccesses, log.dropped);
    for (const SharedAccess &a : log.accesses)
      entries.push_back(Entry{a.range.lo, a.range.hi(), &log, &a});
  }
  if (!incomplete.empty()) log::runtime().warn("kernel '{}': {}", cores_[0].launch->kernel, incomplete);
  const size_t group = static_cast<size_t>(cores_[0].core_dim) * cores_[0].cluster_dim;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.lo < b.lo; });
  // Sweep by start address: an entry can meet only those still active. Reads
  // race with writes and atomics, atomics with plain accesses, writes with all.
  for (const Entry &e : entries) {
    const bool atomic = e.access->atomic, write = e.access->write && !atomic;
    for (ActiveSet *set : {&writes, atomic ? nullptr : &atomics, write || atomic ? &reads : nullptr}) {
      uintptr_t lo, hi;
      const Entry *other = set != nullptr ? set->race_with(e, group, &lo, &hi) : nullptr;
      if (other == nullptr) continue;
      const std::string race = describe_race(cores_, *other, e, group, lo, hi);
      return incomplete.empty() ? race : race + " (" + incomplete + ")";
    }
    (atomic ? atomics : write ? writes : reads).add(e, e.lo);
  }
  return "";
}

}  // namespace mlusim
