// The prices the timing model charges on the current device, in cycles of its
// clock, from the device's figures (runtime/device_spec.h; sources and
// estimates in docs/devices.md and docs/cost_model.md).
#pragma once

#include "runtime/device_spec.h"
#include "runtime/timing/replay.h"

namespace mlusim::timing {

Prices prices_of(const DeviceSpec &spec);

}  // namespace mlusim::timing
