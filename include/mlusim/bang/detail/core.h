// One simulated MLU core: its identity in the launch, its on-chip memory, the
// steps its instruction stream recorded for the timing model, and counters;
// the checks of an intrinsic's operands. Everything an intrinsic touches on
// the hot path is here and inline (issuing it: issue.h); the slow paths
// (faults, hazards) are out of line.
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <atomic>
#include <bit>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "mlusim.h"
#include "mlusim/bang/detail/gdram_table.h"
#include "mlusim/bang/detail/step_log.h"
#include "mlusim/bang/detail/steps.h"

namespace mlusim {

enum class Space : uint8_t { kNram, kSram, kWram, kGdram, kLdram };
const char *space_name(Space s);

// Thrown by an intrinsic that breaks a device rule; caught by the launch.
struct KernelFault {
  std::string message;
};

// `count` runs of `bytes` bytes, each `stride` bytes after the previous one
// (a strided copy's side; count 1 for a plain range).
struct Segments {
  uintptr_t lo;
  size_t bytes, stride, count;
  uintptr_t hi() const { return lo + (count - 1) * stride + bytes; }
};

// The bytes a write stored, where they are known: the race check calls two
// unordered writes benign when both stored the same bytes. Known are bytes
// that repeat every 8 addresses or less, as a fill makes, one element, or one
// value stored over and over: byte a of memory is byte a % 8 of `bytes`
// (little-endian) wherever `known` is 0xff there. Or, for a copy's data
// (known 0, `bytes` not 0): a digest of the destination's segments and every
// byte written there (runtime/bang/memory.cpp's copied_bytes), the same only
// for the same bytes over the same range. Both 0: not known (elements of
// different values, a copy reading bytes an async copy has yet to land),
// never taken for the same.
struct WrittenBytes {
  uint64_t bytes = 0, known = 0;

  // One element of n bytes at `address`, as `value` holds it.
  static WrittenBytes element(uintptr_t address, const void *value, size_t n) {
    if (n > 8) return {};
    uint64_t v = 0;
    std::memcpy(&v, value, n);
    const uint64_t mask = n == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1;
    const int shift = static_cast<int>(address % 8) * 8;
    return {std::rotl(v & mask, shift), std::rotl(mask, shift)};
  }
  // Every byte from `address` on, the n bytes of `value` over and over.
  static WrittenBytes repeated(uintptr_t address, const void *value, size_t n) {
    if (n == 0 || n > 8 || 8 % n != 0) return {};
    uint64_t tiled = 0;
    std::memcpy(&tiled, value, n);
    for (size_t filled = n; filled < 8; filled *= 2) tiled |= tiled << (8 * filled);
    return {std::rotl(tiled, static_cast<int>(address % 8) * 8), ~uint64_t{0}};
  }
  // A copy's digest (any value: 0 is taken as 1).
  static WrittenBytes digest(uint64_t d) { return {d != 0 ? d : 1, 0}; }
  bool is_digest() const { return known == 0 && bytes != 0; }
  // What `other` stored too: not known where the two differ. Two different
  // digests make the digest of both, in this order (one write after another,
  // in program order or as the race check's sweep meets them).
  [[gnu::always_inline]] void add(const WrittenBytes &other) {
    if (is_digest()) {
      if (!other.is_digest()) *this = {};
      else if (other.bytes != bytes) *this = digest(chained(bytes, other.bytes));
      return;
    }
    if (known == 0) return;
    if (!same_as(other)) {
      *this = {};
      return;
    }
    bytes |= other.bytes;
    known |= other.known;
  }
  // Both known, and the same wherever both stored; two digests, the same one.
  bool same_as(const WrittenBytes &other) const {
    if (is_digest() || other.is_digest()) return known == other.known && bytes == other.bytes;
    return known != 0 && other.known != 0 && ((bytes ^ other.bytes) & known & other.known) == 0;
  }
  // The digest of `first` and then `next`.
  static uint64_t chained(uint64_t first, uint64_t next) {
    const uint64_t both[2] = {first, next};
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char *>(both), sizeof both));
  }
};
inline constexpr WrittenBytes kBytesNotKnown{};  // a read's

// An async copy issued but not yet retired by a fence: its data lands then.
struct PendingCopy {
  Segments dst, src;
  Pipe pipe;
  const char *op;     // "__memcpy_async GDRAM2NRAM"
  const char *where;  // its .mlu line, or null
  uint64_t seq;       // its instruction number on this core
};

