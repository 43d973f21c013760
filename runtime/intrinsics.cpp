// Out-of-line parts of the kernel API: faults, hazards, copies, fences,
// barriers and on-chip buffer declarations.
#include <algorithm>
#include <array>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "runtime/onchip_memory.h"
#include "runtime/scheduler.h"
#include "runtime/segments.h"

namespace mlusim {

const char *pipe_name(uint8_t pipe) {
  switch (pipe) {
    case kIoPipe: return "IO";
    case kMovePipe: return "move";
    case kVectorPipe: return "vector";
    case kTensorPipe: return "tensor";
  }
  return "stream";
}

const char *space_name(Space s) {
  switch (s) {
    case Space::kNram: return "NRAM";
    case Space::kSram: return "SRAM";
    case Space::kWram: return "WRAM";
    case Space::kGdram: return "GDRAM";
    case Space::kLdram: return "LDRAM";
  }
  return "?";
}

namespace detail {

thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec"))) = nullptr;

std::string core_name(const CoreContext &c) {
  return c.is_mpu ? fmt::format("cluster {} memory core", c.physical_cluster)
                  : fmt::format("cluster {} core {}", c.physical_cluster, c.core_in_cluster);
}

void fault(const CoreContext &c, const std::string &what) {
  const char *kernel = c.launch != nullptr ? c.launch->kernel : "(none)";
  const std::string at = c.where != nullptr ? fmt::format(" at {}", c.where) : std::string();
  throw KernelFault{fmt::format("kernel '{}' [{}, task {}]{}: {}", kernel, core_name(c), c.task_id,
                                at, what)};
}

namespace {

struct OnchipRegion {
  Space space;
  const std::byte *base;
  size_t capacity, declared;
};

OnchipRegion region(const CoreContext &c, Space s) {
  switch (s) {
    case Space::kNram: return {s, c.nram, c.nram_capacity, c.nram_declared};
    case Space::kSram: return {s, c.sram, c.sram_capacity, c.sram_declared};
    default: return {s, c.wram, c.wram_capacity, c.wram_declared};
  }
}

// Where p lives, for messages: "NRAM +0x40", "GDRAM allocation #2 ...", ...
std::string where(const CoreContext &c, const void *p, Space *space_out) {
  for (Space s : {Space::kNram, Space::kSram, Space::kWram}) {
    OnchipRegion r = region(c, s);
    uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(r.base);
    if (r.base != nullptr && off < r.capacity) {
      *space_out = s;
      return fmt::format("{} +{:#x}", space_name(s), off);
    }
  }
  *space_out = Space::kGdram;
  return gdram_describe(*c.gdram, p);
}

}  // namespace

void fault_bounds(const CoreContext &c, const char *op, const char *operand, Space expected,
                  const void *p, size_t bytes) {
  if (c.is_mpu && (expected == Space::kNram || expected == Space::kWram))
    fault(c, fmt::format("{}: {} must be in {}, which a memory core does not have (a UNION "
                         "launch runs the kernel on each cluster's memory core too: start it "
                         "with `if (__is_mpu()) return;` as mlu-ops kernels do, or guard this "
                         "code with `if (__is_ipu())`)",
                         op, operand, space_name(expected)));
  Space actual;
  std::string at = where(c, p, &actual);
  if (actual == expected && expected != Space::kGdram) {
    OnchipRegion r = region(c, expected);
    uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(r.base);
    fault(c, fmt::format("{}: {} at {} with {} bytes runs {} bytes past the {} bytes of {} the "
                         "kernel declared",
                         op, operand, at, bytes, off + bytes - r.declared, r.declared,
                         space_name(expected)));
  }
  if (actual == expected)
    fault(c, fmt::format("{}: {} [{}, +{} bytes) is not inside one GDRAM allocation: {}", op,
                         operand, p, bytes, at));
  fault(c, fmt::format("{}: {} {} is in {}, but the instruction needs {} there", op, operand, at,
                       actual == Space::kGdram ? "no on-chip memory" : space_name(actual),
                       space_name(expected)));
}

void fault_alignment(const CoreContext &c, const char *op, const char *operand, const void *p,
                     size_t bytes) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(c.nram);
  fault(c, fmt::format("{}: {} at NRAM +{:#x} with {} bytes breaks the vector alignment rules "
                       "(start aligned to {} bytes, size a multiple of {} bytes)",
                       op, operand, off, bytes, c.cost.nram_align_mask + 1,
                       c.cost.vector_count_align));
}

std::string describe_range(const CoreContext &c, uintptr_t lo, uintptr_t hi) {
  Space s;
  return fmt::format("{} ({} bytes)", where(c, reinterpret_cast<const void *>(lo), &s), hi - lo);
}

void hazard_check(const CoreContext &c, const char *op, const Segments &range, bool write,
                  Pipe own) {
  for (const PendingCopy &p : c.pending) {
    if (p.pipe == own) continue;  // one DMA queue runs its copies in order
    uintptr_t lo, hi;
    const bool hits_dst = first_overlap(range, p.dst, &lo, &hi);
    if (!hits_dst && !(write && first_overlap(range, p.src, &lo, &hi))) continue;
    // Scalar code is no instruction of ours: it runs after the last one issued.
    const std::string when = own == kPipeCount
                                 ? fmt::format("after instruction #{}", c.issued)
                                 : fmt::format("instruction #{}", c.issued + 1);
    fault(c, fmt::format(
                 "async hazard: {} {} {} ({}) while {} (instruction #{}, {} pipe) "
                 "still {} it: fence the copy (__sync_{}() or __sync()) before this access",
                 op, write ? (hits_dst ? "writes" : "overwrites the source") : "reads",
                 describe_range(c, lo, hi), when, p.op, p.seq, pipe_name(p.pipe),
                 hits_dst ? "writes" : "reads", p.pipe == kIoPipe ? "io" : "move"));
  }
}

void scalar_hazard(const CoreContext &c, const void *p, size_t bytes, bool write) {
  hazard_check(c, "scalar code", Segments{reinterpret_cast<uintptr_t>(p), bytes, bytes, 1}, write,
               kPipeCount);
}

void record_event(CoreContext &c, const TraceEvent &e) { c.events.push_back(e); }

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

void move_data(const Segments &dst, const Segments &src) {
  auto *to = reinterpret_cast<std::byte *>(dst.lo);
  auto *from = reinterpret_cast<const std::byte *>(src.lo);
  if (dst.stride == dst.bytes && src.stride == src.bytes) {
    std::memmove(to, from, dst.bytes * dst.count);
    return;
  }
  for (size_t i = 0; i < dst.count; ++i)
    std::memmove(to + i * dst.stride, from + i * src.stride, dst.bytes);
}

// The async copies of the pipes in `mask` land, in issue order.
void land_copies(CoreContext &c, unsigned mask) {
  auto kept = c.pending.begin();
  for (auto it = c.pending.begin(); it != c.pending.end(); ++it) {
    if ((mask >> it->pipe) & 1u)
      move_data(it->dst, it->src);
    else
      *kept++ = *it;
  }
  c.pending.erase(kept, c.pending.end());
}

constexpr unsigned bit(Pipe p) { return 1u << p; }
constexpr unsigned kAllPipes = (1u << kPipeCount) - 1;

// What other cores may touch, for the race check: GDRAM, and the cluster's
// SRAM in UNION launches (its cores and memory core share it; BLOCK tasks
// share none).
void log_copy_side(CoreContext &c, Space space, const Segments &range, bool write,
                   const char *op) {
  if (space == Space::kGdram || (space == Space::kSram && c.launch->is_union))
    log_shared(c, space, range, write, false, op);
}

double copy_cycles(CoreContext &c, const DirectionInfo &d, size_t n, size_t segs) {
  if (d.dst == Space::kGdram || d.src == Space::kGdram) {
    double traffic = gdram_granules(n, segs) * ((d.dst == d.src) ? 2 : 1);
    c.gdram_traffic += traffic;
    return c.cost.gdram_latency + traffic / c.cost.gdram_bytes_per_cycle;
  }
  return c.cost.onchip_latency + static_cast<double>(n * segs) / c.cost.onchip_bytes_per_cycle;
}

}  // namespace

