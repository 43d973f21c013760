// The cost model's estimated constants by name: the fields of a device spec
// no public figure gives (docs/cost_model.md, docs/devices.md), which
// mlusimSetConstant, mlusimGetConstant and MLUSIM_CONSTANTS set and read, so
// that a developer can ask "what if the GDRAM latency were 400 ns" and
// `mlusim calibrate --fit` can try values in mlu-ops' harness processes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/devices.h"

namespace mlusim {

// "atomic_latency_ns, barrier_latency_cycles, ...".
std::string constant_names();

// Sets constant `name` of `spec` to `value`; the problem in words ("" when
// it is set): an unknown name lists the valid ones, a value the device
// cannot take names the rule. `gdram_latency_ns` is also a scalar GDRAM
// load's wait (one figure: docs/cost_model.md).
std::string set_constant(DeviceSpec &spec, std::string_view name, double value);
std::optional<double> constant_of(const DeviceSpec &spec, std::string_view name);

// Sets "name=value,name=value"; the first problem, or "".
std::string set_constants(DeviceSpec &spec, std::string_view assignments);

}  // namespace mlusim
