#include "runtime/onchip_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include <spdlog/fmt/fmt.h>

#include "runtime/asan.h"
#include "runtime/logging.h"
#include "runtime/settings.h"
#include "runtime/team.h"

namespace mlusim {
namespace {

// Address space of one block: an index up to 64 MiB past a block (16 M floats)
// lands in nothing and faults.
constexpr size_t kSlotBytes = size_t{64} << 20;
// Where a block starts in its slot: underruns hit this inaccessible lead.
constexpr size_t kLeadBytes = size_t{64} << 10;
constexpr size_t kDeclareAlign = 128;
constexpr size_t kFillWorthThreads = size_t{4} << 20;
// Poisoned between two declared buffers in ASan builds.
constexpr size_t kGapBytes = asan::kEnabled ? 128 : 0;

size_t page_bytes() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}
size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// The first page from p on that is marked (or, for marked false, is not), or
// kPages: eight marks a word, as a mark is a byte of 0 or 1.
size_t next_page(const TouchedPages &t, size_t p, bool marked) {
  static_assert(std::endian::native == std::endian::little && TouchedPages::kPages % 8 == 0);
  constexpr uint64_t kLowBits = 0x0101010101010101;
  for (; p < TouchedPages::kPages && p % 8 != 0; ++p)
    if ((t.page[p] != 0) == marked) return p;
  for (; p < TouchedPages::kPages; p += 8) {
    uint64_t marks;
    std::memcpy(&marks, t.page + p, sizeof marks);
    const uint64_t hits = marked ? marks : ~marks & kLowBits;  // a byte's low bit where it matches
    if (hits != 0) return p + static_cast<size_t>(std::countr_zero(hits)) / 8;
  }
  return TouchedPages::kPages;
}

int parse_fill(const char *spec) {  // the fill byte, -1 for off, -2 if invalid
  if (spec == nullptr) return -2;
  if (std::strcmp(spec, "nan") == 0) return 0xFF;  // NaN in float and half, -1 in ints
  if (std::strcmp(spec, "zero") == 0) return 0;
  if (std::strcmp(spec, "off") == 0) return -1;
  char *end = nullptr;
  const long byte = std::strtol(spec, &end, 0);
  return end != spec && *end == '\0' && byte >= 0 && byte <= 255 ? static_cast<int>(byte) : -2;
}

std::atomic<int> g_fill_byte = [] {
  const char *env = std::getenv("MLUSIM_FILL");
  if (env == nullptr) return 0xFF;
  const int byte = parse_fill(env);
  if (byte != -2) return byte;
  setting_invalid("MLUSIM_FILL", env, "nan, zero, off or a byte such as 0xAB");
  return 0xFF;
}();

// One core's NRAM or WRAM, or one cluster's SRAM, or the scratch that stands
// for a memory core's NRAM or WRAM (it has neither: docs/bang_c.md).
struct Block {
  Space space = Space::kNram;
  int index = 0;      // core, or cluster for SRAM and a memory core's scratch
  size_t usable = 0;  // what kernels may declare
  size_t physical = 0;
  std::byte *base = nullptr;
  size_t open = 0;                       // accessible bytes from base, whole pages
  std::atomic<size_t> high_water{0};     // declared by the current launch
  TouchedPages touched;                  // by the launch that ran last
  bool listed = false;                   // in the arena's list of touched blocks
  bool memory_core = false;  // a memory core's scratch: starts each launch zeroed
};

class Arena {
 public:
  bool fits(const DeviceSpec &s) const {
    return map_ != nullptr && spec_.clusters == s.clusters &&
           spec_.cores_per_cluster == s.cores_per_cluster && spec_.nram_bytes == s.nram_bytes &&
           spec_.wram_bytes == s.wram_bytes && spec_.sram_bytes == s.sram_bytes &&
           spec_.stack_reserve_bytes == s.stack_reserve_bytes;
  }
  void map(const DeviceSpec &s);
  void begin_launch();
  void keep_touched(const std::vector<CoreContext> &cores);
  AddressRange address_space() const {
    return AddressRange{reinterpret_cast<uintptr_t>(map_), map_bytes_};
  }
  void stray_store(uintptr_t addr) {
    if (address_space().holds(addr)) stray_store_ = true;
  }
  void declared(Block &b, size_t end);
  Block &block(Space space, int index) {
    const int cores = core_count(spec_);
    const int slot = space == Space::kNram ? index : space == Space::kWram ? cores + index
                                                                            : 2 * cores + index;
    return *blocks_[slot];
  }
  Block &memory_core_block(Space space, int cluster) {
    const size_t first = 2 * static_cast<size_t>(core_count(spec_)) + spec_.clusters;
    return *blocks_[first + 2 * static_cast<size_t>(cluster) + (space == Space::kWram ? 1 : 0)];
  }
  Block &block_of(const CoreContext &c, Space space) {
    if (space == Space::kSram) return block(space, c.physical_cluster);
    return c.is_mpu ? memory_core_block(space, c.physical_cluster) : block(space, c.physical_core);
  }
  bool describe(uintptr_t addr, std::string *what) const;

