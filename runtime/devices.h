// The simulated device: presets of real MLU boards (figures from Cambricon's
// kernel driver, docs/devices.md) and the one in use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mlusim.h"

namespace mlusim {

using DeviceSpec = mlusimDeviceSpec_t;

int preset_count();
const DeviceSpec &preset(int index);
const DeviceSpec *find_preset(std::string_view name);
// "no preset named 'X'; the presets are MLU370-X4, ...".
std::string unknown_preset_message(std::string_view name);

// The device every new launch and every host-side policy sees. Starts as the
// MLUSIM_DEVICE preset (default MLU370-X4) at the MLUSIM_CLOCK_MHZ clock.
const DeviceSpec &current_device();
void set_current_device(const DeviceSpec &spec);
// The current device at another clock (0: its preset's rated clock); false,
// with a log line naming the valid range, for a clock no board runs at.
bool set_clock_mhz(double mhz);

// The first rule of a device that `spec` breaks, in words; null when it
// keeps them all.
const char *spec_problem(const DeviceSpec &spec);

// The cost model's estimated constants by name: the fields of a device spec
// no public figure gives (docs/cost_model.md, docs/devices.md), which
// mlusimSetConstant, mlusimGetConstant and MLUSIM_CONSTANTS set and read, so
// that a developer can ask "what if the GDRAM latency were 400 ns" and
// `mlusim calibrate --fit` can try values in mlu-ops' harness processes.

// "atomic_hold_ns, atomic_latency_ns, ...".
std::string constant_names();

// Sets constant `name` of `spec` to `value`; the problem in words ("" when
// it is set): an unknown name lists the valid ones, a value the device
// cannot take names the rule. `gdram_latency_ns` is also a scalar GDRAM
// load's wait (one figure: docs/cost_model.md).
std::string set_constant(DeviceSpec &spec, std::string_view name, double value);
std::optional<double> constant_of(const DeviceSpec &spec, std::string_view name);

// Sets "name=value,name=value"; the first problem, or "".
std::string set_constants(DeviceSpec &spec, std::string_view assignments);

// Which of a preset's figures that differ between boards no public source
// gives (docs/devices.md): the error bar varies them like the cost model's
// own estimates. A spec not named after a preset has none.
struct EstimatedFigures {
  bool cluster_gbps = false, half_float_macs = false;
};
EstimatedFigures estimated_figures(const DeviceSpec &spec);

// One figure of a preset as `mlusim devices` shows it, with its source.
struct Figure {
  std::string name, value;
  const char *source;
  bool estimate;
};
std::vector<Figure> figures_of(int preset);
// The sources' tags and what each stands for.
std::vector<std::pair<const char *, const char *>> figure_sources();

// Usable NRAM per core as mlu-ops' host code sees it (handle->nram_size).
inline size_t nram_usable(const DeviceSpec &spec) {
  return spec.nram_bytes - spec.stack_reserve_bytes;
}
inline size_t sram_usable(const DeviceSpec &spec) {
  return spec.sram_bytes > spec.stack_reserve_bytes ? spec.sram_bytes - spec.stack_reserve_bytes
                                                    : 0;
}
// MLU300 cores take vector operands of any start and size and transposes of
// any shape; the spec's alignments are then no rule (docs/devices.md).
inline bool any_operand_shape(const DeviceSpec &spec) { return spec.bang_arch >= 300; }
inline int core_count(const DeviceSpec &spec) { return spec.clusters * spec.cores_per_cluster; }

}  // namespace mlusim