// The async copies a core issued that no fence has landed yet, in issue
// order, and bounds of the bytes they reach: of what they write and of what
// they read, each inside the core's NRAM and outside it (one bound would span
// from NRAM to GDRAM while a load and a store are both in flight, and over
// the tile between a ping-pong's load and store buffers). An access outside
// the bounds meets none of them, so the hazard check need not walk the queue:
// in a ping-pong, every vector instruction runs beside the next tile's
// copies. An emptied queue forgets its bounds.
class CopiesInFlight {
 public:
  // The core's NRAM, set before its first copy (until then, every byte is
  // outside it: still a bound, only a wider one).
  void watch_nram(const void *nram, size_t bytes) {
    nram_ = reinterpret_cast<uintptr_t>(nram), nram_bytes_ = bytes;
  }
  bool empty() const { return copies_.empty(); }
  size_t size() const { return copies_.size(); }
  const PendingCopy &operator[](size_t i) const { return copies_[i]; }
  auto begin() const { return copies_.begin(); }
  auto end() const { return copies_.end(); }

  void push(const PendingCopy &p) {
    copies_.push_back(p);
    written_.add(p.dst, nram_, nram_bytes_);
    read_.add(p.src, nram_, nram_bytes_);
  }
  // Moves the copies `lands` picks to `out`, in issue order.
  template <typename Picks>
  void take(const Picks &lands, std::vector<PendingCopy> &out) {
    auto kept = copies_.begin();
    for (const PendingCopy &p : copies_) {
      if (lands(p))
        out.push_back(p);
      else
        *kept++ = p;
    }
    copies_.erase(kept, copies_.end());
    if (copies_.empty()) forget_reach();
  }
  void clear() {
    copies_.clear();
    forget_reach();
  }
  // Whether reading (writing) [lo, hi) may meet a copy in flight: what a copy
  // writes (or, for a write, reads). False: it meets none.
  bool may_meet(uintptr_t lo, uintptr_t hi, bool write) const {
    const bool in_nram = lo - nram_ < nram_bytes_ && hi - nram_ <= nram_bytes_;
    return written_.meets(lo, hi, in_nram) || (write && read_.meets(lo, hi, in_nram));
  }

 private:
  struct Bound {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    void add(uintptr_t l, uintptr_t h) {
      if (l < lo) lo = l;
      if (h > hi) hi = h;
    }
    bool meets(uintptr_t l, uintptr_t h) const { return overlaps(l, h, lo, hi); }
  };
  // One side of the copies: a side partly in NRAM widens both bounds, and an
  // access inside NRAM looks at the NRAM bound alone.
  struct Reach {
    Bound in_nram, elsewhere;
    void add(const Segments &s, uintptr_t nram, size_t nram_bytes) {
      const uintptr_t lo = s.lo, hi = s.hi();
      if (lo < nram + nram_bytes && nram < hi) in_nram.add(lo, hi);
      if (lo < nram || hi > nram + nram_bytes) elsewhere.add(lo, hi);
    }
    bool meets(uintptr_t lo, uintptr_t hi, bool inside_nram) const {
      return in_nram.meets(lo, hi) || (!inside_nram && elsewhere.meets(lo, hi));
    }
  };
  void forget_reach() { written_ = read_ = Reach{}; }

  std::vector<PendingCopy> copies_;
  uintptr_t nram_ = 0;
  size_t nram_bytes_ = 0;
  Reach written_, read_;
};

