// Scalar kernel code as mlusim-cncc's translation shows it to the simulated
// core (docs/bang_c.md): every element a .mlu kernel reads or writes through a
// subscript, a pointer or a member of a pointer, wrapped in scalar_at /
// scalar_store_at / scalar_update_at, and every block of device code opened
// by scalar_work with the operators it computes. Each access is classified
// by its address (the core's NRAM, WRAM, its cluster's SRAM, GDRAM through
// the launch's allocation snapshot, else the stack or other host memory)
// and charged in cycles that the next recorded step carries into the timing
// model, with the NRAM it read and wrote (the replay holds the scalar code
// until what it depends on has ended); it faults when an unfenced async copy
// owns its bytes; GDRAM and SRAM accesses join the race check's log, a store
// of a scalar with the bytes it stores; GDRAM accesses count their blocks in
// the launch report's traffic. An NRAM access costs a thread-local load, two
// compares, an add and two stores on the host (its mark for the scalar pipe
// hazards: runtime/scalar_marks.h), two compares more and a store where it
// widens its span (NramSpan); a store, two byte stores more (the pages the
// next launch refills: CoreContext::touched).
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <memory>
#include <type_traits>

#include "mlusim/bang/detail/issue.h"

namespace mlusim::detail {

// What a scalar access does with the element: reads it, writes it, or both
// (a compound assignment or an increment); or writes bytes it knows (8 or
// fewer, passed as one number: the race check grades races by them).
enum ScalarAccess : unsigned {
  kScalarLoad = 1,
  kScalarStore = 2,
  kScalarUpdate = 3,
  kScalarStoreOf = 6,
  // Of an element the compiler keeps in a register for its loop (mlusim-cncc
  // decides): seen and checked as its access, charged nothing.
  kScalarInRegister = 8,
  kScalarRegisterUpdate = kScalarUpdate | kScalarInRegister,
};
constexpr bool in_register(unsigned access) { return (access & kScalarInRegister) != 0; }
// How many accesses of memory it costs.
constexpr unsigned charged_accesses(unsigned access) {
  return in_register(access) ? 0 : access == kScalarUpdate ? 2 : 1;
}

// The `bytes` (8 or fewer) at `p` as one number, zero-extended.
inline uint64_t bits_of(const void *p, size_t bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, bytes);
  return bits;
}

// An access outside the core's NRAM and the GDRAM allocation of the last one:
// classified, charged, logged for the race check when it touches memory other
// cores share. `op` names it in reports, `where` (may be null) its line;
// `bits` a kScalarStoreOf's bytes.
void scalar_elsewhere(CoreContext &c, const char *op, const char *where, uintptr_t address,
                      size_t bytes, unsigned access, uint64_t bits);
// An access of shared memory that does not go on with its site's run: logs
// the run the site (or the slot it takes) had, and starts a new one.
void scalar_run_break(CoreContext &c, const char *op, const char *where, uintptr_t address,
                      size_t bytes, unsigned access, Space space, uint64_t bits);
// Logs every run not yet logged: before a barrier, at the task's end.
void flush_scalar_runs(CoreContext &c);
// Logs the run `site` makes if it is of the other kind (a store's, if not
// `write`). An intrinsic call runs with the site of the last call marked: its
// own, or one in its arguments (__store_gdram(p, __load_gdram(p)) stores with
// the load's), or, unmarked (in a system header), an earlier one.
void end_run_of_other_kind(CoreContext &c, const char *site, bool write);
inline void forget_scalar_runs(CoreContext &c) {  // a faulted task's
  for (ScalarRun &r : c.scalar_runs) r.site = nullptr;
}
// An access while async copies are in flight: faults when one of them owns the
// bytes (writes them, or for a write also reads them).
[[gnu::cold]] void scalar_in_flight(CoreContext &c, const char *where, uintptr_t address,
                                    size_t bytes, bool write);

// The run of `site` that goes on with the element at `address`: the same one
// again, the next at the run's stride, or (its second access) the one that
// sets it; null if none does. A site only loads or only stores: each
// translated access is one (mlusim-cncc gives each its own string), and an
// intrinsic's ends the run of the other kind first (end_run_of_other_kind).
inline ScalarRun *continued_run(CoreContext &c, const char *site, uintptr_t address, size_t bytes) {
  for (ScalarRun &r : c.scalar_runs) {
    if (r.site != site) continue;
    Segments &s = r.range;
    const uintptr_t last = s.lo + (s.count - 1) * s.stride;
    if (address == last) return &r;
    if (s.count > 1 && address == last + s.stride) {
      ++s.count;
      return &r;
    }
    if (s.count == 1 && address >= last + bytes) {
      s.stride = address - s.lo;
      s.count = 2;
      return &r;
    }
    return nullptr;
  }
  return nullptr;
}