 private:
  void open_to(Block &b, size_t end);
  std::string name(const Block &b) const;

  DeviceSpec spec_{};
  std::byte *map_ = nullptr;
  size_t map_bytes_ = 0;
  std::vector<std::unique_ptr<Block>> blocks_;
  std::vector<Block *> touched_;  // the blocks with touched pages, to refill
  std::mutex grow_mutex_;  // cores of a cluster may declare SRAM from two workers
  int filled_with_ = -1;   // the fill byte of the last refill (-1: none yet, or off)
  // Scalar code stored into on-chip memory through a pointer another core
  // made: which bytes is not known, so the next launch refills all.
  std::atomic<bool> stray_store_{false};
};

Arena g_arena;

void Arena::map(const DeviceSpec &s) {
  if (map_ != nullptr) {
    // Unmapped addresses come back from later mmaps (GDRAM allocations): the
    // gaps declarations poisoned must not read as poisoned there.
    for (const auto &bp : blocks_) asan::unpoison(bp->base, bp->open);
    munmap(map_, map_bytes_);
  }
  blocks_.clear();
  touched_.clear();
  spec_ = s;
  const int cores = core_count(s);
  // After the cores' NRAM, WRAM and the clusters' SRAM: each cluster's memory
  // core's NRAM and WRAM scratch.
  const size_t slots = 2 * static_cast<size_t>(cores) + 3 * static_cast<size_t>(s.clusters);
  map_bytes_ = slots * kSlotBytes;
  void *p = mmap(nullptr, map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  map_ = static_cast<std::byte *>(p);
  for (size_t i = 0; i < slots; ++i) {
    auto b = std::make_unique<Block>();
    const int n = static_cast<int>(i);
    if (n < cores) {
      b->space = Space::kNram, b->index = n, b->usable = nram_usable(s), b->physical = s.nram_bytes;
    } else if (n < 2 * cores) {
      b->space = Space::kWram, b->index = n - cores, b->usable = b->physical = s.wram_bytes;
    } else if (n < 2 * cores + s.clusters) {
      b->space = Space::kSram, b->index = n - 2 * cores, b->usable = sram_usable(s);
      b->physical = s.sram_bytes;
    } else {
      const int k = n - 2 * cores - s.clusters;
      b->space = k % 2 == 0 ? Space::kNram : Space::kWram;
      b->index = k / 2;
      b->usable = b->space == Space::kNram ? nram_usable(s) : s.wram_bytes;
      b->physical = b->space == Space::kNram ? s.nram_bytes : s.wram_bytes;
      b->memory_core = true;
    }
    b->base = map_ + i * kSlotBytes + kLeadBytes;
    blocks_.push_back(std::move(b));
  }
}

// Every byte of an open page holds the fill pattern when a launch begins: the
// launch before wrote only the pages its cores touched (TouchedPages), so
// only those are refilled.
// A kernel that declares all of NRAM but uses a little of it (an empty
// launch, a small case) costs nothing for the rest. The whole of what is
// open is refilled when the pattern changed or scalar code stored through
// another core's pointer. Pages are never closed again: on this VM an
// mprotect round trip per core cost more than the fill.
// A memory core's scratch is zeroed instead: no copy brings data into it, and
// the scalar code of a kernel without an __is_mpu() guard computes offsets
// from what it reads there (docs/bang_c.md).
//
// A kernel that writes all of NRAM has 20 MB refilled per launch on an
// MLU370-X4, most of a small launch's host time: the host's cores share it
// when there is that much (below, waking them would cost more than it saves).
void Arena::begin_launch() {
  const int byte = g_fill_byte.load();
  const bool stray = stray_store_.exchange(false);
  const bool all = stray || byte != filled_with_;
  filled_with_ = byte;
  // Calls f(lo, hi) for each run of pages to refill, in bytes within what is open.
  const auto each_run = [all](const Block &b, auto &&f) {
    if (all) return f(size_t{0}, b.open);
    const TouchedPages &t = b.touched;
    for (size_t first = next_page(t, 0, true); first < TouchedPages::kPages;) {
      const size_t end = next_page(t, first + 1, false);
      const size_t lo = std::min(first << t.shift, b.open);
      const size_t hi = std::min(end << t.shift, b.open);
      if (lo < hi) f(lo, hi);
      first = next_page(t, end, true);
    }
  };
  const auto refill = [&](Block &b) {
    each_run(b, [&](size_t lo, size_t hi) {
      if (b.memory_core)
        std::memset(b.base + lo, 0, hi - lo);
      else if (byte >= 0)
        std::memset(b.base + lo, byte, hi - lo);
    });
    b.touched = TouchedPages{};
    b.listed = false;
  };
  for (const auto &bp : blocks_) {
    // Declarations poison the gaps between buffers again (onchip_declared).
    asan::unpoison(bp->base, bp->open);
    bp->high_water.store(0, std::memory_order_relaxed);  // no core runs yet
  }
  if (all) {
    touched_.clear();
    for (const auto &bp : blocks_) touched_.push_back(bp.get());
  }
  size_t total = 0;
  for (Block *b : touched_) each_run(*b, [&](size_t lo, size_t hi) { total += hi - lo; });
  // Most launches refill too little to be worth a second thread.
  run_each(touched_.size(), total < kFillWorthThreads ? 1 : omp_get_max_threads(),
           [&](size_t i) { refill(*touched_[i]); });
  touched_.clear();
}

void Arena::keep_touched(const std::vector<CoreContext> &cores) {
  for (const CoreContext &c : cores)
    for (Space s : {Space::kNram, Space::kSram, Space::kWram}) {
      if (onchip_base(c, s) == nullptr) continue;
      const TouchedPages &t = c.touched[static_cast<int>(s)];
      if (!t.any()) continue;
      Block &b = block_of(c, s);
      if (!b.listed) touched_.push_back(&b);
      b.listed = true;
      TouchedPages &into = b.touched;
      into.shift = t.shift;  // the cores of a launch see the same capacities
      for (size_t p = 0; p < TouchedPages::kPages; ++p) into.page[p] |= t.page[p];
    }
}

void Arena::open_to(Block &b, size_t end) {
  const size_t target = std::min(round_up(end, page_bytes()), round_up(b.usable, page_bytes()));
  if (target <= b.open) return;
  if (mprotect(b.base + b.open, target - b.open, PROT_READ | PROT_WRITE) != 0)
    throw std::bad_alloc();
  asan::unpoison(b.base + b.open, target - b.open);
  const int byte = b.memory_core ? 0 : g_fill_byte.load();
  if (byte >= 0) std::memset(b.base + b.open, byte, target - b.open);
  b.open = target;
}

void Arena::declared(Block &b, size_t end) {
  if (end <= b.high_water.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(grow_mutex_);
  if (end > b.high_water.load()) b.high_water = end;
  open_to(b, end);
}

std::string Arena::name(const Block &b) const {
  if (b.space == Space::kSram) return fmt::format("cluster {}'s SRAM", b.index);
  if (b.memory_core)
    return fmt::format("cluster {} memory core's {} scratch", b.index, space_name(b.space));
  return fmt::format("cluster {} core {}'s {}", b.index / spec_.cores_per_cluster,
                     b.index % spec_.cores_per_cluster, space_name(b.space));
}

bool Arena::describe(uintptr_t addr, std::string *what) const {
  const auto lo = reinterpret_cast<uintptr_t>(map_);
  if (map_ == nullptr || addr < lo || addr >= lo + map_bytes_) return false;
  const Block &b = *blocks_[(addr - lo) / kSlotBytes];
  const auto base = reinterpret_cast<uintptr_t>(b.base);
  if (addr < base) {
    *what = fmt::format("{} bytes before the start of {}", base - addr, name(b));
  } else if (const size_t off = addr - base; off < b.open) {
    *what = fmt::format("{} +{:#x}", name(b), off);
  } else if (off < b.usable) {
    *what = fmt::format("{} +{:#x}, beyond every buffer the kernel declared there ({} bytes): "
                        "an index past the end of its last buffer",
                        name(b), off, b.high_water.load());
  } else if (off < b.physical) {
    *what = fmt::format("{} +{:#x}, in the {} bytes the device reserves for the stack above the "
                        "{} usable bytes (no kernel data may go there)",
                        name(b), off, b.physical - b.usable, b.usable);
  } else {
    *what = fmt::format("{} bytes past the end of {} ({} bytes; no other core's memory is "
                        "reachable from it)",
                        off - b.physical, name(b), b.physical);
  }
  return true;
}

}  // namespace

int fill_byte() { return g_fill_byte.load(); }

bool set_fill(const char *spec) {
  const int byte = parse_fill(spec);
  if (byte == -2) {
    log::runtime().error("memory fill '{}' is none of nan, zero, off or a byte such as 0xAB",
                         spec != nullptr ? spec : "(null)");
    return false;
  }
  g_fill_byte = byte;
  return true;
}

OnchipMemory &OnchipMemory::prepare(const DeviceSpec &spec) {
  static OnchipMemory memory;
  if (!g_arena.fits(spec)) g_arena.map(spec);
  g_arena.begin_launch();
  return memory;
}

std::byte *OnchipMemory::nram(int core) const { return g_arena.block(Space::kNram, core).base; }
std::byte *OnchipMemory::wram(int core) const { return g_arena.block(Space::kWram, core).base; }
std::byte *OnchipMemory::sram(int cluster) const {
  return g_arena.block(Space::kSram, cluster).base;
}
std::byte *OnchipMemory::memory_core_scratch(Space space, int cluster) const {
  return g_arena.memory_core_block(space, cluster).base;
}

size_t onchip_place(size_t declared, size_t bytes, size_t capacity) {
  const size_t start = round_up(declared, kDeclareAlign);
  if (kGapBytes == 0 || declared == 0) return start;
  const size_t gapped = round_up(declared + kGapBytes, kDeclareAlign);
  return gapped <= capacity && bytes <= capacity - gapped ? gapped : start;
}

void onchip_declared(const CoreContext &c, Space space, size_t start, size_t bytes) {
  Block &b = g_arena.block_of(c, space);
  g_arena.declared(b, start + bytes);
  asan::unpoison(b.base + start, bytes);
  if (b.open > start + bytes) asan::poison(b.base + start + bytes, b.open - start - bytes);
}

bool onchip_describe(uintptr_t addr, std::string *what) { return g_arena.describe(addr, what); }

void OnchipMemory::keep_touched(const std::vector<CoreContext> &cores) const {
  g_arena.keep_touched(cores);
}

void onchip_stray_store(uintptr_t addr) { g_arena.stray_store(addr); }

AddressRange onchip_address_space() { return g_arena.address_space(); }

}  // namespace mlusim