// The instructions of one compute pipe (vector or tensor) since the last
// fence that waited for it, for the compute/copy hazards (BANG C guide
// 3.3.5.1 D, E, F): an async copy starts without waiting for them. The last
// kPipeQueueDepth can still run (the stream stalls on one more): they are
// kept one by one. Older ones have ended on the board, but the guide's rule
// still asks for a fence: the bytes they read and wrote are kept by range.
// An instruction is only written down as it issues; those more than a queue
// back go into the older ranges when something reads the window
// (detail::settle_window) or the ring is full, in the order they issued,
// so a fence that comes first spares the work.
struct ComputeWindow {
  struct Entry {
    Access access;      // what it reads and writes
    const char *op;     // its intrinsic
    const char *where;  // its .mlu line, or null
    uint32_t seq;       // its instruction number in the task
  };
  // Bytes older instructions read, or wrote (one kind a list), merged where
  // they meet; the newest instruction that touched them names them in
  // reports. A list is sorted and its ranges share no bytes: a range finds
  // its place by a binary search over `hi`.
  static constexpr uint32_t kOlderRanges = 32;  // of both kinds together
  struct Older {
    uintptr_t lo[kOlderRanges], hi[kOlderRanges];
    uint32_t seq[kOlderRanges];
    const char *op[kOlderRanges], *where[kOlderRanges];
    uint32_t count = 0;
  };
  enum OlderKind { kOlderReads = 0, kOlderWrites = 1 };
  // Instructions written down before the oldest must go into the older ranges.
  static constexpr uint32_t kRing = 2 * kPipeQueueDepth;
  // Only those from `fenced` to `pushed` are ever read: left unwritten at
  // construction, which a launch does for every core (a union holds them so
  // that Access's zero initialisers do not run: 2.3 KB a ring).
  ComputeWindow() {}
  union {
    Entry entries[kRing];
  };
  Older older[2];  // by OlderKind
  uint32_t older_count() const { return older[kOlderReads].count + older[kOlderWrites].count; }
  void forget_older() { older[kOlderReads].count = older[kOlderWrites].count = 0; }
  // For each range an entry touches (written, read 0, read 1): the older
  // range the last retired entry's went into. A loop retires the same ranges
  // over and over: they find their range here with no search.
  uint8_t last_older[3] = {};
  uint32_t pushed = 0;  // instructions recorded on the pipe
  // Of those, the first neither known to have ended nor in the older ranges.
  uint32_t fenced = 0;
  bool empty() const { return pushed == fenced && older_count() == 0; }
  // Every entry written down is still to be read or merged.
  bool ring_full() const { return pushed - fenced == kRing; }
  void push(const Step &step, uint32_t seq, const char *where) {
    entries[pushed++ % kRing] = {step.access, step.op, where, seq};
  }
  Entry &at(uint32_t seq) { return entries[seq % kRing]; }
  const Entry &at(uint32_t seq) const { return entries[seq % kRing]; }
  // Everything recorded so far has ended.
  void clear() {
    fenced = pushed;
    forget_older();
  }
  // The first entry that may still run: those before it were fenced, or are
  // a full queue back.
  uint32_t oldest_live() const {
    const uint32_t queue = pushed > kPipeQueueDepth ? pushed - kPipeQueueDepth : 0;
    return fenced > queue ? fenced : queue;
  }
};

// Steps (instructions, fences, barriers) one core may record in one launch.
constexpr size_t kMaxSteps = size_t{1} << 24;

// The device's rules for vector operands (docs/devices.md), per launch.
struct OperandRules {
  uintptr_t nram_align_mask;  // operand start: a multiple of this + 1
  size_t vector_count_mask;   // operand size: a multiple of this + 1 (a mask: no division)
  size_t transpose_align;     // __bang_transpose rows and columns x dtype size
};

class Scheduler;
class OnchipLayout;
struct SharedAccessLog;
class HazardReports;

// How scalar code names itself where an instruction's name would stand (the
// race check's reports, the hazard messages).
inline constexpr const char kScalarCodeOp[] = "scalar code";

// What a launch does when two pipes of a core (or scalar code and a pipe)
// meet on the same bytes with no fence between them (MLUSIM_HAZARDS,
// runtime/pipe_hazards.h): the kinds boards resolve are resolved as the board
// does and reported once per pair of sites (kWarn, the default) or silently
// (kOff, which also skips every other kind); kFault fails the launch at any.
enum class HazardMode : uint8_t { kWarn, kFault, kOff };

// The on-chip variables a .mlu kernel declared in one space, as one launch
// lays them out for all its cores (runtime/bang/onchip_layout.cpp): for each 128-byte
// granule, the offset where the variable holding it ends (0: none does). An
// operand is valid when it ends at or before the end recorded for its first
// granule, so one lookup catches both a run past the declared memory and a run
// from one array into the next. The layout starts every variable on a granule,
// so no granule holds two; a launch writes an entry per granule a variable
// spans, thousands for a kernel that declares all of NRAM.
struct DeclaredEnds {
  static constexpr unsigned kGranuleShift = 7;
  const uint32_t *end = nullptr;
  size_t granules = 0;  // 0 on a memory core's NRAM and WRAM: every operand takes the slow path
};

