// The prices the timing model charges on the current device, in cycles of its
// clock, from the device's figures (runtime/devices.h; sources and
// estimates in docs/devices.md and docs/cost_model.md).
#pragma once

#include "runtime/devices.h"
#include "runtime/timing/replay.h"

namespace mlusim::timing {

// The model's prices, or every constant that is still an estimate set to half
// or double its value, whichever shortens (kLow) or lengthens (kHigh) a launch:
// the ends of a launch's error bar (docs/cost_model.md).
enum class Estimates { kAsFitted, kLow, kHigh };

Prices prices_of(const DeviceSpec &spec, Estimates estimates = Estimates::kAsFitted);
double launch_overhead_us(const DeviceSpec &spec, Estimates estimates);
// What scalar code costs, at the fitted prices: the run charges it, and the
// replays scale it (Prices::scalar_scale).
ScalarPrices scalar_prices_of(const DeviceSpec &spec);

}  // namespace mlusim::timing
