// Scalar kernel code outside the fast paths of include/mlusim/bang/detail/scalar_code.h:
// which memory an access lies in, what it costs, the runs it makes for the
// race check; and the async hazard of any scalar access.
#include <algorithm>

#include "mlusim/bang/detail/scalar_code.h"
#include "runtime/onchip_memory.h"

namespace mlusim::detail {
namespace {

enum class Place { kSram, kWram, kGdram, kElsewhere };

// The GDRAM allocation holding `a`, or the stretch between two allocations
// (no device memory: the stack, the host's own data) that does.
AddressRange classify(const GdramSnapshot &allocations, uintptr_t a, bool *gdram) {
  const auto after = std::upper_bound(allocations.begin(), allocations.end(), a,
                                      [](uintptr_t x, const GdramRange &r) { return x < r.begin; });
  const uintptr_t gap_end = after == allocations.end() ? UINTPTR_MAX : after->begin;
  if (after != allocations.begin()) {
    const GdramRange &before = *std::prev(after);
    *gdram = a < before.end;
    if (*gdram) return AddressRange{before.begin, before.end - before.begin};
    return AddressRange{before.end, gap_end - before.end};
  }
  *gdram = false;
  return AddressRange{0, gap_end};
}

// The part of `range` on a's side of `hole` (a lies in range, not in hole).
AddressRange without(AddressRange range, const AddressRange &hole, uintptr_t a) {
  const uintptr_t end = range.lo + range.bytes;
  if (hole.lo > a && hole.lo < end) return AddressRange{range.lo, hole.lo - range.lo};
  const uintptr_t hole_end = hole.lo + hole.bytes;
  if (hole_end <= a && hole_end > range.lo) return AddressRange{hole_end, end - hole_end};
  return range;
}

// Where `a` lies. The stretch it finds without device memory (the stack, the
// host's data) is remembered without the on-chip memory's address space, so
// that an access there is inline (scalar_touch) and never another core's
// on-chip memory.
Place place_of(CoreContext &c, uintptr_t a) {
  if (a - reinterpret_cast<uintptr_t>(c.sram) < c.sram_capacity) return Place::kSram;
  if (a - reinterpret_cast<uintptr_t>(c.wram) < c.wram_capacity) return Place::kWram;
  if (c.last_elsewhere.holds(a)) return Place::kElsewhere;
  AddressRange *const end = std::end(c.recent_gdram);
  AddressRange *hit = std::find_if(std::begin(c.recent_gdram), end,
                                   [a](const AddressRange &r) { return r.holds(a); });
  AddressRange range;
  if (hit != end) {
    range = *hit;
  } else {
    bool gdram = false;
    range = classify(*c.gdram, a, &gdram);
    if (!gdram) {
      const AddressRange onchip = onchip_address_space();
      if (!onchip.holds(a)) c.last_elsewhere = without(range, onchip, a);
      return Place::kElsewhere;
    }
    hit = end - 1;  // the oldest makes room
  }
  // Newest first: the inline check looks at the first two.
  std::move_backward(std::begin(c.recent_gdram), hit, hit + 1);
  c.recent_gdram[0] = range;
  return Place::kGdram;
}

// The next launch refills what scalar code stored (runtime/onchip_memory.h).
void note_store(CoreContext &c, Space space, const std::byte *base, uintptr_t a, size_t bytes) {
  c.touched[static_cast<int>(space)].note(a - reinterpret_cast<uintptr_t>(base), bytes);
}

// What a run of stores stored: its value at each of its elements (their
// places in 8 bytes repeat after 8 of them at most), if every store stored it.
WrittenBytes written_by(const ScalarRun &r) {
  if (!r.write || !r.same) return {};
  WrittenBytes written = WrittenBytes::element(r.range.lo, &r.value, r.range.bytes);
  for (size_t k = 1; k < std::min<size_t>(r.range.count, 8); ++k)
    written.add(WrittenBytes::element(r.range.lo + k * r.range.stride, &r.value, r.range.bytes));
  return written;
}

void log_run(CoreContext &c, const ScalarRun &r) {
  append_shared_access(c, r.space, r.range, r.write, false, r.op, r.where, r.seq, written_by(r));
}

}  // namespace

void scalar_elsewhere(CoreContext &c, const char *op, const char *where, uintptr_t address,
                      size_t bytes, unsigned access, uint64_t bits) {
  const ScalarPrices &price = c.scalar_prices;
  const uint64_t times = charged_accesses(access);
  const bool store = (access & kScalarStore) != 0;
  switch (place_of(c, address)) {
    case Place::kSram:
      if (store) note_store(c, Space::kSram, c.sram, address, bytes);
      note_far_access(c, address, bytes, access);
      c.scalar_cycles += times * price.sram;
      // The cluster's cores and memory core share it in UNION launches; a
      // BLOCK task has it to itself.
      if (c.launch->is_union) log_scalar(c, op, where, address, bytes, access, bits, Space::kSram);
      return;
    case Place::kGdram:
      charge_scalar_gdram(c, address, bytes, access);
      log_scalar(c, op, where, address, bytes, access, bits, Space::kGdram);
      return;
    case Place::kWram:
      if (store) note_store(c, Space::kWram, c.wram, address, bytes);
      note_far_access(c, address, bytes, access);
      c.scalar_cycles += times * price.onchip;
      return;
    case Place::kElsewhere:  // the stack: the device keeps it in NRAM
      // Or, through a pointer another core made, that core's on-chip memory.
      if (store) onchip_stray_store(address);
      c.scalar_cycles += times * price.onchip;
      return;
  }
}

void keep_far_scalar(CoreContext &c) {
  const HeapHeld held(c);
  c.steps.keep_far(FarScalar{c.steps.size() - 1, c.scalar_far_reads, c.scalar_far_writes});
  c.scalar_far_reads = c.scalar_far_writes = AddressSpan{};
}

void scalar_run_break(CoreContext &c, const char *op, const char *where, uintptr_t address,
                      size_t bytes, unsigned access, Space space, uint64_t bits) {
  const bool write = (access & kScalarStore) != 0;
  const char *site = where != nullptr ? where : op;
  ScalarRun *slot = std::find_if(std::begin(c.scalar_runs), std::end(c.scalar_runs),
                                 [site](const ScalarRun &r) { return r.site == site; });
  if (slot == std::end(c.scalar_runs)) {  // a site of its own: the slots take turns
    slot = &c.scalar_runs[c.next_scalar_run];
    c.next_scalar_run = (c.next_scalar_run + 1) % kScalarRuns;
  }
  if (slot->site != nullptr) log_run(c, *slot);
  *slot = ScalarRun{site, where, op, Segments{address, bytes, bytes, 1},
                    c.issued + 1, bits, space, write, access == kScalarStoreOf};
}

void flush_scalar_runs(CoreContext &c) {
  for (ScalarRun &r : c.scalar_runs) {
    if (r.site != nullptr && c.access_log != nullptr) log_run(c, r);
    r.site = nullptr;
  }
}

void end_run_of_other_kind(CoreContext &c, const char *site, bool write) {
  for (ScalarRun &r : c.scalar_runs) {
    if (r.site != site || r.write == write) continue;
    if (c.access_log != nullptr) log_run(c, r);
    r.site = nullptr;
  }
}

void scalar_in_flight(CoreContext &c, const char *where, uintptr_t address, size_t bytes,
                      bool write) {
  const char *running = c.where;
  c.where = where;
  hazard_check(c, kScalarCodeOp, Segments{address, bytes, bytes, 1}, write, kScalarCode);
  c.where = running;
}

}  // namespace mlusim::detail
