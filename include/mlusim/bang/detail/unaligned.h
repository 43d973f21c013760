// Operands at any start. MLU300 cores take a vector operand at any byte of
// NRAM (docs/devices.md), but the simulator computes on C++ objects of the
// element type, which must lie on their alignment. Every intrinsic computes
// through on_aligned(): on the operands themselves when each starts on its
// element's alignment (a few instructions: an OR of the addresses and one
// branch), otherwise on aligned copies (runtime/bang/unaligned.cpp), so no
// element is ever read or written through a misaligned pointer.
//
// Copies keep what overlapping operands see: operands that share bytes and lie
// an element apart (in-place, or shifted by whole elements, as aligned
// operands always are) are copied as one block, so the computation sees them
// overlap exactly as at aligned addresses. Operands that share bytes at an
// offset no aligned layout has (a float at +1 and one at +2) are copied apart:
// the computation reads every source as it was before the instruction.
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "mlusim/bang/detail/core.h"

namespace mlusim::detail {

// One operand of a computation: `bytes` from p, elements of type E; a const
// E is only read. An operand of 0 bytes (a missing source: null) is handed
// on as it is.
template <typename E>
struct Operand {
  E *p;
  size_t bytes;
};
// Clang 16 deduces no aggregate's arguments by itself.
template <typename E>
Operand(E *, size_t) -> Operand<E>;

// An operand as the copies see it.
struct StagedOperand {
  uintptr_t at;
  size_t bytes, align;
  bool written;
  uintptr_t copy;    // where the computation finds it (set by Staging)
  size_t group = 0;  // the first operand it shares bytes with (set by Staging)
};

// Aligned copies of operands, made by the constructor; write_back() copies the
// written ones back.
class Staging {
 public:
  Staging(const CoreContext &c, StagedOperand *operands, size_t count);
  ~Staging();
  Staging(const Staging &) = delete;
  Staging &operator=(const Staging &) = delete;
  void write_back() const;

 private:
  HeapHeld held_;  // first: released last, after the copies are freed
  StagedOperand *operands_;
  size_t count_;
  std::byte *copies_ = nullptr;
};

// The copies' addresses as the operands' pointer types.
template <typename... E, size_t... I>
std::tuple<E *...> copies_of(const StagedOperand *staged, std::index_sequence<I...>) {
  return {reinterpret_cast<E *>(staged[I].copy)...};
}

// The cold half of on_aligned(): out of line, but not marked cold, which
// would compile compute for size (no vectorised loops).
template <typename F, typename... E>
[[gnu::noinline]] auto on_copies(F compute, Operand<E>... operands) {
  static_assert(((alignof(E) <= alignof(uint64_t)) && ...), "an element wider than 8 bytes");
  StagedOperand staged[] = {StagedOperand{reinterpret_cast<uintptr_t>(operands.p), operands.bytes,
                                          alignof(E), !std::is_const_v<E>, 0}...};
  const Staging staging(this_core(), staged, sizeof...(E));
  const auto copies = copies_of<E...>(staged, std::index_sequence_for<E...>{});
  if constexpr (std::is_void_v<decltype(std::apply(compute, copies))>) {
    std::apply(compute, copies);
    staging.write_back();
  } else {
    auto result = std::apply(compute, copies);
    staging.write_back();
    return result;
  }
}

// compute(p...) on the operands, or on aligned copies of them when one starts
// off its element's alignment; returns what compute returns. compute goes by
// value: a lambda capturing by value keeps the hot path from taking the
// address of anything.
template <typename F, typename... E>
decltype(auto) on_aligned(F compute, Operand<E>... operands) {
  if (((reinterpret_cast<uintptr_t>(operands.p) & (alignof(E) - 1)) | ...) == 0) [[likely]]
    return compute(operands.p...);
  return on_copies(compute, operands...);
}

}  // namespace mlusim::detail
