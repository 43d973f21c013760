#include "runtime/bang/onchip_layout.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "runtime/onchip_memory.h"

namespace mlusim {
namespace {

constexpr size_t kMaxVariables = 4096;  // per space and launch
constexpr size_t kGranule = size_t{1} << DeclaredEnds::kGranuleShift;
constexpr int kCheckedSpaces = 3;  // NRAM, SRAM, WRAM (Space's first three)

// The granule tables of the run in progress, kept from one run to the next so
// that a launch clears only what the previous one wrote (one launch at a time).
struct EndTables {
  std::array<std::vector<uint32_t>, kCheckedSpaces> ends;
  std::array<size_t, kCheckedSpaces> written{};  // granules the last run set
};
EndTables &end_tables() {
  static EndTables t;
  return t;
}

const char *qualifier(Space s) {
  switch (s) {
    case Space::kNram: return "__nram__";
    case Space::kWram: return "__wram__";
    case Space::kSram: return "__mlu_shared__";
    default: return "__ldram__";
  }
}

size_t granules(size_t bytes) { return (bytes + kGranule - 1) / kGranule; }

}  // namespace

OnchipLayout::OnchipLayout(uint64_t serial, const DeviceSpec &spec,
                           const std::vector<CoreContext> &cores)
    : serial_(serial), spec_(spec), cores_(cores) {
  EndTables &t = end_tables();
  for (int s = 0; s < kCheckedSpaces; ++s) {
    std::vector<uint32_t> &ends = t.ends[s];
    std::fill_n(ends.begin(), std::min(t.written[s], ends.size()), 0);
    t.written[s] = 0;
    ends.resize(granules(capacity(static_cast<Space>(s))), 0);
  }
}

size_t OnchipLayout::capacity(Space space) const {
  switch (space) {
    case Space::kNram: return nram_usable(spec_);
    case Space::kWram: return spec_.wram_bytes;
    case Space::kSram: return sram_usable(spec_);
    default: return kLdramBytes;
  }
}

DeclaredEnds OnchipLayout::ends(Space space) const {
  const std::vector<uint32_t> &ends = end_tables().ends[static_cast<int>(space)];
  return DeclaredEnds{ends.data(), ends.size()};
}

size_t OnchipLayout::used(Space space) const {
  return spaces_[static_cast<int>(space)].used.load(std::memory_order_relaxed);
}

OnchipLayout::~OnchipLayout() {
  for (void *p : ldram_)
    if (p != nullptr) munmap(p, kLdramBytes);
}

std::byte *OnchipLayout::place(CoreContext &c, bang::OnchipSite &site, size_t bytes,
                               size_t align) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (site.placed_in.load(std::memory_order_relaxed) != serial_)
    add(c, site.space, site, bytes, align);
  else if (bytes > site.bytes)
    detail::fault(c, fmt::format("'{}' ({}) has {} bytes in this launch; a use asks for {}",
                                 site.name, site.where, site.bytes, bytes));
  if (site.space == Space::kLdram) c.ldram = ldram_of(c.physical_core);
  return bang::space_base(c, site.space) + site.offset;
}

void OnchipLayout::add(CoreContext &c, Space space, bang::OnchipSite &site, size_t bytes,
                       size_t align) {
  SpaceLayout &s = spaces_[static_cast<int>(space)];
  const size_t cap = capacity(space);
  const size_t step = std::max(align, kGranule);
  const size_t start = (onchip_place(s.used, bytes, cap) + step - 1) / step * step;
  if (start > cap || bytes > cap - start)
    detail::fault(c, fmt::format("{} variables need {} bytes per {} but {} has {} bytes of usable "
                                 "{}: {}'{}' ({}, {} bytes)",
                                 qualifier(space), start + bytes,
                                 space == Space::kSram ? "cluster" : "core", spec_.name, cap,
                                 space_name(space), list_variables(space), site.name, site.where,
                                 bytes));
  if (s.vars.size() + 1 >= kMaxVariables)
    detail::fault(c, fmt::format("more than {} {} variables in one kernel", kMaxVariables - 1,
                                 qualifier(space)));
  s.vars.push_back(Placed{&site, start, bytes});
  if (space != Space::kLdram && bytes != 0) {
    EndTables &t = end_tables();
    const int index = static_cast<int>(space);
    const size_t last = granules(start + bytes);
    for (size_t g = start / kGranule; g < last; ++g)  // cores read these as they run
      __atomic_store_n(&t.ends[index][g], static_cast<uint32_t>(start + bytes), __ATOMIC_RELAXED);
    t.written[index] = std::max(t.written[index], last);
  }
  s.used.store(start + bytes, std::memory_order_relaxed);
  if (space != Space::kLdram)  // every core's memory opens there (guard pages)
    for (const CoreContext &core : cores_)
      if (bang::space_base(core, space) != nullptr) onchip_declared(core, space, start, bytes);
  site.offset = start;
  site.bytes = bytes;
  if (site.init != nullptr) initialise(space, site);
  site.placed_in.store(serial_, std::memory_order_release);
}