// What the cores of one launch share.
struct LaunchShared {
  const char *kernel = "";
  bool is_union = false;
  // The launch's shape as mlusim's own code reads it (the built-ins are the
  // device's: clusterDim is 0 in a BLOCK task). A UnionN task spans N
  // consecutive physical clusters, union_tasks of its tasks; 0 and 1 for BLOCK.
  int union_clusters = 0;
  size_t union_tasks = 1;
  Scheduler *scheduler = nullptr;
  OnchipLayout *layout = nullptr;  // the kernel's declared on-chip variables
  // Their ends in NRAM, SRAM and WRAM (the layout's, indexed by Space): what
  // a compute core's operands, and a memory core's in its scratch, are held
  // against.
  DeclaredEnds kernel_declared[3];
  HazardMode hazards = HazardMode::kWarn;
  HazardReports *hazard_reports = nullptr;  // the pairs of sites reported so far
  std::vector<std::byte *> srams;  // each physical cluster's SRAM (copies to another cluster)
  // A memory core skipped an instruction that needs NRAM or WRAM, or a barrier
  // of the compute cores alone (noted once per launch).
  std::atomic<bool> memory_core_skipped{false};
  // A BLOCK task passed a barrier, which has nobody to wait for there (noted
  // once per launch).
  std::atomic<bool> block_barrier_noted{false};
  // A __load_*/__store_* moved an element off its alignment (noted once per launch).
  std::atomic<bool> unaligned_scalar_noted{false};
  // A __bang_lut index fell outside its table (noted once per launch).
  std::atomic<bool> lut_outside_noted{false};
};

// True for the first of a launch's cores to ask: a note logged once per
// launch (the flags above). A plain load first, so that cores asking again
// do not write the shared line.
inline bool first_note(std::atomic<bool> &noted) {
  return !noted.load(std::memory_order_relaxed) && !noted.exchange(true, std::memory_order_relaxed);
}

// Whether [off, off + bytes) of a space lies inside one declared variable.
inline bool inside_declared(const DeclaredEnds &d, size_t off, size_t bytes) {
  const size_t granule = off >> DeclaredEnds::kGranuleShift;
  if (granule >= d.granules) return false;
  const size_t end = __atomic_load_n(&d.end[granule], __ATOMIC_RELAXED);
  return bytes <= end && off + bytes <= end;
}

// The pages of one on-chip space a core touched in a launch: the next launch
// refills only those with the fill pattern, not all the kernel declared
// (runtime/onchip_memory.h). Every write there passes an operand check or a
// scalar access, which note it here with constant stores and no loads, so a
// loop of accesses never waits on its own notes (a span kept as two
// compares cost 0.9 ns more per scalar store: each waited for the one
// before), and two buffers at both ends of NRAM do not mark all between them.
struct TouchedPages {
  static constexpr size_t kPages = 256;
  static constexpr unsigned kSmallestShift = 12;
  unsigned shift = kSmallestShift;  // a page is 2^shift bytes: the space in kPages - 1 of them
  uint8_t page[kPages] = {};

  // The page size (its log2) for a space of `capacity` bytes.
  static constexpr unsigned shift_for(size_t capacity) {
    unsigned s = kSmallestShift;
    while ((capacity >> s) + 1 >= kPages) ++s;
    return s;
  }
  // [off, off + bytes), with off inside the space: its first and last page
  // (what a scalar element or a short operand spans), and those between.
  void note(size_t off, size_t bytes) {
    if (bytes == 0) return;
    const size_t first = off >> shift, last = (off + bytes - 1) >> shift;
    page[first] = 1;
    page[last < kPages ? last : kPages - 1] = 1;
    if (bytes > (size_t{1} << kSmallestShift)) [[unlikely]]
      for (size_t p = first + 1; p < last && p < kPages; ++p) page[p] = 1;
  }
  // Eight marks at a time, without a branch: a launch looks at every core's
  // (the refill's search for the first mark, used here instead, made an
  // empty whole-device launch 0.6-1 us slower).
  bool any() const {
    uint64_t seen = 0;
    for (size_t p = 0; p < kPages; p += sizeof(uint64_t)) {
      uint64_t marks;
      std::memcpy(&marks, page + p, sizeof marks);
      seen |= marks;
    }
    return seen != 0;
  }
};

// The coreId a memory core sees (mlu-ops kernels test `coreId == 0x80`).
constexpr int kMpuCoreId = 0x80;

// What scalar kernel code costs on the launch's device, in core cycles
// (docs/cost_model.md; runtime/timing/prices.h derives them from the device).
struct ScalarPrices {
  uint32_t op = 0;           // an arithmetic, logic or compare operator
  uint32_t divide = 0;       // a division, remainder or costly math function
  uint32_t block = 0;        // entering a block: a loop iteration, a taken branch, a call
  uint32_t onchip = 0;       // a load or store of NRAM, WRAM or the stack
  uint32_t sram = 0;         // a load or store of SRAM
  uint32_t gdram_load = 0;   // a GDRAM load: the stream waits for the value
  uint32_t gdram_store = 0;  // a GDRAM store
};

