// Copies, atomics, fences and barriers (include/mlusim/bang/memory.h): the
// out-of-line half of __memcpy, __memcpy_async, __bang_atomic_*, __sync*.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include <spdlog/fmt/fmt.h>
#include <xxhash.h>

#include "mlusim/bang/detail/atomic_lock.h"
#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/detail/scalar_code.h"
#include "mlusim/bang/memory.h"
#include "mlusim/bang/memory_forms.h"
#include "mlusim/bang/select.h"
#include "runtime/logging.h"
#include "runtime/memory_core.h"
#include "runtime/onchip_memory.h"
#include "runtime/scheduler.h"
#include "runtime/segments.h"

namespace mlusim::detail {

StripeLock g_atomic_stripes[kAtomicStripes];

// "__memcpy GDRAM2NRAM" and the like, built once: fault messages name the
// direction without the hot path formatting a string per copy.
const char *copy_label(bool async, mluMemcpyDirection_t dir) {
  static const auto labels = [] {
    std::array<std::array<std::string, MLUSIM_DIRECTION_COUNT>, 2> l;
    for (int d = 0; d < MLUSIM_DIRECTION_COUNT; ++d) {
      l[0][d] = fmt::format("__memcpy {}", mlusimDirectionName(d));
      l[1][d] = fmt::format("__memcpy_async {}", mlusimDirectionName(d));
    }
    return l;
  }();
  return labels[async][dir].c_str();
}

namespace {

// Segments a copy moves between two looks at whether the watchdog stopped
// its core: a copy of up to 2^31 segments (segnum is an int) is one
// instruction, which would otherwise end only when its last segment has
// moved (minutes under ASan, where the watchdog's signal may wait).
constexpr size_t kSegmentsBetweenLooks = 4096;

void move_data(const CoreContext &c, const char *op, const Segments &dst, const Segments &src) {
  auto *to = reinterpret_cast<std::byte *>(dst.lo);
  auto *from = reinterpret_cast<const std::byte *>(src.lo);
  if (dst.stride == dst.bytes && src.stride == src.bytes) {
    std::memmove(to, from, dst.bytes * dst.count);
    return;
  }
  for (size_t first = 0; first < dst.count; first += kSegmentsBetweenLooks) {
    if (first > 0) stop_if_asked(c, op);
    const size_t end = std::min(dst.count, first + kSegmentsBetweenLooks);
    for (size_t i = first; i < end; ++i)
      std::memmove(to + i * dst.stride, from + i * src.stride, dst.bytes);
  }
}

// The async copies `lands` picks land, in issue order. They leave the queue
// before any byte moves: a copy that faults while landing (a signal the
// launch recovers from) is never landed a second time.
template <typename Picks>
void land_picked(CoreContext &c, const Picks &lands) {
  thread_local std::vector<PendingCopy> landing;  // a core does not yield while copies land
  landing.clear();
  c.pending.take(lands, landing);
  for (const PendingCopy &p : landing) move_data(c, p.op, p.dst, p.src);
}

// The async copies of the pipes in `mask` land.
void land_copies(CoreContext &c, unsigned mask) {
  land_picked(c, [mask](const PendingCopy &p) { return ((mask >> p.pipe) & 1u) != 0; });
}

}  // namespace

void land_copies_through(CoreContext &c, Pipe pipe, uint64_t seq) {
  land_picked(c, [pipe, seq](const PendingCopy &p) { return p.pipe == pipe && p.seq <= seq; });
}

namespace {

constexpr unsigned bit(Pipe p) { return 1u << p; }
constexpr unsigned kAllPipes = (1u << kPipeCount) - 1;

// What other cores may touch, for the race check: GDRAM, and the cluster's
// SRAM in UNION launches (its cores and memory core share it; BLOCK tasks
// share none).
bool shared(const CoreContext &c, Space space) {
  return space == Space::kGdram || (space == Space::kSram && c.launch->is_union);
}
void log_copy_side(CoreContext &c, Space space, const Segments &range, bool write,
                   const char *op) {
  if (shared(c, space)) log_shared(c, space, range, write, false, op);
}

uint64_t hash_of(const void *p, size_t n) { return XXH3_64bits(p, n); }

// The digest of bytes (`bytes`, their hash) written over `to`.
WrittenBytes digest_of(const Segments &to, uint64_t bytes) {
  const uint64_t fields[] = {bytes, to.lo, to.bytes, to.stride, to.count};
  return WrittenBytes::digest(hash_of(fields, sizeof fields));
}

// What a copy writing `to` from `from` stores there, for the race check
// (detail/core.h's WrittenBytes), from the source's bytes at issue: where
// both sides are contiguous, one element of up to 8 bytes, or bytes that
// repeat every 8 as a fill's do (a compare that stops at the first byte that
// does not); otherwise a digest of the destination's segments and the bytes
// of each (XXH3, a SIMD hash: every copy into GDRAM pays a pass of it over
// its bytes), so that copies of the same bytes into the same range by the
// same segments have the same one. Not known when the source meets an
// async copy still to land (one queued before it on its pipe): its bytes are
// not there yet.
// Out of line: a launch with the race check off does not pay for its code.
[[gnu::noinline]] WrittenBytes copied_bytes(const CoreContext &c, const char *op,
                                            const Segments &to, const Segments &from) {
  for (const PendingCopy &p : c.pending) {
    uintptr_t lo, hi;
    if (first_overlap(p.dst, from, &lo, &hi)) return kBytesNotKnown;
  }
  const auto *src = reinterpret_cast<const char *>(from.lo);
  if (to.count == 1 || (to.stride == to.bytes && from.stride == from.bytes)) {
    const size_t n = to.bytes * to.count;
    if (n <= 8) return WrittenBytes::element(to.lo, src, n);
    if (std::memcmp(src, src + 8, n - 8) == 0) return WrittenBytes::element(to.lo, src, 8);
    return digest_of(Segments{to.lo, n, n, 1}, hash_of(src, n));
  }
  uint64_t bytes = hash_of(src, to.bytes);
  for (size_t i = 1; i < to.count; ++i) {
    if (i % kSegmentsBetweenLooks == 0) stop_if_asked(c, op);
    bytes = WrittenBytes::chained(bytes, hash_of(src + i * from.stride, to.bytes));
  }
  return digest_of(to, bytes);
}

// A copy's destination, for the race check, with the bytes it writes; after
// the copy issued (its instruction c.issued), so that the watchdog stopping a
// long one's pass over its bytes names it.
void log_copy_destination(CoreContext &c, Space space, const Segments &to, const Segments &from,
                          const char *op) {
  if (c.access_log != nullptr && shared(c, space))
    append_shared_access(c, space, to, true, false, op, c.where, c.issued,
                         copied_bytes(c, op, to, from));
}

// What the timing model needs of one copy: its segments and, when it touches
// GDRAM, the blocks it reads and writes there.
Step copy_step(CoreContext &c, const char *op, const char *dir_name, const DirectionInfo &d,
               const Segments &to, const Segments &from, bool async, bool ordered) {
  Step step{.op = op, .detail = dir_name,
            .access = access_of(reinterpret_cast<const void *>(to.lo), to.hi() - to.lo,
                                reinterpret_cast<const void *>(from.lo), from.hi() - from.lo,
                                nullptr, 0),
            .amount = to.bytes, .count = static_cast<uint32_t>(to.count),
            .kind = StepKind::kOnchipCopy, .pipe = d.pipe, .async = async, .ordered = ordered,
            .sram = d.dst == Space::kSram || d.src == Space::kSram};
  if (d.dst == Space::kGdram || d.src == Space::kGdram) {
    step.kind = StepKind::kGdramCopy;
    step.blocks = gdram_blocks(c, d.src == Space::kGdram ? blocks_of(from) : BlockSpan{},
                               d.dst == Space::kGdram ? blocks_of(to) : BlockSpan{});
  }
  return step;
}

// The two sides of a copy of segnum + 1 segments of `size` bytes, checked
// for negative arguments and to lie in the direction's spaces as the calling
// core sees them.
struct CopySides {
  Segments to, from;
};
[[gnu::always_inline]] inline CopySides copy_sides(const CoreContext &c, const char *label, const DirectionInfo &d, void *dst,
                     const void *src, int size, int dst_stride, int src_stride, int segnum) {
  // One segment's strides step nowhere: any value is taken (mlu-ops v1.5.2's
  // ms_deform_attn_backward passes a negative one with segnum 0 and passes on boards).
  if (segnum == 0) dst_stride = src_stride = size;
  if (size < 0 || segnum < 0 || dst_stride < 0 || src_stride < 0)
    fault(c, fmt::format("{}: negative size {}, stride ({}, {}) or segnum {}", label, size,
                         dst_stride, src_stride, segnum));
  const size_t n = static_cast<size_t>(size), segs = static_cast<size_t>(segnum) + 1;
  const CopySides s{
      Segments{reinterpret_cast<uintptr_t>(dst), n, static_cast<size_t>(dst_stride), segs},
      Segments{reinterpret_cast<uintptr_t>(src), n, static_cast<size_t>(src_stride), segs}};
  // A memory core's copy to or from NRAM or WRAM: only that side (runs_on).
  const bool runs = runs_on(c, d.dst, d.src);
  if (runs || private_to_a_core(d.dst))
    require_space(c, label, "dst", d.dst, dst, s.to.hi() - s.to.lo);
  if (runs || private_to_a_core(d.src))
    require_space(c, label, "src", d.src, src, s.from.hi() - s.from.lo);
  return s;
}

// A copy (writing `to`, reading `from`) against what it may meet: a
// synchronous one waits for the async copies queued before it on its pipe;
// then the copies in flight, and for an async one the compute pipes and the
// scalar code since the fence. True: a hazard the board resolves makes it wait
// for what it depends on (runtime/pipe_hazards.h). Every copy and gather.
[[gnu::always_inline]] inline bool copy_hazards(CoreContext &c, const char *label,
                                                const DirectionInfo &d, const Segments &to,
                                                const Segments &from, bool async) {
  if (!async && !c.pending.empty()) land_copies(c, bit(d.pipe));
  bool ordered = false;
  if (c.pending.may_meet(from.lo, from.hi(), false))
    ordered |= hazard_check(c, label, from, false, d.pipe);
  if (c.pending.may_meet(to.lo, to.hi(), true))
    ordered |= hazard_check(c, label, to, true, d.pipe);
  if (async && !compute_fenced(c)) ordered |= compute_hazard_check(c, label, to, from, d.pipe);
  if (async && c.scalar_marked)
    scalar_mark_check(c, label, to, d.dst == Space::kNram, from, d.src == Space::kNram);
  return ordered;
}

// Moves (or queues, if async) a checked copy: hazards, the race check's log,
// the counters, its step. Inlined: copy() is the hot path of every __memcpy.
[[gnu::always_inline]] inline void transfer(CoreContext &c, const char *op, const char *label, mluMemcpyDirection_t dir,
              const DirectionInfo &d, const CopySides &s, bool async) {
  if (!runs_on(c, d.dst, d.src)) return;  // a memory core's, to or from NRAM or WRAM
  const bool ordered = copy_hazards(c, label, d, s.to, s.from, async);
  log_copy_side(c, d.src, s.from, false, label);

  c.bytes_moved[dir] += static_cast<double>(s.to.bytes * s.to.count);
  issue(c, copy_step(c, op, mlusimDirectionName(dir), d, s.to, s.from, async, ordered));
  log_copy_destination(c, d.dst, s.to, s.from, label);
  if (async)
    c.pending.push(PendingCopy{s.to, s.from, d.pipe, label, c.where, c.issued});
  else
    move_data(c, label, s.to, s.from);
}

}  // namespace

void copy(const char *op, void *dst, const void *src, int size, mluMemcpyDirection_t dir,
          int dst_stride, int src_stride, int segnum, bool async) {
  CoreContext &c = this_core();
  const DirectionInfo d = direction_info(dir);
  const char *label = copy_label(async, dir);
  transfer(c, op, label, dir, d,
           copy_sides(c, label, d, dst, src, size, dst_stride, src_stride, segnum), async);
}

namespace {

// The physical cluster whose SRAM a copy to `cluster` (a clusterId of the
// caller's UnionN task) writes; a fault for any cluster the task lacks.
int destination_cluster(const CoreContext &c, const char *label, int cluster) {
  const int clusters = c.launch->union_clusters;
  const int own = clusters > 0 ? c.physical_cluster % clusters : 0;
  if (cluster == own) return c.physical_cluster;
  if (clusters == 0)
    fault(c, fmt::format("{} to cluster {}: a BLOCK task has no other cluster (it shares no SRAM "
                         "and communicates with no other cluster, BANG C guide 3.3.6.3); launch "
                         "the kernel as UNION2 or more",
                         label, cluster));
  if (cluster < 0 || cluster >= clusters)
    fault(c, fmt::format("{} to cluster {}: a UNION{} task has clusters 0 to {} (clusterId)",
                         label, cluster, clusters, clusters - 1));
  const int target = c.physical_cluster - own + cluster;
  if (static_cast<size_t>(target) >= c.launch->srams.size())  // clusters no multiple of N
    fault(c, fmt::format("{} to cluster {}: that cluster of this UNION{} task runs in another "
                         "wave on this device, which mlusim does not simulate",
                         label, cluster, clusters));
  return target;
}

}  // namespace

void copy_to_cluster(const char *op, void *dst, const void *src, int size,
                     mluMemcpyDirection_t dir, int dst_stride, int src_stride, int segnum,
                     int cluster, bool async) {
  CoreContext &c = this_core();
  const DirectionInfo d = direction_info(dir);
  const char *label = copy_label(async, dir);
  if (dir != SRAM2SRAM)
    fault(c, fmt::format("{} to cluster {}: the form naming a destination cluster copies "
                         "SRAM2SRAM only (Cambricon's bang_device_functions.h traps with "
                         "TRAP_BANG_UNSUPPORTED_MEMCPY_DIR on any other direction)",
                         label, cluster));
  const int target = destination_cluster(c, label, cluster);
  CopySides s = copy_sides(c, label, d, dst, src, size, dst_stride, src_stride, segnum);
  if (target == c.physical_cluster) return transfer(c, op, label, dir, d, s, async);
  // dst names the place in this cluster's SRAM layout; the bytes go to the
  // same place in the other cluster's SRAM.
  s.to.lo += reinterpret_cast<uintptr_t>(c.launch->srams[static_cast<size_t>(target)]) -
             reinterpret_cast<uintptr_t>(c.sram);
  transfer(c, op, label, dir, d, s, async);
  onchip_stray_store(s.to.lo);  // the next launch refills that cluster's SRAM too
}

namespace {

// An indexed copy's transfers that move (all, or those whose mask bit is 1),
// with the hull and the GDRAM blocks of their indexed side.
struct IndexedSide {
  std::vector<unsigned int> moving;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  BlockSpan blocks;
};

// Transfer i's bytes on the indexed side.
Segments indexed_segment(const IndexedCopy &x, unsigned int i) {
  const auto base = reinterpret_cast<uintptr_t>(x.scatter ? x.dst : x.src);
  return Segments{base + x.offsets[i], x.size, x.size, 1};
}

IndexedSide indexed_side(CoreContext &c, const char *op, const IndexedCopy &x, Space space) {
  IndexedSide side;
  const auto *mask = static_cast<const uint8_t *>(x.mask);
  for (unsigned int i = 0; i < x.count; ++i) {
    if (mask != nullptr && !bit_at(mask, i)) continue;
    const Segments one = indexed_segment(x, i);
    require_space(c, op, x.scatter ? "dst" : "src", space, reinterpret_cast<const void *>(one.lo),
                  x.size);
    side.moving.push_back(i);
    side.lo = std::min(side.lo, one.lo), side.hi = std::max(side.hi, one.hi());
    if (space == Space::kGdram) {
      const BlockSpan b = blocks_of(one);
      side.blocks.touched += b.touched, side.blocks.partial += b.partial;
    }
  }
  return side;
}

}  // namespace

void indexed_copy(const char *op, const IndexedCopy &x) {
  CoreContext &c = this_core();
  const DirectionInfo d = direction_info(x.dir);
  if (x.count == 0) return;
  require_onchip(c, op, "offset", Space::kNram, x.offsets, size_t{x.count} * sizeof(unsigned int));
  check_read(c, op, x.offsets, size_t{x.count} * sizeof(unsigned int));
  if (x.mask != nullptr) {
    require_onchip(c, op, "mask", Space::kNram, x.mask, (size_t{x.count} + 7) / 8);
    check_read(c, op, x.mask, (size_t{x.count} + 7) / 8);
  }
  const Space packed_space = x.scatter ? d.src : d.dst, indexed_space = x.scatter ? d.dst : d.src;
  const Segments packed{reinterpret_cast<uintptr_t>(x.scatter ? x.src : x.dst), x.size, x.stride,
                        x.count};
  require_space(c, op, x.scatter ? "src" : "dst", packed_space,
                reinterpret_cast<const void *>(packed.lo), packed.hi() - packed.lo);
  IndexedSide side = indexed_side(c, op, x, indexed_space);
  if (!runs_on(c, d.dst, d.src) || side.moving.empty()) return;
  const Segments hull{side.lo, side.hi - side.lo, side.hi - side.lo, 1};
  const Segments &to = x.scatter ? hull : packed, &from = x.scatter ? packed : hull;
  const bool ordered = copy_hazards(c, op, d, to, from, x.async);
  // Each transfer's two sides.
  const auto packed_at = [&](unsigned int i) {
    return Segments{packed.lo + size_t{i} * x.stride, x.size, x.size, 1};
  };
  const auto indexed_at = [&](unsigned int i) { return indexed_segment(x, i); };
  for (unsigned int i : side.moving) {
    log_copy_side(c, d.src, x.scatter ? packed_at(i) : indexed_at(i), false, op);
    log_copy_side(c, d.dst, x.scatter ? indexed_at(i) : packed_at(i), true, op);
  }
  c.bytes_moved[x.dir] += static_cast<double>(size_t{x.size} * side.moving.size());
  Step step{.op = op, .detail = mlusimDirectionName(x.dir),
            .access = access_of(reinterpret_cast<const void *>(to.lo), to.hi() - to.lo,
                                reinterpret_cast<const void *>(from.lo), from.hi() - from.lo,
                                x.offsets, size_t{x.count} * sizeof(unsigned int)),
            .amount = x.size, .count = static_cast<uint32_t>(side.moving.size()),
            .kind = StepKind::kOnchipCopy, .pipe = d.pipe, .async = x.async, .ordered = ordered,
            .sram = d.dst == Space::kSram || d.src == Space::kSram};
  if (d.dst == Space::kGdram || d.src == Space::kGdram) {
    step.kind = StepKind::kGdramCopy;
    const BlockSpan packed_blocks = packed_space == Space::kGdram ? blocks_of(packed) : BlockSpan{};
    step.blocks = x.scatter ? gdram_blocks(c, packed_blocks, side.blocks)
                            : gdram_blocks(c, side.blocks, packed_blocks);
  }
  issue(c, step);
  for (unsigned int i : side.moving) {
    const Segments t = x.scatter ? indexed_at(i) : packed_at(i);
    const Segments f = x.scatter ? packed_at(i) : indexed_at(i);
    if (x.async)
      c.pending.push(PendingCopy{t, f, d.pipe, op, c.where, c.issued});
    else
      std::memmove(reinterpret_cast<void *>(t.lo), reinterpret_cast<const void *>(f.lo), x.size);
  }
}

namespace {

// An atomic's checks and step; reads_nram: its operand is nram_src's bytes.
// False when the atomic does not run: a memory core's, reading NRAM.
bool charge_atomic(const char *op, const void *gdram_dst, const void *nram_src, bool reads_nram,
                   size_t bytes, size_t elements) {
  CoreContext &c = this_core();
  require_gdram(c, op, "dst", gdram_dst, bytes);
  // Atomics add whole elements: a dst off its element alignment faults instead of tearing.
  const size_t element_bytes = elements > 0 ? bytes / elements : 1;
  if (element_bytes > 1 && reinterpret_cast<uintptr_t>(gdram_dst) % element_bytes != 0)
    fault(c, fmt::format("{}: dst {} is not aligned to its {}-byte elements", op,
                         gdram_describe(*c.gdram, gdram_dst), element_bytes));
  if (!c.pending.empty()) land_copies(c, bit(kIoPipe));  // in order on the IO queue
  if (reads_nram) {
    require_onchip(c, op, "src", Space::kNram, nram_src, bytes);
    if (element_bytes > 1 && reinterpret_cast<uintptr_t>(nram_src) % element_bytes != 0)
      fault(c, fmt::format("{}: src at NRAM +{:#x} is not aligned to its {}-byte elements", op,
                           reinterpret_cast<uintptr_t>(nram_src) -
                               reinterpret_cast<uintptr_t>(c.nram),
                           element_bytes));
    if (c.is_mpu) return false;
    check_read(c, op, nram_src, bytes, kIoPipe);
  }
  check_write(c, op, gdram_dst, bytes, kIoPipe);
  log_shared(c, Space::kGdram, Segments{reinterpret_cast<uintptr_t>(gdram_dst), bytes, bytes, 1},
             true, true, op);
  c.atomic_elems += static_cast<double>(elements);
  const BlockSpan span = blocks_of(Segments{reinterpret_cast<uintptr_t>(gdram_dst), bytes, bytes, 1});
  // A read-modify-write of every block it touches.
  issue(c, Step{.op = op, .detail = "GDRAM",
                .access = access_of(gdram_dst, bytes, nram_src, reads_nram ? bytes : 0,
                                    nullptr, 0),
                .amount = elements, .blocks = gdram_blocks(c, span, span),
                .kind = StepKind::kAtomic, .pipe = kIoPipe});
  return true;
}

}  // namespace

bool account_atomic(const char *op, const void *gdram_dst, const void *nram_src, size_t bytes,
                    size_t elements) {
  return charge_atomic(op, gdram_dst, nram_src, true, bytes, elements);
}

void account_scalar_atomic(const char *op, const void *gdram_dst, size_t bytes, size_t elements) {
  charge_atomic(op, gdram_dst, nullptr, false, bytes, elements);
}

namespace {

// A scalar element off its own alignment. The guide says nothing of it; boards
// run mlu-ops' ms_deform_attn_forward, whose __load_nram reads int32 offsets
// at NRAM addresses off their 4 bytes and whose cases pass: the element is
// moved as it lies, and the launch's log says so once.
void note_unaligned_scalar(CoreContext &c, const char *op, const void *p, size_t bytes,
                           bool write) {
  if (!first_note(c.launch->unaligned_scalar_noted)) return;
  log::kernel().warn(
      "kernel '{}' [{}, task {}]{}{}: {} {} {:#x}, which is off the element's {}-byte alignment; "
      "the BANG C guide does not say whether the scalar unit takes that, and boards run mlu-ops' "
      "ms_deform_attn_forward, which does it: mlusim moves the element as it lies. Align it if "
      "the kernel must be portable. (Noted once per launch.)",
      c.launch->kernel, core_name(c), c.task_id, c.where != nullptr ? " at " : "",
      c.where != nullptr ? c.where : "", op, write ? "stores to" : "loads from",
      reinterpret_cast<uintptr_t>(p), bytes);
}

}  // namespace

void scalar_transfer(const char *op, Space space, const void *p, size_t bytes, bool write,
                     const void *stored) {
  CoreContext &c = this_core();
  require_space(c, op, write ? "dst" : "src", space, p, bytes);
  if (std::has_single_bit(bytes) && (reinterpret_cast<uintptr_t>(p) & (bytes - 1)) != 0)
    note_unaligned_scalar(c, op, p, bytes, write);
  const auto address = reinterpret_cast<uintptr_t>(p);
  end_run_of_other_kind(c, c.where != nullptr ? c.where : op, write);
  if (write && stored != nullptr && bytes <= 8)
    scalar_touch<kScalarStoreOf>(c, op, c.where, address, bytes, bits_of(stored, bytes));
  else if (write)
    scalar_touch<kScalarStore>(c, op, c.where, address, bytes);
  else
    scalar_touch<kScalarLoad>(c, op, c.where, address, bytes);
}

namespace {

// The async NRAM2NRAM copies land: Cambricon's bang_device_functions.h makes
// __sync_copy_nram_to_nram() the compute pipes' sync (sync.compute), so a
// compute fence orders them too (mlu-ops v1.5.2's bbox_overlaps reads such a
// copy's destination after __sync_compute() alone, and passes on boards). The
// fence's time does not wait for the move pipe: a copy landed here is charged
// as overlapping what follows.
void land_nram_to_nram(CoreContext &c) {
  land_picked(c, [&c](const PendingCopy &p) { return nram_to_nram(c, p); });
}

// The stream waits for the pipes in `mask`; their async copies land.
void fence(const char *op, unsigned mask) {
  CoreContext &c = this_core();
  record(c, Step{.op = op, .detail = "wait", .count = mask, .kind = StepKind::kFence,
                 .pipe = kIoPipe});
  for (Pipe p : {kVectorPipe, kTensorPipe})
    if ((mask >> p) & 1u) c.compute[p - kVectorPipe].clear();
  ++c.fence_epoch;  // scalar code's accesses before it are ordered
  c.scalar_marked = false;
  if (c.pending.empty()) return;
  land_copies(c, mask);
  if ((mask & bit(kVectorPipe)) != 0) land_nram_to_nram(c);
}

// A barrier in a BLOCK task, which has no cluster to meet (clusterDim 0):
// Cambricon's bang_device_functions.h makes every barrier there a plain
// `sync` of the core's own pipes, and boards run such kernels (mlu-ops'
// nms_rotated calls __sync_cluster() in its BLOCK launch). The guide says a
// BLOCK task shares no SRAM and talks to no other cluster (3.3.6.3): the
// launch's log says so once.
void pass_block_barrier(CoreContext &c, const char *op) {
  fence(op, kAllPipes);
  if (!first_note(c.launch->block_barrier_noted)) return;
  log::kernel().warn(
      "kernel '{}' [{}, task {}]{}{}: {}() in a BLOCK task: a BLOCK task shares no SRAM and "
      "communicates with no other core (BANG C guide 3.3.6.3), so there is nobody to wait for; "
      "Cambricon's bang_device_functions.h makes a barrier there (clusterDim 0) a fence of the "
      "core's own pipes, which mlusim does too (as __sync()). Launch the kernel as UNION1 or "
      "more if its cores must meet. (Noted once per launch.)",
      c.launch->kernel, core_name(c), c.task_id, c.where != nullptr ? " at " : "",
      c.where != nullptr ? c.where : "", op);
}

void barrier(BarrierScope scope, const char *op) {
  CoreContext &c = this_core();
  if (!c.launch->is_union) return pass_block_barrier(c, op);
  if ((scope == BarrierScope::kUnionIpu || scope == BarrierScope::kClusterIpu) && c.is_mpu) {
    pass_compute_barrier(c, op);  // not a participant: it neither waits nor is waited for
    return;
  }
  fence(op, kAllPipes);
  flush_scalar_runs(c);  // what scalar code did before the barrier
  c.launch->scheduler->barrier(c, scope, op);
}

}  // namespace

}  // namespace mlusim::detail

