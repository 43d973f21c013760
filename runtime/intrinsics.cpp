// Out-of-line parts of the kernel API: faults, hazards, copies, fences,
// barriers and on-chip buffer declarations.
#include <algorithm>
#include <array>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "runtime/scheduler.h"

namespace mlusim {

const char *space_name(Space s) {
  switch (s) {
    case Space::kNram: return "NRAM";
    case Space::kSram: return "SRAM";
    case Space::kWram: return "WRAM";
    case Space::kGdram: return "GDRAM";
  }
  return "?";
}

namespace detail {

thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec"))) = nullptr;

void fault(const CoreContext &c, const std::string &what) {
  const char *kernel = c.launch != nullptr ? c.launch->kernel : "(none)";
  throw KernelFault{fmt::format("kernel '{}' [cluster {} core {}, task {}]: {}", kernel,
                                c.physical_cluster, c.core_in_cluster, c.task_id,
                                what)};
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

void hazard_check(const CoreContext &c, const char *op, uintptr_t lo, uintptr_t hi, bool write) {
  for (const PendingCopy &p : c.pending) {
    bool hits_dst = lo < p.dst_hi && p.dst_lo < hi;
    bool hits_src = write && lo < p.src_hi && p.src_lo < hi;
    if (!hits_dst && !hits_src) continue;
    fault(c, fmt::format("{} {} [{:#x}, {:#x}) while {} into [{:#x}, {:#x}) from [{:#x}, {:#x}) "
                         "is still in flight: add a __sync() before it (async hazard)",
                         op, write ? (hits_dst ? "writes" : "overwrites the source") : "reads", lo,
                         hi, p.op, p.dst_lo, p.dst_hi, p.src_lo, p.src_hi));
  }
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

void copy(const char *op, void *dst, const void *src, int size, mluMemcpyDirection_t dir,
          int dst_stride, int src_stride, int segnum, bool async) {
  CoreContext &c = this_core();
  const DirectionInfo d = direction_info(dir);
  const char *dir_name = mlusimDirectionName(dir);
  if (size < 0 || segnum < 0 || dst_stride < 0 || src_stride < 0)
    fault(c, fmt::format("{} {}: negative size {}, stride ({}, {}) or segnum {}", op, dir_name,
                         size, dst_stride, src_stride, segnum));
  const size_t n = static_cast<size_t>(size), segs = static_cast<size_t>(segnum) + 1;
  const size_t dst_extent = (segs - 1) * static_cast<size_t>(dst_stride) + n;
  const size_t src_extent = (segs - 1) * static_cast<size_t>(src_stride) + n;
  const char *label = copy_label(async, dir);
  require_space(c, label, "dst", d.dst, dst, dst_extent);
  require_space(c, label, "src", d.src, src, src_extent);
  check_read(c, op, src, src_extent);
  check_write(c, op, dst, dst_extent);

  auto *to = static_cast<std::byte *>(dst);
  auto *from = static_cast<const std::byte *>(src);
  if (static_cast<size_t>(dst_stride) == n && static_cast<size_t>(src_stride) == n) {
    std::memmove(to, from, n * segs);
  } else {
    for (size_t i = 0; i < segs; ++i) std::memmove(to + i * dst_stride, from + i * src_stride, n);
  }

  double cycles;
  if (d.dst == Space::kGdram || d.src == Space::kGdram) {
    double traffic = gdram_granules(n, segs) * ((d.dst == d.src) ? 2 : 1);
    c.gdram_traffic += traffic;
    cycles = c.cost.gdram_latency + traffic / c.cost.gdram_bytes_per_cycle;
  } else {
    cycles = c.cost.onchip_latency + static_cast<double>(n * segs) / c.cost.onchip_bytes_per_cycle;
  }
  c.bytes_moved[dir] += static_cast<double>(n * segs);
  account(c, d.lane, cycles, async, op, dir_name, dst, src, n * segs);
  if (async) {
    auto dl = reinterpret_cast<uintptr_t>(dst), sl = reinterpret_cast<uintptr_t>(src);
    c.pending.push_back(PendingCopy{dl, dl + dst_extent, sl, sl + src_extent, d.lane, op});
  }
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
  if (nram_src != nullptr) {
    require_onchip(c, op, "src", Space::kNram, nram_src, bytes);
    check_read(c, op, nram_src, bytes);
  }
  check_write(c, op, gdram_dst, bytes);
  double traffic = 2 * gdram_granules(bytes, 1);  // read-modify-write
  c.gdram_traffic += traffic;
  c.atomic_elems += static_cast<double>(elements);
  account(c, kIoLane, c.cost.atomic_latency + traffic / c.cost.gdram_bytes_per_cycle, false, op,
          "GDRAM", gdram_dst, nram_src, bytes);
}

std::byte *declare_onchip(Space space, size_t bytes, const char *name) {
  CoreContext &c = this_core();
  std::byte *base = space == Space::kNram ? c.nram : space == Space::kSram ? c.sram : c.wram;
  size_t &declared = space == Space::kNram   ? c.nram_declared
                     : space == Space::kSram ? c.sram_declared
                                             : c.wram_declared;
  size_t capacity = region(c, space).capacity;
  size_t start = (declared + 127) & ~size_t{127};
  if (start > capacity || bytes > capacity - start)
    fault(c, fmt::format("{} buffer '{}' of {} bytes does not fit: {} bytes already declared, "
                         "{} usable on this device",
                         space_name(space), name, bytes, start, capacity));
  declared = start + bytes;
  return base + start;
}

namespace {
void wait_lane(CoreContext &c, Lane lane) {
  c.now = std::max(c.now, c.lane_free[lane]);
  c.pending.erase(std::remove_if(c.pending.begin(), c.pending.end(),
                                 [lane](const PendingCopy &p) { return p.lane == lane; }),
                  c.pending.end());
}

void barrier(bool whole_launch, const char *op) {
  CoreContext &c = this_core();
  if (!c.launch->is_union)
    fault(c, fmt::format("{} needs a UNION task; this kernel was launched as BLOCK", op));
  __sync();
  c.launch->scheduler->barrier(c, whole_launch, op);
}
}  // namespace

}  // namespace detail
}  // namespace mlusim

using mlusim::this_core;

void __sync() {
  auto &c = this_core();
  c.now = c.finish();
  c.pending.clear();
}
void __sync_io() { mlusim::detail::wait_lane(this_core(), mlusim::kIoLane); }
void __sync_move() { mlusim::detail::wait_lane(this_core(), mlusim::kMoveLane); }
void __sync_compute() { mlusim::detail::wait_lane(this_core(), mlusim::kComputeLane); }
void __sync_cluster() { mlusim::detail::barrier(false, "__sync_cluster"); }
void __sync_all() { mlusim::detail::barrier(true, "__sync_all"); }