// Addresses [lo, lo + bytes) a core classified last: a GDRAM allocation, or a
// stretch between allocations that holds no device memory (the stack, say).
struct AddressRange {
  uintptr_t lo = 0, bytes = 0;
  bool holds(uintptr_t a) const { return a - lo < bytes; }
};

// The run of accesses one site of scalar code is making in memory other cores
// share (GDRAM, a UNION launch's SRAM): the same element again, or one more at
// a constant stride (the second access sets it). Merged as the code runs and
// logged for the race check when it breaks, at a barrier and at the task's end
// (runtime/bang/scalar_code.cpp).
struct ScalarRun {
  const char *site = nullptr;  // what keys it: the access's own string (null: no run)
  const char *where;           // its line in reports, or null
  const char *op;              // how reports name it
  Segments range;
  uint64_t seq;    // the core's instruction count when it began
  uint64_t value;  // a run of stores: the bytes its first one stored, if known
  Space space;
  bool write;
  bool same;  // a run of stores: every one stored `value`, known bytes
};
constexpr int kScalarRuns = 4;  // sites a scalar loop may interleave without a break
constexpr int kRecentAllocations = 4;  // GDRAM allocations a core remembers for scalar code

struct CoreContext {
  // User-provided, so that a launch's std::vector<CoreContext>(n) runs the
  // member initialisers alone: value-initialising a class without one zeroes
  // all of it first (2 KB a core, twice). What has no initialiser below is
  // written before it is read (a scalar run's fields once its site is set).
  CoreContext() {}

  // BANG built-in variables of the task this core is running.
  int task_id = 0, task_dim = 1;
  int task_id_x = 0, task_id_y = 0, task_id_z = 0;
  int task_dim_x = 1, task_dim_y = 1, task_dim_z = 1;
  int core_id = 0, cluster_id = 0, core_dim = 1, cluster_dim = 1;
  bool is_mpu = false;       // the cluster's memory core (UNION launches only)
  int physical_core = 0;     // index among the launch's core contexts
  int physical_cluster = 0;  // the cluster that core belongs to
  int core_in_cluster = 0;   // 0..3, or cores_per_cluster for the memory core
  LaunchShared *launch = nullptr;
  const GdramSnapshot *gdram = nullptr;
  OperandRules rules{};

  // On-chip memory (capacity: what kernels may declare). A memory core has no
  // NRAM or WRAM: its nram and wram are a scratch that stands for them
  // (runtime/memory_core.h).
  std::byte *nram = nullptr;
  size_t nram_capacity = 0;
  std::byte *wram = nullptr;
  size_t wram_capacity = 0;
  std::byte *sram = nullptr;  // the cluster's, shared
  size_t sram_capacity = 0;
  std::byte *ldram = nullptr;  // per-core local DRAM of __ldram__ variables, mapped on first use
  // The kernel's declared variables in NRAM, SRAM and WRAM (indexed by Space).
  DeclaredEnds declared[3];
  // What of them this launch touched; noted by the operand checks, which see
  // the core as const.
  mutable TouchedPages touched[3];
  // The run of a launch this core is in (runtime/launch.h), read on the hot
  // path of every declared on-chip variable's use.
  uint64_t launch_serial = 0;
  const char *where = nullptr;  // .mlu line of the running intrinsic, if known
  SharedAccessLog *access_log = nullptr;  // the race check's, null when it is off