using mlusim::BarrierScope;
using mlusim::detail::bit;
using mlusim::detail::fence;

void __sync() { fence("__sync", mlusim::detail::kAllPipes); }
void __sync_io() { fence("__sync_io", bit(mlusim::kIoPipe)); }
void __sync_move() { fence("__sync_move", bit(mlusim::kMovePipe)); }
void __sync_compute() {
  fence("__sync_compute", bit(mlusim::kVectorPipe) | bit(mlusim::kTensorPipe));
}
void __sync_io_move_compute() { fence("__sync_io_move_compute", mlusim::detail::kAllPipes); }
void __sync_io_move_compute(bool a, bool b, bool c, bool d, bool e, bool f) {
  if (a || b || c || d || e || f) fence("__sync_io_move_compute", mlusim::detail::kAllPipes);
}
void __sync_cluster() { mlusim::detail::barrier(BarrierScope::kCluster, "__sync_cluster"); }
void __sync_all() { mlusim::detail::barrier(BarrierScope::kUnion, "__sync_all"); }
void __sync_all_ipu() { mlusim::detail::barrier(BarrierScope::kUnionIpu, "__sync_all_ipu"); }
void __sync_all_ipu_within_cluster() {
  mlusim::detail::barrier(BarrierScope::kClusterIpu, "__sync_all_ipu_within_cluster");
}