void copy(const char *op, void *dst, const void *src, int size, mluMemcpyDirection_t dir,
          int dst_stride, int src_stride, int segnum, bool async) {
  CoreContext &c = this_core();
  const DirectionInfo d = direction_info(dir);
  const char *dir_name = mlusimDirectionName(dir);
  if (size < 0 || segnum < 0 || dst_stride < 0 || src_stride < 0)
    fault(c, fmt::format("{} {}: negative size {}, stride ({}, {}) or segnum {}", op, dir_name,
                         size, dst_stride, src_stride, segnum));
  const size_t n = static_cast<size_t>(size), segs = static_cast<size_t>(segnum) + 1;
  const Segments to{reinterpret_cast<uintptr_t>(dst), n, static_cast<size_t>(dst_stride), segs};
  const Segments from{reinterpret_cast<uintptr_t>(src), n, static_cast<size_t>(src_stride), segs};
  const char *label = copy_label(async, dir);
  require_space(c, label, "dst", d.dst, dst, to.hi() - to.lo);
  require_space(c, label, "src", d.src, src, from.hi() - from.lo);
  // A synchronous copy waits for the async copies queued before it on its pipe.
  if (!async && !c.pending.empty()) land_copies(c, bit(d.pipe));
  if (!c.pending.empty()) {
    hazard_check(c, label, from, false, d.pipe);
    hazard_check(c, label, to, true, d.pipe);
  }
  log_copy_side(c, d.src, from, false, label);
  log_copy_side(c, d.dst, to, true, label);

  c.bytes_moved[dir] += static_cast<double>(n * segs);
  const double cycles = copy_cycles(c, d, n, segs);
  issue(c, d.pipe, cycles, async, access_of(dst, to.hi() - to.lo, src, from.hi() - from.lo,
                                            nullptr, 0),
        op, dir_name, dst, src, n * segs);
  if (async)
    c.pending.push_back(PendingCopy{to, from, d.pipe, label, c.issued});
  else
    move_data(to, from);
}