  // What the stream did, in program order, for the timing model; nothing
  // when the launch is not timed (MLUSIM_TIMING=off).
  StepLog steps;
  bool timed = true;
  // Instructions, fences and barriers so far, timed or not (the step limit's).
  uint64_t steps_taken = 0;
  uint64_t issued = 0;  // instructions issued (names them in hazard messages)
  // Scalar code since the last recorded step, in cycles at scalar_prices, and
  // its NRAM accesses apart (a counter of their own keeps a loop's two
  // additions from waiting on each other): the next step carries them
  // (Step::scalar_cycles); in an untimed launch they add up unread.
  uint64_t scalar_cycles = 0, scalar_nram_accesses = 0;
  // The NRAM that scalar code read and wrote since the last recorded step
  // (Step::scalar_reads, scalar_writes); in an untimed launch they widen unread.
  NramSpan scalar_reads_span, scalar_writes_span;
  // The same outside NRAM (SRAM, WRAM, GDRAM), as host addresses.
  AddressSpan scalar_far_reads, scalar_far_writes;
  ScalarPrices scalar_prices{};
  // Where the last scalar accesses outside NRAM fell (a launch's allocations
  // do not change while it runs): the GDRAM allocations, newest first (a loop
  // over two arrays finds both in the first two), and the last stretch
  // without device memory.
  AddressRange recent_gdram[kRecentAllocations], last_elsewhere;
  ScalarRun scalar_runs[kScalarRuns];  // not yet logged, for the race check
  int next_scalar_run = 0;             // the one a new site takes
  // The NRAM scalar code read and stored, one mark per 4 bytes holding the
  // fence epoch of the last access (runtime/scalar_marks.h); a fence starts
  // the next epoch. scalar_marked: any mark since the last fence.
  uint32_t *scalar_reads = nullptr, *scalar_stores = nullptr;
  uint32_t fence_epoch = 0;
  bool scalar_marked = false;

  // Counters for the launch report.
  double bytes_moved[MLUSIM_DIRECTION_COUNT] = {};
  double gdram_traffic = 0;
  uint64_t scalar_gdram_blocks = 0;  // of scalar code, apart (an integer add per access)
  double vector_elems_float = 0, vector_elems_half = 0, vector_elems_int = 0;
  double atomic_elems = 0;
  uint32_t hazards_resolved = 0;  // pipe hazards resolved as the board does

  CopiesInFlight pending;
  ComputeWindow compute[2];          // vector, tensor
  // The last intrinsic issued, for the watchdog's report (read by its thread).
  std::atomic<const char *> last_op{nullptr};
  // Steps the core may take (steps_taken); the watchdog sets 0 to stop it at its next
  // instruction (a fault thrown there unwinds cleanly, where a signal could
  // land inside a library call).
  std::atomic<size_t> step_limit{kMaxSteps};
  // Non-zero while the core holds heap memory a signal's jump would leak (a
  // log reallocating, an intrinsic's scratch, a fault's message being
  // written) or host locks it would leave taken (an atomic's,
  // detail/atomic_lock.h): detail::HeapHeld. Bookkeeping for the signal handler, not the
  // core's state: a fault raised on a const core sets it too.
  mutable volatile sig_atomic_t holds_heap = 0;
};

namespace detail {
// initial-exec: kernels inside the shared library reach it with one load
// instead of a __tls_get_addr call per intrinsic; constinit: programs outside
// it need no call of a thread-local initialisation wrapper either.
extern constinit thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec")));

// Integer view of T's bits (bitwise intrinsics, atomics on half).
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                std::conditional_t<sizeof(T) == 2, uint16_t,
                                                   std::conditional_t<sizeof(T) == 4, uint32_t,
                                                                      uint64_t>>>;

// "cluster 2 core 1", "cluster 2 memory core".
std::string core_name(const CoreContext &c);
// "kernel 'k' [cluster 2 core 1, task 9] at k.mlu:12": what a report begins with.
std::string kernel_site(const CoreContext &c);
// "NRAM +0x40 (256 bytes)", "GDRAM allocation #2 ... (64 bytes)": [lo, hi) for reports.
std::string describe_range(const CoreContext &c, uintptr_t lo, uintptr_t hi);
[[noreturn]] void fault(const CoreContext &c, const std::string &what);
// A __bang_lut that met an index outside its table (the first such index and
// its element): the elements keep what they held (the board's result,
// runtime/bang/core.cpp), noted once per launch.
void note_lut_index_outside(const CoreContext &c, long long index, size_t element,
                            size_t table_len);
[[noreturn]] void fault_bounds(const CoreContext &c, const char *op, const char *operand,
                               Space space, const void *p, size_t bytes);
// An on-chip operand the granule lookup did not pass: an empty one inside the
// space is fine, and so is a memory core's operand in its NRAM or WRAM scratch
// inside what the kernel declared (the instruction is skipped there:
// runtime/memory_core.h); otherwise a fault saying where it is and what it
// runs into.
void check_onchip_slowly(const CoreContext &c, const char *op, const char *operand, Space space,
                         const void *p, size_t bytes);
// An operand that leaves the declared variable it starts in (runtime/bang/onchip_layout.cpp).
[[noreturn]] void fault_crossing(const CoreContext &c, const char *op, const char *operand,
                                 Space space, const void *p, size_t bytes);
// A core at its step limit at instruction `op`: too many steps, or stopped
// by the watchdog.
[[noreturn]] void fault_too_many_steps(const CoreContext &c, const char *op);
// The step just recorded follows scalar code that accessed SRAM, WRAM or
// GDRAM: its far spans go to the log's table (runtime/bang/scalar_code.cpp).
void keep_far_scalar(CoreContext &c);
// Marks a stretch that holds heap memory (a log reallocating, an
// intrinsic's scratch) or host locks (an atomic's): the watchdog's signal
// does not abandon it halfway, which would leak the one or leave the other
// taken; the core stops at its next instruction instead, or
// where the stretch calls stop_if_asked().
class HeapHeld {
 public:
  explicit HeapHeld(const CoreContext &c) : c_(c) {
    c_.holds_heap = c_.holds_heap + 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~HeapHeld() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    c_.holds_heap = c_.holds_heap - 1;
  }
  HeapHeld(const HeapHeld &) = delete;
  HeapHeld &operator=(const HeapHeld &) = delete;