// A file-scope variable with an initializer starts with it on every core.
void OnchipLayout::initialise(Space space, const bang::OnchipSite &site) {
  for (size_t i = 0; i < cores_.size(); ++i) {
    std::byte *base = space == Space::kLdram ? static_cast<std::byte *>(ldram_of(static_cast<int>(i)))
                                             : bang::space_base(cores_[i], space);
    if (base != nullptr) std::memcpy(base + site.offset, site.init, site.bytes);
  }
  // The cores note their own writes as they run; these are noted after the run.
  if (space != Space::kLdram) initialised_.push_back(Placed{&site, site.offset, site.bytes});
}

void OnchipLayout::note_initialised() const {
  for (const Placed &v : initialised_)
    for (const CoreContext &c : cores_)
      if (bang::space_base(c, v.site->space) != nullptr)
        c.touched[static_cast<int>(v.site->space)].note(v.offset, v.bytes);
}

std::byte *OnchipLayout::ldram_of(int core) {
  if (ldram_.empty()) ldram_.assign(cores_.size(), nullptr);
  void *&p = ldram_[static_cast<size_t>(core)];
  if (p == nullptr) {
    p = mmap(nullptr, kLdramBytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      p = nullptr;
      detail::fault(cores_[static_cast<size_t>(core)], "cannot reserve LDRAM for __ldram__ variables");
    }
  }
  return static_cast<std::byte *>(p);
}

std::string OnchipLayout::list_variables(Space space) const {
  std::string out;
  for (const Placed &v : spaces_[static_cast<int>(space)].vars)
    out += fmt::format("'{}' ({}, {} bytes), ", v.site->name, v.site->where, v.bytes);
  return out;
}

std::string OnchipLayout::describe(Space space, size_t offset) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Placed &v : spaces_[static_cast<int>(space)].vars)
    if (offset >= v.offset && offset < v.offset + std::max<size_t>(v.bytes, 1))
      return fmt::format("'{}' ({}, {} bytes)", v.site->name, v.site->where, v.bytes);
  return "";
}

namespace detail {
void fault_crossing(const CoreContext &c, const char *op, const char *operand, Space space,
                    const void *p, size_t bytes) {
  const size_t off = static_cast<size_t>(static_cast<const std::byte *>(p) -
                                         bang::space_base(c, space));
  const OnchipLayout &layout = *c.launch->layout;
  const std::string first = layout.describe(space, off);
  if (first.empty())
    fault(c, fmt::format("{}: {} at {} +{:#x} ({} bytes) starts in no declared variable", op,
                         operand, space_name(space), off, bytes));
  const std::string last = layout.describe(space, off + bytes - 1);
  fault(c, fmt::format("{}: {} at {} +{:#x} with {} bytes starts in {} and runs past its end "
                       "into {}",
                       op, operand, space_name(space), off, bytes, first,
                       last.empty() ? "memory no variable declares" : last));
}
}  // namespace detail

namespace bang {
std::byte *place(CoreContext &c, OnchipSite &site, size_t bytes, size_t align) {
  return c.launch->layout->place(c, site, bytes, align);
}
}  // namespace bang

}  // namespace mlusim
