#include "runtime/device_constants.h"

#include <charconv>
#include <cmath>
#include <iterator>

#include <spdlog/fmt/fmt.h>

namespace mlusim {
namespace {

struct NamedConstant {
  const char *name;
  double DeviceSpec::*field;
  double DeviceSpec::*same_figure;  // a field that is the same estimate, or null
};

constexpr NamedConstant kConstants[] = {
    {"atomic_hold_ns", &DeviceSpec::atomic_hold_ns, nullptr},
    {"atomic_latency_ns", &DeviceSpec::atomic_latency_ns, nullptr},
    {"barrier_latency_cycles", &DeviceSpec::barrier_latency_cycles, nullptr},
    {"gdram_efficiency", &DeviceSpec::gdram_efficiency, nullptr},
    {"gdram_latency_ns", &DeviceSpec::gdram_latency_ns, &DeviceSpec::scalar_gdram_load_ns},
    {"gdram_segment_bytes", &DeviceSpec::gdram_segment_bytes, nullptr},
    {"gdram_write_extra", &DeviceSpec::gdram_write_extra, nullptr},
    {"launch_overhead_us", &DeviceSpec::launch_overhead_us, nullptr},
    {"onchip_bytes_per_cycle", &DeviceSpec::onchip_bytes_per_cycle, nullptr},
    {"onchip_latency_cycles", &DeviceSpec::onchip_latency_cycles, nullptr},
    {"scalar_block_cycles", &DeviceSpec::scalar_block_cycles, nullptr},
    {"scalar_divide_cycles", &DeviceSpec::scalar_divide_cycles, nullptr},
    {"scalar_gdram_store_cycles", &DeviceSpec::scalar_gdram_store_cycles, nullptr},
    {"scalar_onchip_cycles", &DeviceSpec::scalar_onchip_cycles, nullptr},
    {"scalar_op_cycles", &DeviceSpec::scalar_op_cycles, nullptr},
    {"scalar_sram_cycles", &DeviceSpec::scalar_sram_cycles, nullptr},
    {"sram_bytes_per_cycle", &DeviceSpec::sram_bytes_per_cycle, nullptr},
    {"vector_latency_cycles", &DeviceSpec::vector_latency_cycles, nullptr},
};

const NamedConstant *find(std::string_view name) {
  for (const NamedConstant &c : kConstants)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace

std::string constant_names() {
  std::string names;
  for (const NamedConstant &c : kConstants) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

std::string set_constant(DeviceSpec &spec, std::string_view name, double value) {
  const NamedConstant *c = find(name);
  if (c == nullptr)
    return fmt::format("'{}' is no estimated constant; the constants are {}", name,
                       constant_names());
  if (!std::isfinite(value) || value < 0)
    return fmt::format("{} must be a finite number, not negative (not {})", name, value);
  DeviceSpec changed = spec;
  changed.*(c->field) = value;
  if (c->same_figure != nullptr) changed.*(c->same_figure) = value;
  if (const char *problem = spec_problem(changed)) return fmt::format("{}={}: {}", name, value, problem);
  spec = changed;
  return "";
}

std::optional<double> constant_of(const DeviceSpec &spec, std::string_view name) {
  const NamedConstant *c = find(name);
  if (c == nullptr) return std::nullopt;
  return spec.*(c->field);
}

std::string set_constants(DeviceSpec &spec, std::string_view assignments) {
  while (!assignments.empty()) {
    const size_t comma = assignments.find(',');
    const std::string_view one = assignments.substr(0, comma);
    assignments = comma == std::string_view::npos ? "" : assignments.substr(comma + 1);
    const size_t eq = one.find('=');
    double value = 0;
    const char *end = one.data() + one.size();
    if (eq == std::string_view::npos ||
        std::from_chars(one.data() + eq + 1, end, value).ptr != end || eq + 1 == one.size())
      return fmt::format("'{}' is no name=value", one);
    if (std::string problem = set_constant(spec, one.substr(0, eq), value); !problem.empty())
      return problem;
  }
  return "";
}

}  // namespace mlusim