// Scalar code's access outside NRAM, for the replay: the next step's scalar
// code waits for the instructions that write what it read or access what it
// wrote (docs/cost_model.md, "Scalar code"). A value kept in a register
// meets memory before and after its loop only.
inline void note_far_access(CoreContext &c, uintptr_t address, size_t bytes, unsigned access) {
  if (in_register(access)) return;
  if ((access & kScalarLoad) != 0) c.scalar_far_reads.add(address, bytes);
  if ((access & kScalarStore) != 0) c.scalar_far_writes.add(address, bytes);
}

// A scalar access of GDRAM: its time (a load waits for the value, a store is
// posted) and its 64-byte blocks in the launch report's traffic, counted as a
// transfer's (docs/cost_model.md, "What a GDRAM request costs"): those it
// reads, and for a store those it writes, each covered in part once more (the
// read of a read-modify-write).
inline void charge_scalar_gdram(CoreContext &c, uintptr_t address, size_t bytes, unsigned access) {
  if (in_register(access)) return;  // read before its loop, written after it
  const bool load = (access & kScalarLoad) != 0, store = (access & kScalarStore) != 0;
  c.scalar_cycles +=
      (load ? c.scalar_prices.gdram_load : 0) + (store ? c.scalar_prices.gdram_store : 0);
  note_far_access(c, address, bytes, access);
  // An element under 64 bytes covers each block it touches in part (bytes is
  // a constant where the translation calls: the test folds away).
  const uint64_t touched = ((address + bytes - 1) >> 6) - (address >> 6) + 1;
  const uint64_t partial =
      bytes < 64 ? touched : blocks_of(Segments{address, bytes, bytes, 1}).partial;
  c.scalar_gdram_blocks += (load ? touched : 0) + (store ? touched + partial : 0);
}

// An access of memory other cores share, for the race check: it goes on with
// its site's run or starts one; a store that stores other bytes than the
// run's first (or bytes not known) makes the run's bytes not known.
[[gnu::always_inline]] inline void log_scalar(CoreContext &c, const char *op, const char *where,
                                              uintptr_t address, size_t bytes, unsigned access,
                                              uint64_t bits, Space space) {
  if (c.access_log == nullptr) return;
  const bool write = (access & kScalarStore) != 0;
  const char *site = where != nullptr ? where : op;
  if (ScalarRun *run = continued_run(c, site, address, bytes); run == nullptr)
    scalar_run_break(c, op, where, address, bytes, access, space, bits);
  else if (write && (access != kScalarStoreOf || bits != run->value))
    run->same = false;
}

// The element at `address`, `bytes` long, accessed by scalar code of the
// calling core: charged, checked, logged. NRAM and the GDRAM allocation the
// last access fell in are inline; `site` keys the race check's run (each
// translated access has its own string; null `where` leaves `op`); `bits`
// are a kScalarStoreOf's bytes.
template <unsigned kAccess>
[[gnu::always_inline]] inline void scalar_touch(CoreContext &c, const char *op, const char *where,
                                                uintptr_t address, size_t bytes, uint64_t bits = 0) {
  if (const uintptr_t off = address - reinterpret_cast<uintptr_t>(c.nram); off < c.nram_capacity)
      [[likely]] {
    c.scalar_nram_accesses += charged_accesses(kAccess);
    if constexpr ((kAccess & kScalarLoad) != 0) {
      c.scalar_reads[off >> 2] = c.fence_epoch;
      c.scalar_reads_span.add(off, bytes);
    }
    if constexpr ((kAccess & kScalarStore) != 0) {
      c.scalar_stores[off >> 2] = c.fence_epoch;
      c.scalar_writes_span.add(off, bytes);
      c.touched[static_cast<int>(Space::kNram)].note(off, bytes);
    }
    c.scalar_marked = true;
  } else if (c.recent_gdram[0].holds(address) || c.recent_gdram[1].holds(address)) {
    charge_scalar_gdram(c, address, bytes, kAccess);
    log_scalar(c, op, where, address, bytes, kAccess, bits, Space::kGdram);
  } else if (c.last_elsewhere.holds(address)) {  // the stack: the device keeps it in NRAM
    c.scalar_cycles += charged_accesses(kAccess) * c.scalar_prices.onchip;
  } else {
    scalar_elsewhere(c, op, where, address, bytes, kAccess, bits);
  }
  if (c.pending.may_meet(address, address + bytes, (kAccess & kScalarStore) != 0)) [[unlikely]]
    scalar_in_flight(c, where, address, bytes, (kAccess & kScalarStore) != 0);
}

