// The device's on-chip memory as kernels see it: each core's NRAM and WRAM and
// each cluster's SRAM, kept across launches like the real thing, but laid out
// so that a raw access the device would not allow faults instead of landing
// in a neighbour:
//  - every block sits in its own 64 MiB of address space, the rest of which is
//    inaccessible, so an index past one core's NRAM never reaches another's;
//  - the part of NRAM and SRAM the device reserves for the stack is inaccessible;
//  - so is the part beyond the buffers kernels have declared so far (opened
//    page by page as declarations grow, never closed again);
//  - in ASan builds the gaps between two declared buffers are poisoned.
// Before every launch, what the previous one touched is refilled with the
// fill pattern (NaN bytes by default), so that reading memory a kernel never
// wrote shows up instead of passing with stale data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"
#include "runtime/devices.h"

namespace mlusim {

// The byte that fills fresh on-chip memory and new GDRAM allocations, or -1
// for none. Starts from MLUSIM_FILL ("nan", the default; "zero"; "off"; a byte
// such as "0xAB").
int fill_byte();
// Parses a MLUSIM_FILL value; false (and no change) if it is none.
bool set_fill(const char *spec);

class OnchipMemory {
 public:
  // The current device's on-chip memory, remapped if the device changed, with
  // what the previous launch could have touched refilled. Launch lock held.
  static OnchipMemory &prepare(const DeviceSpec &spec);

  std::byte *nram(int core) const;
  std::byte *wram(int core) const;
  std::byte *sram(int cluster) const;
  // What stands for the NRAM or WRAM a cluster's memory core does not have: a
  // scratch of the same size, zeroed before every launch, that only the
  // memory core's own skipped instructions and scalar code touch (docs/bang_c.md).
  std::byte *memory_core_scratch(Space space, int cluster) const;
  // A launch ran on `cores`: the next one refills what they touched.
  void keep_touched(const std::vector<CoreContext> &cores) const;
};

// Where a kernel's next on-chip buffer of `bytes` starts after `declared`
// bytes of declarations, in a space of `capacity` usable bytes.
size_t onchip_place(size_t declared, size_t bytes, size_t capacity);
// The kernel on core c declared [start, start + bytes) of `space`: make it accessible.
void onchip_declared(const CoreContext &c, Space space, size_t start, size_t bytes);

// Scalar code stored at addr outside its core's own memory: if that is
// another core's on-chip memory, the next launch refills all of it.
void onchip_stray_store(uintptr_t addr);

// Where every core's and cluster's on-chip memory lies in the host's address space.
AddressRange onchip_address_space();

// If addr lies in the on-chip memory's address space, says what is there
// ("cluster 0 core 1's NRAM reserve +0x10 ...") and returns true.
bool onchip_describe(uintptr_t addr, std::string *what);

}  // namespace mlusim
