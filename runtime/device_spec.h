// The simulated device: presets of the real MLU generations and the one in use.
#pragma once

#include <string_view>

#include "mlusim.h"

namespace mlusim {

using DeviceSpec = mlusimDeviceSpec_t;

int preset_count();
const DeviceSpec &preset(int index);
const DeviceSpec *find_preset(std::string_view name);

// The device every new launch and every host-side policy sees. Starts as the
// MLUSIM_DEVICE preset (default MLU370-X4).
const DeviceSpec &current_device();
void set_current_device(const DeviceSpec &spec);

// Usable NRAM per core as mlu-ops' host code sees it (handle->nram_size).
inline size_t nram_usable(const DeviceSpec &spec) {
  return spec.nram_bytes - spec.stack_reserve_bytes;
}
inline size_t sram_usable(const DeviceSpec &spec) {
  return spec.sram_bytes > spec.stack_reserve_bytes ? spec.sram_bytes - spec.stack_reserve_bytes
                                                    : 0;
}
inline int core_count(const DeviceSpec &spec) { return spec.clusters * spec.cores_per_cluster; }

}  // namespace mlusim
