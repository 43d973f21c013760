#include "runtime/race_check.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"

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
                          bool atomic, const char *op, const char *where, uint64_t seq,
                          const WrittenBytes &written) {
  SharedAccessLog &log = *c.access_log;
  const auto continues = [&](size_t k) {
    SharedAccess &run = log.accesses[k];
    if (run.write != write || run.generation != log.generation || run.atomic != atomic ||
        run.op != op || run.where != where || run.task != c.task_id || !extend(run.range, range))
      return false;
    run.written.add(written);
    return true;
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
  log.accesses.push_back(SharedAccess{.range = range, .written = written, .op = op, .where = where,
                                      .seq = seq, .generation = log.generation, .clock = clock,
                                      .task = c.task_id, .space = space, .write = write,
                                      .atomic = atomic});
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

// The tasks barriers can order together: one UnionN task's (tasks / `group`),
// or a BLOCK task alone (group 1).
size_t union_task(const SharedAccess &a, size_t group) { return static_cast<size_t>(a.task) / group; }

// Some bytes of one access: [lo, hi), and whose; what its class stored there
// (the access's bytes, with those of the class's other accesses still ahead).
struct Entry {
  uintptr_t lo, hi;
  const SharedAccessLog *log;
  const SharedAccess *access;
  WrittenBytes written;
};

// One access walked in address order, a few segments at a time.
struct Walk {
  uintptr_t lo;    // where its first segment not yet taken starts
  uint32_t order;  // its core's, then its own place in program order, among all accesses
  size_t next;     // its first segment not yet taken
  Segments run;    // the access's bytes; one segment where its segments touch
  const SharedAccessLog *log;
  const SharedAccess *access;
  void take_up_to(size_t last) {
    next = last + 1;
    lo = run.lo + next * run.stride;
  }
};

Segments walked(const Segments &r) {
  if (r.count == 1 || r.stride <= r.bytes) return Segments{r.lo, r.hi() - r.lo, r.hi() - r.lo, 1};
  return r;
}

// A walk taken up to some segment, in the heap of those to go on with: its
// place (as in the walk) and which walk (an index into the sorted starts).
struct Resumed {
  uintptr_t lo;
  uint32_t order;
  uint32_t walk;
};

// Address order; among equal addresses, core then program order (which of
// two racing accesses a report names first does not depend on the sort). A
// function object, so that the sort and the heap inline it.
constexpr auto later = [](const auto &a, const auto &b) {
  return a.lo != b.lo ? a.lo > b.lo : a.order > b.order;
};

// a happened before b: a barrier that b's core had passed ended a's generation.
bool ordered_before(const Entry &a, const Entry &b) {
  const size_t n = b.log->clock.size();
  return a.access->generation < b.log->history[b.access->clock * n + a.log->core];
}

// The bytes some accesses of one kind (plain reads, plain writes or atomics)
// still cover as the sweep goes up through the address space, by core and,
// within a core, by class: a task and a generation (accesses of one class are
// ordered alike with any other access). Each class keeps the last bytes it
// reached, its other bytes lie below the sweep, and what its accesses that
// still reach ahead stored. Every class kept there covers the address the
// sweep is at (those that end below it are dropped as met), so one that an
// access there may race with does: which they are is a question of ordering
// alone, answered per core by a lookup, whatever the number of accesses and
// generations:
//  - a class of another UnionN task (another BLOCK task) is unordered with it
//    in GDRAM, and never meets it in SRAM (a cluster runs its tasks in turn);
//  - in the same UnionN task, the classes of core k that are not ordered
//    before it are those of generation >= its clock of k; they race with it
//    up to the first that is ordered after it (then so are the later ones).
class ActiveSet {
 public:
  void clear(size_t cores) {
    if (lanes_.size() < cores) lanes_.resize(cores);
    for (Lane &lane : lanes_) lane.clear();  // keeps its room for the next launch
    busy_.clear();
  }
  void add(const Entry &e) {
    Lane &lane = lanes_[e.log->core];
    if (lane.empty()) busy_.push_back(e.log->core);
    const uint64_t k = key(e.access->task, e.access->generation);
    const auto it = at_or_after(lane, k);
    if (it == lane.end() || it->first != k) {
      lane.insert(it, {k, e});
      return;
    }
    // Nothing the sweep takes later starts below e: the class's bytes there
    // are e's, and the kept ones' that reach past its start.
    Entry &kept = it->second;
    WrittenBytes written = e.written;
    if (kept.hi > e.lo) written.add(kept.written);
    if (kept.hi < e.hi) kept = e;
    kept.written = written;
  }
  // An access met (starting at e.lo), and the keys of its UnionN task's
  // classes [own_first, own_end): those of the others sort before and after.
  struct Met {
    const Entry &e;
    uint64_t own_first, own_end;
    Met(const Entry &e, size_t group)
        : e(e),
          own_first(key(union_task(*e.access, group) * group, 0)),
          own_end(key((union_task(*e.access, group) + 1) * group, 0)) {}
  };

  // Adds to `racing` each class of this set that races with an access met.
  void races_with(const Met &met, Space space, std::vector<Entry> &racing) {
    for (size_t i = 0; i < busy_.size();) {
      const int k = busy_[i];
      races_in_lane(lanes_[k], k, met, space, racing);
      if (lanes_[k].empty()) {
        busy_[i] = busy_.back();
        busy_.pop_back();
      } else {
        ++i;
      }
    }
  }

 private:
  // A core's classes, sorted by key: a few at a time, so a vector (no node to
  // allocate and free as classes come and go at every step of the sweep).
  // (Boost 1.74's flat_map, tried first, crashed in try_emplace at -O3 with GCC 12.)
  using Lane = std::vector<std::pair<uint64_t, Entry>>;
  static Lane::iterator at_or_after(Lane &lane, uint64_t k) {
    return std::lower_bound(lane.begin(), lane.end(), k,
                            [](const auto &c, uint64_t key) { return c.first < key; });
  }
  static uint64_t key(size_t task, uint32_t generation) {
    return static_cast<uint64_t>(task) << 32 | generation;
  }
  static int task_of(Lane::const_iterator it) { return static_cast<int>(it->first >> 32); }

  // The first class from `it` on that still covers `lo`; the ones passed are dropped.
  static Lane::iterator live(Lane &lane, Lane::iterator it, uintptr_t lo) {
    while (it != lane.end() && it->second.hi <= lo) it = lane.erase(it);
    return it;
  }

  // Adds class c, which races with e, to `racing` unless the last one added
  // names the same site and stored e's bytes as much: the same pair of sites,
  // of the same grade (many tasks storing one flag race as one pair).
  static void add_racing(const Entry &c, const Entry &e, std::vector<Entry> &racing) {
    if (!racing.empty()) {
      const Entry &last = racing.back();
      if (last.access->op == c.access->op && last.access->where == c.access->where &&
          last.written.same_as(e.written) == c.written.same_as(e.written))
        return;
    }
    racing.push_back(c);
  }

  static void races_in_lane(Lane &lane, int k, const Met &met, Space space,
                            std::vector<Entry> &racing) {
    const Entry &e = met.e;
    const uint64_t own_first = met.own_first, own_end = met.own_end;
    auto it = live(lane, lane.begin(), e.lo);
    if (space == Space::kGdram) {
      for (; it != lane.end() && it->first < own_first; it = live(lane, std::next(it), e.lo))
        add_racing(it->second, e, racing);
      const size_t first_after = it - lane.begin();  // the classes from the back stop there
      for (size_t i = lane.size(); i > first_after && lane[i - 1].first >= own_end; --i) {
        if (lane[i - 1].second.hi <= e.lo)
          lane.erase(lane.begin() + static_cast<ptrdiff_t>(i - 1));
        else
          add_racing(lane[i - 1].second, e, racing);
      }
      it = lane.begin() + static_cast<ptrdiff_t>(first_after);
    }
    if (it == lane.end() || k == e.log->core) return;  // its own task: program order
    it = live(lane, at_or_after(lane, own_first), e.lo);
    if (it == lane.end() || it->first >= own_end) return;
    const int task = task_of(it);
    const size_t n = e.log->clock.size();
    const uint32_t seen = e.log->history[e.access->clock * n + static_cast<size_t>(k)];
    for (it = live(lane, at_or_after(lane, key(static_cast<size_t>(task), seen)), e.lo);
         it != lane.end() && task_of(it) == task && !ordered_before(e, it->second);
         it = live(lane, std::next(it), e.lo))
      add_racing(it->second, e, racing);
  }

  std::vector<Lane> lanes_;  // by core
  std::vector<int> busy_;    // the cores with classes
};

std::string describe(const CoreContext &core, const SharedAccess &a) {
  // Scalar code runs between instructions: after the last one issued.
  const std::string when =
      a.op != kScalarCodeOp ? fmt::format("its instruction #{}", a.seq)
      : a.seq > 1           ? fmt::format("after its instruction #{}", a.seq - 1)
                            : std::string("before its first instruction");
  return fmt::format("{} (task {}) {}{} ({})", detail::core_name(core), a.task, a.op,
                     a.where != nullptr ? fmt::format(" at {}", a.where) : std::string(), when);
}

// "GDRAM allocation #2 +0x40 (of 4096 bytes)", "SRAM +0x40 of cluster 1"
// (an access's own cluster, or the one a copy to another cluster wrote).
std::string describe_place(const std::vector<CoreContext> &cores, const CoreContext &core,
                           Space space, uintptr_t p) {
  if (space == Space::kSram)
    for (const CoreContext &k : cores)
      if (p - reinterpret_cast<uintptr_t>(k.sram) < k.sram_capacity)
        return fmt::format("SRAM +{:#x} of cluster {}", p - reinterpret_cast<uintptr_t>(k.sram),
                           k.physical_cluster);
  return gdram_describe(*core.gdram, reinterpret_cast<const void *>(p));
}

// Why nothing orders the two accesses.
std::string unordered_because(const std::vector<CoreContext> &cores, const Entry &first,
                              const Entry &second, size_t group) {
  if (union_task(*first.access, group) != union_task(*second.access, group))
    return group == 1 ? "with nothing ordering them: tasks of a BLOCK launch are never ordered, "
                        "not even when one runs after the other on the same core"
                      : "with nothing ordering them: different UnionN tasks are never ordered, "
                        "not even when one runs after the other on the same cluster";
  const bool one_cluster = cores[first.log->core].physical_cluster ==
                           cores[second.log->core].physical_cluster;
  if (first.access->space == Space::kSram && one_cluster)
    return "with no __sync_cluster() between them";
  if (first.access->space == Space::kSram)  // a copy into another cluster's SRAM
    return "with no __sync_all() between them (only it orders the cores of two clusters)";
  return "with no barrier ordering them (the cores of one UnionN task are ordered by __sync_all, "
         "those of a cluster also by __sync_cluster)";
}

// The first 8 bytes of [lo, hi) as `written` has them, in hex, in address
// order; for copies, their digest.
std::string bytes_at(const WrittenBytes &written, uintptr_t lo, uintptr_t hi) {
  if (written.is_digest()) return fmt::format("copied, digest {:016x}", written.bytes);
  std::string text;
  for (uintptr_t p = lo; p < std::min(hi, lo + 8); ++p)
    text += fmt::format("{:02x}", (written.bytes >> (8 * (p % 8))) & 0xff);
  return hi - lo > 8 ? text + "..." : text;
}

// A site of the kernel: an instruction (or scalar code) and its line.
struct Site {
  std::string_view op, where;
  explicit Site(const SharedAccess &a) : op(a.op), where(a.where != nullptr ? a.where : "") {}
  bool operator==(const Site &) const = default;
};

}  // namespace

// Two accesses that race: an earlier one's class, and the access met there
// with the bytes they share from its start; benign when both are plain
// writes of the same bytes (wherever they meet: the sweep takes repeats of
// a stride at once, so one meeting stands for others).
struct Race {
  Entry other, access;
  uintptr_t lo, hi;
  bool benign;

  // The two sites, in the same order whichever access the sweep met first.
  std::pair<Site, Site> sites() const {
    const Site a(*other.access), b(*access.access);
    const bool ordered = a.op != b.op ? a.op < b.op : a.where <= b.where;
    return ordered ? std::make_pair(a, b) : std::make_pair(b, a);
  }
};

std::string describe_race(const std::vector<CoreContext> &cores, const Race &race, size_t group) {
  const SharedAccess &a = *race.other.access, &b = *race.access.access;
  const CoreContext &a_core = cores[race.other.log->core];
  const std::string kind =
      race.benign ? fmt::format("benign {} race, both write the same bytes ({})",
                                space_name(a.space), bytes_at(race.access.written, race.lo, race.hi))
                  : fmt::format("{} race", space_name(a.space));
  return fmt::format("{}: {} {} {} bytes at {} and {} {} it, {}", kind, describe(a_core, a),
                     a.write ? "writes" : "reads", race.hi - race.lo,
                     describe_place(cores, a_core, a.space, race.lo),
                     describe(cores[race.access.log->core], b), b.write ? "writes" : "reads",
                     unordered_because(cores, race.other, race.access, group));
}

// The races a launch lists: one per distinct pair of sites, in the order the
// sweep meets them, a pair's first race that is no benign one over a benign
// one; at most RaceCheck::kMostListed, and the first fault-grade race met
// whatever the count.
class Findings {
 public:
  void clear() {
    listed_.clear();
    sites_.clear();
    first_fault_ = kNone;
  }
  // Takes a race the sweep met; true when nothing more needs finding: the
  // list is full and holds a fault-grade race.
  bool take(const Race &race) {
    const auto sites = race.sites();
    const auto same = std::find(sites_.begin(), sites_.end(), sites);
    if (same != sites_.end()) {
      Race &listed = listed_[static_cast<size_t>(same - sites_.begin())];
      if (listed.benign && !race.benign) {
        listed = race;
        if (first_fault_ == kNone) first_fault_ = static_cast<size_t>(same - sites_.begin());
      }
    } else if (!full() || (!race.benign && first_fault_ == kNone)) {
      if (!race.benign && first_fault_ == kNone) first_fault_ = listed_.size();
      listed_.push_back(race);
      sites_.push_back(sites);
    }
    return full() && first_fault_ != kNone;
  }
  const std::vector<Race> &listed() const { return listed_; }
  // The first race met that is not benign, or null.
  const Race *first_fault() const { return first_fault_ != kNone ? &listed_[first_fault_] : nullptr; }
  // At the cap: other distinct races may go unlisted.
  bool full() const { return listed_.size() >= RaceCheck::kMostListed; }

 private:
  static constexpr size_t kNone = ~size_t{0};
  std::vector<Race> listed_;
  std::vector<std::pair<Site, Site>> sites_;  // listed_'s
  size_t first_fault_ = kNone;
};

// Sweeps up through the address space, an access's segments up to where the
// next other access starts at a time. Reads race with writes and atomics,
// atomics with plain accesses, writes with all.
//
// Accesses of several cores whose segments interleave (each core writing its
// columns of rows, say) would be taken a segment at a time. Where every
// access starting within one stride of the sweep has that stride, with
// segments that do not meet, the pattern repeats unchanged for as many
// strides as they all last: the sweep checks the first of them and takes the
// rest at once. What the repeats could meet covers their first segments too
// (it started below them), and no other access starts among them.
class Sweep {
 public:
  void clear(size_t cores, size_t group) {
    starts_.clear();
    resumed_.clear();
    next_start_ = 0;
    no_batch_below_ = 0;
    group_ = group;
    for (ActiveSet *set : {&reads_, &writes_, &atomics_}) set->clear(cores);
  }
  void add(const SharedAccessLog &log, const SharedAccess &a) {
    starts_.push_back(
        Walk{a.range.lo, static_cast<uint32_t>(starts_.size()), 0, walked(a.range), &log, &a});
  }

  // Gives `found` the races met, until it has all it needs.
  void search(Findings &found) {
    std::sort(starts_.begin(), starts_.end(),
              [](const Walk &a, const Walk &b) { return later(b, a); });
    while (next_start_ < starts_.size() || !resumed_.empty()) {
      const size_t index = take();
      const Walk &w = starts_[index];
      const size_t last = last_segment(w, limit());
      if (const size_t periods = interleaved_periods(index, last)) {
        for (size_t i : interleaved_)
          if (check(starts_[i], starts_[i].next, found)) return;
        for (size_t i : interleaved_) add_and_resume(i, starts_[i].next + periods - 1);
        continue;
      }
      if (check(w, last, found)) return;
      add_and_resume(index, last);
    }
  }

 private:
  static constexpr size_t kMostInterleaved = 1024;

  // The next walk in sweep order, taken off the sorted starts or the heap.
  size_t take() {
    const bool from_starts = resumed_.empty() || (next_start_ < starts_.size() &&
                                                  later(resumed_.front(), starts_[next_start_]));
    if (from_starts) return next_start_++;
    const size_t index = resumed_.front().walk;
    std::pop_heap(resumed_.begin(), resumed_.end(), later);
    resumed_.pop_back();
    return index;
  }
  // Where the next walk not taken starts.
  uintptr_t limit() const {
    uintptr_t at = UINTPTR_MAX;
    if (next_start_ < starts_.size()) at = starts_[next_start_].lo;
    if (!resumed_.empty()) at = std::min(at, resumed_.front().lo);
    return at;
  }
  static size_t last_segment(const Walk &w, uintptr_t limit) {
    const Segments &r = w.run;
    const size_t last = r.count - 1;
    if (r.count == 1 || limit >= r.lo + last * r.stride) return last;
    return std::max(w.next, (limit - r.lo) / r.stride);
  }

  // Checks w's segments from its next to `last` against what the sweep
  // holds; true when `found` needs no more.
  bool check(const Walk &w, size_t last, Findings &found) {
    const Segments &r = w.run;
    const SharedAccess &a = *w.access;
    const Entry e{w.lo, r.lo + last * r.stride + r.bytes, w.log, w.access, a.written};
    const ActiveSet::Met met(e, group_);
    const bool atomic = a.atomic, write = a.write && !atomic;
    for (ActiveSet *set :
         {&writes_, atomic ? nullptr : &atomics_, write || atomic ? &reads_ : nullptr}) {
      if (set == nullptr) continue;
      racing_.clear();
      set->races_with(met, a.space, racing_);
      // Two plain writes of the same bytes are benign wherever they meet.
      for (const Entry &other : racing_)
        if (found.take(Race{other, e, w.lo, std::min(other.hi, w.lo + r.bytes),
                            write && set == &writes_ && other.written.same_as(e.written)}))
          return true;
    }
    return false;
  }
  // w's class now reaches its segment `last`; what is left of it goes back on the heap.
  void add_and_resume(size_t index, size_t last) {
    Walk &w = starts_[index];
    const Segments &r = w.run;
    const SharedAccess &a = *w.access;
    const uintptr_t last_lo = r.lo + last * r.stride;
    ActiveSet &set = a.atomic ? atomics_ : a.write ? writes_ : reads_;
    set.add(Entry{last_lo, last_lo + r.bytes, w.log, w.access, a.written});
    if (last + 1 == r.count) return;
    w.take_up_to(last);
    resumed_.push_back(Resumed{w.lo, w.order, static_cast<uint32_t>(index)});
    std::push_heap(resumed_.begin(), resumed_.end(), later);
  }

  // When walk `first` would be taken one segment (`last`) at a time: the
  // walks starting within one stride of it, taken into interleaved_, and how
  // many strides they repeat for (the class comment). 0 when they do not
  // repeat at least twice: every walk but `first` is then back where it was.
  size_t interleaved_periods(size_t first, size_t last) {
    const Walk &w = starts_[first];
    if (last != w.next || last + 1 == w.run.count || w.lo < no_batch_below_) return 0;
    const uintptr_t period_end = w.lo + w.run.stride;
    interleaved_.assign(1, first);
    const size_t starts_before = next_start_;
    while (interleaved_.size() < kMostInterleaved && limit() < period_end) interleaved_.push_back(take());
    const size_t periods = common_periods(period_end);
    if (periods >= 2) return periods;
    no_batch_below_ = period_end;  // not again within this stride: each try takes its walks
    next_start_ = starts_before;
    for (size_t i = 1; i < interleaved_.size(); ++i) {
      const Walk &o = starts_[interleaved_[i]];
      if (interleaved_[i] >= starts_before) continue;  // back among the starts
      resumed_.push_back(Resumed{o.lo, o.order, static_cast<uint32_t>(interleaved_[i])});
      std::push_heap(resumed_.begin(), resumed_.end(), later);
    }
    return 0;
  }
  // How many strides the interleaved walks repeat for: 0 unless they share a
  // stride and their segments, in sweep order, end before the next begins
  // (the last before the first's next one); no more than each has left, and
  // none reaching the next walk not among them.
  size_t common_periods(uintptr_t period_end) const {
    const size_t stride = starts_[interleaved_.front()].run.stride;
    size_t periods = SIZE_MAX;
    uintptr_t free_from = 0;  // where the previous segment ended
    for (size_t index : interleaved_) {
      const Walk &o = starts_[index];
      if (o.run.count < 2 || o.run.stride != stride || o.lo < free_from) return 0;
      free_from = o.lo + o.run.bytes;
      periods = std::min(periods, o.run.count - o.next);
    }
    if (free_from > period_end) return 0;
    const uintptr_t last_lo = starts_[interleaved_.back()].lo;
    const uintptr_t before = limit();  // no period may start a segment there or beyond
    if (before <= last_lo) return 0;
    return std::min(periods, (before - last_lo - 1) / stride + 1);
  }

  std::vector<Walk> starts_;      // every access by its start, walked in place
  std::vector<Resumed> resumed_;  // a heap of those partly walked
  size_t next_start_ = 0;         // the first start not taken
  size_t group_ = 1;              // tasks per UnionN task (1: BLOCK)
  ActiveSet reads_, writes_, atomics_;
  std::vector<size_t> interleaved_;  // interleaved_periods()'s walks, in sweep order
  std::vector<Entry> racing_;        // the classes an access races with
  uintptr_t no_batch_below_ = 0;  // where the last try that failed ended
};

namespace {

// Where some accesses lie: their hulls, sorted and merged. An access that
// meets none of the accesses it could race with needs no walk.
class Footprint {
 public:
  void clear() { spans_.clear(); }
  void add(const Segments &r) { spans_.push_back({r.lo, r.hi()}); }
  // Call once every access is added, before meets().
  void close() {
    std::sort(spans_.begin(), spans_.end());
    size_t kept = 0;
    for (const Span &s : spans_) {
      if (kept > 0 && s.lo <= spans_[kept - 1].hi)
        spans_[kept - 1].hi = std::max(spans_[kept - 1].hi, s.hi);
      else
        spans_[kept++] = s;
    }
    spans_.resize(kept);
  }
  bool meets(const Segments &r) const {
    const auto first_ending_after = std::upper_bound(
        spans_.begin(), spans_.end(), r.lo, [](uintptr_t lo, const Span &s) { return lo < s.hi; });
    return first_ending_after != spans_.end() && first_ending_after->lo < r.hi();
  }

 private:
  struct Span {
    uintptr_t lo, hi;
    bool operator<(const Span &o) const { return lo < o.lo; }
  };
  std::vector<Span> spans_;
};

// The accesses the sweep must walk. Reads race with writes and atomics,
// atomics with plain accesses: a read or an atomic that meets none of those
// is left out (a loop's input loads, atomics no plain access comes near),
// which changes no race found and no report: such an access is never the one
// a class names where another meets it.
class Candidates {
 public:
  template <typename Logs>
  void find(const Logs &logs, size_t cores) {
    plain_.clear();
    stores_.clear();
    each(logs, cores, [&](const SharedAccess &a) {
      if (!a.atomic) plain_.add(a.range);
    });
    plain_.close();
    each(logs, cores, [&](const SharedAccess &a) {
      if (a.atomic ? plain_.meets(a.range) : a.write) stores_.add(a.range);
    });
    stores_.close();
  }
  bool walked(const SharedAccess &a) const {
    return a.atomic ? plain_.meets(a.range) : a.write || stores_.meets(a.range);
  }

 private:
  template <typename Logs, typename F>
  static void each(const Logs &logs, size_t cores, const F &f) {
    for (size_t i = 0; i < cores; ++i)
      for (const SharedAccess &a : logs[i].accesses)
        if (a.range.bytes > 0) f(a);
  }
  Footprint plain_;   // reads and writes
  Footprint stores_;  // writes, and the atomics that meet a plain access
};

}  // namespace

std::string RaceCheck::report(RaceMode mode) const {
  // Reused from launch to launch (launches are serialised), like the logs.
  static Sweep sweep;
  static Findings found;
  static Candidates candidates;
  const size_t group = cores_[0].launch->union_tasks;
  const char *kernel = cores_[0].launch->kernel;
  sweep.clear(cores_.size(), group);
  std::string incomplete;
  candidates.find(logs_, cores_.size());
  for (size_t i = 0; i < cores_.size(); ++i) {
    const SharedAccessLog &log = logs_[i];
    if (log.dropped > 0 && incomplete.empty())
      incomplete = fmt::format(
          "the race check is incomplete: {} made more than {} separate accesses to shared "
          "memory, and {} later ones were not checked",
          detail::core_name(cores_[log.core]), SharedAccessLog::kMaxAccesses, log.dropped);
    for (const SharedAccess &a : log.accesses)
      if (a.range.bytes > 0 && candidates.walked(a)) sweep.add(log, a);
  }
  if (!incomplete.empty()) log::runtime().warn("kernel '{}': {}", kernel, incomplete);
  found.clear();
  sweep.search(found);
  const std::string also = incomplete.empty() ? std::string() : " (" + incomplete + ")";
  const Race *fault = mode == RaceMode::kFault ? found.first_fault() : nullptr;
  for (const Race &race : found.listed()) {
    if (&race == fault) continue;
    const std::string text = describe_race(cores_, race, group) + also;
    if (race.benign) log::kernel().info("kernel '{}': {}", kernel, text);
    else log::kernel().warn("kernel '{}': {}", kernel, text);
  }
  if (found.full())
    log::kernel().warn("kernel '{}': the race check lists at most {} distinct races (pairs of "
                       "instructions and lines) a launch; this launch may have more",
                       kernel, kMostListed);
  if (fault == nullptr) return "";
  std::string text = describe_race(cores_, *fault, group);
  if (found.listed().size() > 1)
    text += fmt::format(" (the kernel log lists {} other races)", found.listed().size() - 1);
  return text + also;
}

}  // namespace mlusim
