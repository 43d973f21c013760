// Simulated GDRAM: host memory whose every allocation the runtime knows, so a
// pointer can be told apart from host memory and checked against its bounds.
// New allocations hold the fill pattern (NaN bytes by default, see
// runtime/onchip_memory.h), not zero pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cnrt.h"
#include "mlusim/bang/detail/gdram_table.h"

namespace mlusim {

cnrtRet_t gdram_alloc(void **ptr, size_t bytes);
cnrtRet_t gdram_free(void *ptr);
// The allocations live when a launch starts, held for as long as it runs:
// while a lease lives, cnrtFree refuses every allocation in its snapshot
// (another host thread may free while this one's launch runs).
// The launch now running (runtime/launch.h numbers them), named in messages
// about freed memory.
void gdram_note_launch(uint64_t serial);

class GdramLease {
 public:
  GdramLease();
  ~GdramLease();
  GdramLease(const GdramLease &) = delete;
  GdramLease &operator=(const GdramLease &) = delete;
  const GdramSnapshot &snapshot() const { return snapshot_; }

 private:
  GdramSnapshot snapshot_;
  uint64_t newest_id_;  // allocation ids only grow: the snapshot holds those up to this
};

// True when [p, p+bytes) lies inside one live allocation.
bool gdram_contains(const void *p, size_t bytes);
// The live allocation holding p, if any (pointer attributes).
bool gdram_find_live(const void *p, GdramRange *range);
// Bytes held by live allocations.
size_t gdram_live_bytes();
// Frees every live allocation (a device reset); cnrtErrorIllegalState, freeing
// nothing, while a running launch holds any of them.
cnrtRet_t gdram_free_all();

// Guarded allocations (the default; MLUSIM_GDRAM_GUARD=0 turns it off): each
// in its own mapping that ends on an inaccessible guard, quarantined when freed.
void gdram_set_guard(bool on);
bool gdram_guard();
// If addr lies in or around a guarded allocation, live or freed, says which and
// returns true.
bool gdram_describe_address(uintptr_t addr, std::string *what);

}  // namespace mlusim