 private:
  const CoreContext &c_;
};
// A fault (an exception, which unwinds) at `op` when the watchdog stopped the
// core: what one long instruction looks at now and then.
inline void stop_if_asked(const CoreContext &c, const char *op) {
  if (c.step_limit.load(std::memory_order_relaxed) == 0) [[unlikely]]
    fault_too_many_steps(c, op);
}
// Doubles the room of one of the core's logs.
template <typename T>
void grow_log(CoreContext &c, std::vector<T> &log) {
  const HeapHeld held(c);
  log.reserve(log.capacity() < 1024 ? 1024 : 2 * log.capacity());
}
// Room for the core's next steps; first, when the timing model places steps
// as they come, the core may wait while it does (runtime/scheduler.h).
void next_step_chunk(CoreContext &c);
[[noreturn]] void fault_alignment(const CoreContext &c, const char *op, const char *operand,
                                  const void *p, size_t bytes);
// An element x of an intrinsic's input outside the range [lo, hi] Cambricon
// documents for it.
[[noreturn]] void fault_outside_range(const CoreContext &c, const char *op, double x, double lo,
                                      double hi);
// Who makes an access the hazard checks look at: a copy's or fill's DMA pipe,
// kPipeCount for a vector or tensor instruction, kScalarCode for scalar kernel code.
constexpr Pipe kScalarCode = static_cast<Pipe>(kPipeCount + 1);
// Checks `range` (read, or written if `write`) against the unfenced async
// copies of other pipes than `own`: it meets a copy's destination, or for a
// write its source. Each meeting is a pipe hazard of its kind
// (runtime/pipe_hazards.h): where the board resolves it (a copy or fill
// writing over an earlier copy's destination), that copy lands now and the
// call returns true (the access waits for it); otherwise a fault, as the
// launch's MLUSIM_HAZARDS says.
bool hazard_check(CoreContext &c, const char *op, const Segments &range, bool write, Pipe own);
// A fill on DMA pipe `own` (__nramset*, __sramset, __gdramset) writes its
// bytes at issue: the copies queued before it on its own pipe that write them
// land first (a queue runs in order), then hazard_check. True: it waits for
// a copy of another pipe.
bool check_fill(CoreContext &c, const char *op, const Segments &range, Pipe own);
// The entries of window `w` more than a queue back go into its older ranges,
// oldest first: what every reader of the window calls first.
void settle_window(ComputeWindow &w);
// A synchronous transfer (copy, fill, atomic) touching `a` is about to issue:
// it waits for the compute instructions it depends on, which then, with every
// instruction before them on their pipe, have ended. `a` comes by value: an
// issuing step's ranges whose address escapes stay in memory, and the compute
// window's push then reloads them from the stack (a store-forwarding stall).
void compute_waited_for(CoreContext &c, Access a);
// Whether a pending copy is an NRAM2NRAM one (both sides in the core's NRAM):
// such copies are ordered with the compute pipes (runtime/pipe_hazards.cpp).
bool nram_to_nram(const CoreContext &c, const PendingCopy &p);
// Lands the async copies of `pipe` issued up to instruction `seq`, in issue
// order (runtime/bang/memory.cpp).
void land_copies_through(CoreContext &c, Pipe pipe, uint64_t seq);
// Logs an access to shared memory for the race check: `op` at `where` (may
// be null), the core's instruction `seq`, the bytes a write stored if known.
void append_shared_access(CoreContext &c, Space space, const Segments &range, bool write,
                          bool atomic, const char *op, const char *where, uint64_t seq,
                          const WrittenBytes &written);
// Checks an async copy (writing `dst`, reading `src`, each in NRAM if the
// flag says) against the NRAM scalar code read or stored since the last
// fence (runtime/scalar_marks.h).
void scalar_mark_check(CoreContext &c, const char *op, const Segments &dst, bool dst_nram,
                       const Segments &src, bool src_nram);
// Checks an async copy (writing `dst`, reading `src`) against the vector and
// tensor instructions no fence has ordered before it. A copy reading what one
// writes is resolved as the board does (true: the copy waits for it); one
// writing what one of the last kPipeQueueDepth reads or writes is a fault;
// older ones have ended on the board (runtime/pipe_hazards.h).
bool compute_hazard_check(CoreContext &c, const char *op, const Segments &dst,
                          const Segments &src, Pipe own);

// An intrinsic's access to memory other cores share (GDRAM, and in UNION
// launches the cluster's SRAM), for the race check (runtime/race_check.h);
// a write's bytes where they are known.
inline void log_shared(CoreContext &c, Space space, const Segments &range, bool write,
                       bool atomic, const char *op,
                       const WrittenBytes &written = kBytesNotKnown) {
  if (c.access_log != nullptr)
    append_shared_access(c, space, range, write, atomic, op, c.where, c.issued + 1, written);
}
}  // namespace detail