// The element of `p[i] = x` where it is a scalar of 8 bytes or less: the
// store is seen when it happens, with the bytes it stores (the race check
// grades a race of two writes by them). Assigning converts as `p[i] = x` does.
template <typename T>
struct ScalarStore {
  const char *where;
  T &element;
  [[gnu::always_inline]] constexpr T &operator=(std::remove_cv_t<T> value) const {
    if (!std::is_constant_evaluated()) {
      if (CoreContext *c = tls_core; c != nullptr) [[likely]]  // null: host code
        scalar_touch<kScalarStoreOf>(*c, kScalarCodeOp, where,
                                     reinterpret_cast<uintptr_t>(std::addressof(element)),
                                     sizeof(T), bits_of(std::addressof(value), sizeof(T)));
    }
    element = value;
    return element;
  }
};

// An lvalue of kernel code: the same lvalue, seen by the core. An array (a
// row of a 2-D array, an array member) is no access: its elements are. A
// value (an operator[] that returns one) passes through.
template <unsigned kAccess, typename T>
[[gnu::always_inline]] constexpr decltype(auto) scalar_element(const char *where, T &&element) {
  using Element = std::remove_reference_t<T>;
  if constexpr (!std::is_lvalue_reference_v<T>) {
    return Element(static_cast<T &&>(element));
  } else if constexpr (kAccess == kScalarStore && std::is_scalar_v<Element> &&
                       sizeof(Element) <= 8) {
    return ScalarStore<Element>{where, element};
  } else {
    if constexpr (!std::is_array_v<Element> && !std::is_function_v<Element>) {
      if (!std::is_constant_evaluated()) {
        if (CoreContext *c = tls_core; c != nullptr) [[likely]]  // null: host code
          scalar_touch<kAccess>(*c, kScalarCodeOp, where,
                                reinterpret_cast<uintptr_t>(std::addressof(element)),
                                sizeof(Element));
      }
      // A volatile element read is its value, read here once: "(void)*flag;"
      // reads it, which a discarded reference returned by a call would not.
      if constexpr (std::is_volatile_v<Element> && std::is_scalar_v<Element> &&
                    kAccess == kScalarLoad)
        return std::remove_cv_t<Element>(element);
      else
        return static_cast<T>(element);
    } else {
      return static_cast<T>(element);
    }
  }
}

}  // namespace mlusim::detail

namespace mlusim::bang {

// `p[i]`, `*p`, `p->f` read by .mlu kernel code (mlusim-cncc wraps them) ...
template <typename T>
constexpr decltype(auto) scalar_at(const char *where, T &&element) {
  return detail::scalar_element<detail::kScalarLoad>(where, static_cast<T &&>(element));
}
// ... assigned to: `p[i] = x` ...
template <typename T>
constexpr decltype(auto) scalar_store_at(const char *where, T &&element) {
  return detail::scalar_element<detail::kScalarStore>(where, static_cast<T &&>(element));
}
// ... read and written: `p[i] += x`, `++*p` ...
template <typename T>
constexpr decltype(auto) scalar_update_at(const char *where, T &&element) {
  return detail::scalar_element<detail::kScalarUpdate>(where, static_cast<T &&>(element));
}
// ... or so in a loop that does not move it, kept in a register there.
template <typename T>
constexpr decltype(auto) scalar_register_update_at(const char *where, T &&element) {
  return detail::scalar_element<detail::kScalarRegisterUpdate>(where, static_cast<T &&>(element));
}

// A block of device code begins: it computes `ops` operators and `divides`
// divisions (or costly math calls), and entering it is a taken branch.
[[gnu::always_inline]] constexpr void scalar_work(unsigned ops, unsigned divides) {
  if (std::is_constant_evaluated()) return;
  if (CoreContext *c = detail::tls_core; c != nullptr) {
    const ScalarPrices &p = c->scalar_prices;
    c->scalar_cycles += p.block + ops * p.op + divides * p.divide;
  }
}

}  // namespace mlusim::bang