void account_atomic(const char *op, const void *gdram_dst, const void *nram_src, size_t bytes,
                    size_t elements) {
  CoreContext &c = this_core();
  require_gdram(c, op, "dst", gdram_dst, bytes);
  // Atomics add whole elements: a dst off its element alignment faults instead of tearing.
  const size_t element_bytes = elements > 0 ? bytes / elements : 1;
  if (element_bytes > 1 && reinterpret_cast<uintptr_t>(gdram_dst) % element_bytes != 0)
    fault(c, fmt::format("{}: dst {} is not aligned to its {}-byte elements", op,
                         gdram_describe(*c.gdram, gdram_dst), element_bytes));
  if (!c.pending.empty()) land_copies(c, bit(kIoPipe));  // in order on the IO queue
  if (nram_src != nullptr) {
    require_onchip(c, op, "src", Space::kNram, nram_src, bytes);
    check_read(c, op, nram_src, bytes, kIoPipe);
  }
  check_write(c, op, gdram_dst, bytes, kIoPipe);
  log_shared(c, Space::kGdram, Segments{reinterpret_cast<uintptr_t>(gdram_dst), bytes, bytes, 1},
             true, true, op);
  double traffic = 2 * gdram_granules(bytes, 1);  // read-modify-write
  c.gdram_traffic += traffic;
  c.atomic_elems += static_cast<double>(elements);
  issue(c, kIoPipe, c.cost.atomic_latency + traffic / c.cost.gdram_bytes_per_cycle, false,
        access_of(gdram_dst, bytes, nram_src, nram_src != nullptr ? bytes : 0, nullptr, 0), op,
        "GDRAM", gdram_dst, nram_src, bytes);
}