// The core the calling thread simulates; only valid inside a kernel.
inline CoreContext &this_core() {
  if (detail::tls_core == nullptr) {
    static CoreContext outside;  // lets a stray call fault with a message, not crash
    detail::fault(outside, "device API called outside a kernel launch");
  }
  return *detail::tls_core;
}

inline std::byte *onchip_base(const CoreContext &c, Space space) {
  return space == Space::kNram ? c.nram : space == Space::kSram ? c.sram : c.wram;
}

// [p, p+bytes) must lie inside one variable the kernel declared in the given
// on-chip space (NRAM, SRAM or WRAM): a granule lookup and two compares.
inline void require_onchip(const CoreContext &c, const char *op, const char *operand,
                           Space space, const void *p, size_t bytes) {
  const uintptr_t off =
      reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(onchip_base(c, space));
  const int s = static_cast<int>(space);
  if (!inside_declared(c.declared[s], off, bytes)) [[unlikely]]
    return detail::check_onchip_slowly(c, op, operand, space, p, bytes);
  c.touched[s].note(off, bytes);
}

inline void require_gdram(const CoreContext &c, const char *op, const char *operand,
                          const void *p, size_t bytes) {
  if (gdram_find(*c.gdram, p, bytes) == nullptr)
    detail::fault_bounds(c, op, operand, Space::kGdram, p, bytes);
}

inline void require_space(const CoreContext &c, const char *op, const char *operand,
                          Space space, const void *p, size_t bytes) {
  if (space == Space::kGdram)
    require_gdram(c, op, operand, p, bytes);
  else
    require_onchip(c, op, operand, space, p, bytes);
}

// A vector operand: in NRAM, on the device's alignment boundary, a whole
// number of its granules. Off its element's alignment is no fault where the
// device has no boundary (MLU300): the intrinsic computes on aligned copies
// (detail/unaligned.h).
inline void require_vector_operand(const CoreContext &c, const char *op, const char *operand,
                                   const void *p, size_t bytes) {
  require_onchip(c, op, operand, Space::kNram, p, bytes);
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(c.nram);
  if ((off & c.rules.nram_align_mask) != 0 || (bytes & c.rules.vector_count_mask) != 0)
    detail::fault_alignment(c, op, operand, p, bytes);
}

// Reading or writing a range an unfenced async copy still owns is a hazard
// when the access comes from another pipe than the copy's (`own` is the
// accessing copy's DMA pipe, or kPipeCount for any other instruction).
inline void check_access(CoreContext &c, const char *op, const void *p, size_t bytes,
                         bool write, Pipe own = kPipeCount) {
  const auto lo = reinterpret_cast<uintptr_t>(p);
  if (c.pending.may_meet(lo, lo + bytes, write))
    detail::hazard_check(c, op, Segments{lo, bytes, bytes, 1}, write, own);
}
inline void check_read(CoreContext &c, const char *op, const void *p, size_t bytes,
                       Pipe own = kPipeCount) {
  check_access(c, op, p, bytes, false, own);
}
inline void check_write(CoreContext &c, const char *op, const void *p, size_t bytes,
                        Pipe own = kPipeCount) {
  check_access(c, op, p, bytes, true, own);
}

}  // namespace mlusim
