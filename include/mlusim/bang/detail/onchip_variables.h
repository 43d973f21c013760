// On-chip variables of a translated .mlu file: each declaration with
// __nram__ / __wram__ / __mlu_shared__ / __ldram__ becomes an OnchipSite, and
// every use finds the calling core's instance of it (runtime/bang/onchip_layout.h
// lays them out).
#pragma once

#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "mlusim/bang/detail/core.h"

namespace mlusim::bang {

// One declaration of an on-chip variable in the program (one per template
// instantiation). The first core of a launch to reach it gives it an offset in
// the launch's layout; every core uses the same offset in its own NRAM / WRAM /
// LDRAM (its cluster's SRAM for __mlu_shared__), so the storage is one instance
// per core, alive for the whole task, as the device's static allocation is.
struct OnchipSite {
  Space space;
  const char *name;
  const char *where;                 // "prog.mlu:12"
  const void *init = nullptr;        // file-scope initial value, copied at placement
  std::atomic<uint64_t> placed_in{0};  // the launch whose layout holds it
  size_t offset = 0;
  size_t bytes = 0;
};

// Cold path: places the site in this launch's layout (or catches this core up
// with a placement another core made) and returns the core's address of it.
std::byte *place(CoreContext &c, OnchipSite &site, size_t bytes, size_t align);

inline std::byte *space_base(const CoreContext &c, Space s) {
  switch (s) {
    case Space::kNram: return c.nram;
    case Space::kWram: return c.wram;
    case Space::kSram: return c.sram;
    default: return c.ldram;
  }
}

// The calling core's instance of the variable declared at `site`.
template <typename T>
T &onchip(OnchipSite &site) {
  CoreContext &c = this_core();
  std::byte *base = space_base(c, site.space);
  std::byte *p = site.placed_in.load(std::memory_order_acquire) == c.launch_serial && base != nullptr
                     ? base + site.offset
                     : place(c, site, sizeof(T), alignof(T));
  return *reinterpret_cast<T *>(p);
}

// A one-dimensional on-chip array of `count` elements (count may be a run-time
// value, but the same at every use within a launch).
template <typename T>
T *onchip_array(OnchipSite &site, size_t count) {
  CoreContext &c = this_core();
  const size_t bytes = sizeof(T) * count;
  std::byte *base = space_base(c, site.space);
  std::byte *p = site.placed_in.load(std::memory_order_acquire) == c.launch_serial &&
                         bytes <= site.bytes && base != nullptr
                     ? base + site.offset
                     : place(c, site, bytes, alignof(T));
  return reinterpret_cast<T *>(p);
}

// `__nram__ T x = init;` at function scope: the initializer runs each time the
// declaration does, as for any local variable.
template <typename T, typename V>
void assign(T &var, const V &value) {
  using Plain = std::remove_cv_t<T>;
  if constexpr (std::is_array_v<Plain>) {
    static_assert(sizeof(T) == sizeof(V), "on-chip array initializer of another size");
    std::memcpy(const_cast<Plain *>(&var), &value, sizeof(T));
  } else {
    *const_cast<Plain *>(&var) = static_cast<Plain>(value);
  }
}

}  // namespace mlusim::bang