void issue_tensor(const char *op, TensorOperand dst, std::initializer_list<TensorOperand> srcs,
                  double cycles) {
  CoreContext &c = this_core();
  require_onchip(c, op, "dst", dst.space, dst.p, dst.bytes);
  Access a = access_of(dst.p, dst.bytes, nullptr, 0, nullptr, 0);
  int n = 0;
  for (const TensorOperand &s : srcs) {
    require_onchip(c, op, "src", s.space, s.p, s.bytes);
    check_read(c, op, s.p, s.bytes);
    // Two read ranges are tracked for timing: the first source and the hull of the rest.
    const auto lo = reinterpret_cast<uintptr_t>(s.p), hi = lo + s.bytes;
    if (n++ == 0) {
      a.r0_lo = lo, a.r0_hi = hi;
    } else {
      a.r1_lo = a.r1_hi == 0 ? lo : std::min(a.r1_lo, lo);
      a.r1_hi = std::max(a.r1_hi, hi);
    }
  }
  check_write(c, op, dst.p, dst.bytes);
  issue(c, kTensorPipe, cycles, false, a, op, "tensor", dst.p,
        srcs.size() > 0 ? srcs.begin()->p : nullptr, dst.bytes);
}

std::byte *declare_onchip(Space space, size_t bytes, const char *name) {
  CoreContext &c = this_core();
  if (c.is_mpu && space != Space::kSram) {
    // BANG's __nram__ arrays are static: the memory core passes their
    // declaration but owns no NRAM/WRAM; any intrinsic on them faults.
    return nullptr;
  }
  std::byte *base = space == Space::kNram ? c.nram : space == Space::kSram ? c.sram : c.wram;
  size_t &declared = space == Space::kNram   ? c.nram_declared
                     : space == Space::kSram ? c.sram_declared
                                             : c.wram_declared;
  size_t capacity = region(c, space).capacity;
  size_t start = onchip_place(declared, bytes, capacity);
  if (start > capacity || bytes > capacity - start)
    fault(c, fmt::format("{} buffer '{}' of {} bytes does not fit: {} bytes already declared, "
                         "{} usable on this device",
                         space_name(space), name, bytes, start, capacity));
  declared = start + bytes;
  onchip_declared(c, space, start, bytes);
  return base + start;
}

namespace {

// The stream waits for the pipes in `mask`; their async copies land.
void fence(const char *op, unsigned mask) {
  CoreContext &c = this_core();
  const double before = c.now;
  for (int p = 0; p < kPipeCount; ++p)
    if ((mask >> p) & 1u) c.now = std::max(c.now, c.pipe_free[p]);
  if (!c.pending.empty()) land_copies(c, mask);
  if (c.tracing && c.now > before)
    record_event(c, TraceEvent{op, "wait", kStreamLane, false, before, before, before, c.now,
                               nullptr, nullptr, 0});
}

void barrier(BarrierScope scope, const char *op) {
  CoreContext &c = this_core();
  if (!c.launch->is_union)
    fault(c, fmt::format("{} needs a UNION task; this kernel was launched as BLOCK", op));
  if (scope == BarrierScope::kUnionIpu && c.is_mpu)
    fault(c, fmt::format("{} is for the compute cores; the memory core does not take part", op));
  fence(op, kAllPipes);
  const double arrival = c.now;
  c.launch->scheduler->barrier(c, scope, op);
  if (c.tracing)
    record_event(c, TraceEvent{op, "barrier", kStreamLane, false, arrival, arrival, arrival,
                               c.now, nullptr, nullptr, 0});
}

}  // namespace

}  // namespace detail
}  // namespace mlusim

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
void __sync_cluster() { mlusim::detail::barrier(BarrierScope::kCluster, "__sync_cluster"); }
void __sync_all() { mlusim::detail::barrier(BarrierScope::kUnion, "__sync_all"); }
void __sync_all_ipu() { mlusim::detail::barrier(BarrierScope::kUnionIpu, "__sync_all_ipu"); }
