// What the host SDK (CNRT, CNDrv, CNDev) reports about the simulated device:
// its attributes, ISA version, memory bus and PCI address, all derived from
// the current device (runtime/devices.h). One device, ordinal 0.
#pragma once

#include <cstdint>

#include "runtime/devices.h"

namespace mlusim::sdk {

// The PCI address every query reports for the simulated device.
inline constexpr const char *kPciBusId = "0000:01:00.0";
inline constexpr int kPciDomain = 0, kPciBus = 1, kPciDevice = 0;

inline bool valid_ordinal(int64_t ordinal) { return ordinal == 0; }

// The memory clock the device's GDRAM bus width implies for its bandwidth
// (double data rate): bandwidth = bits / 8 * 2 * clock.
int64_t memory_clock_khz(const DeviceSpec &spec);
// The largest UNIONn (n a power of two up to 16) the device's clusters hold.
int max_union_clusters(const DeviceSpec &spec);

enum class Attribute { answered, not_supported, unknown };
// `code` is a CNRT attribute (cnrtDeviceAttr_t) or CNDrv attribute
// (CNdevice_attribute): both number them alike. Fills *value when answered,
// else logs why, naming `api`.
Attribute device_attribute(int code, int *value, const char *api);

}  // namespace mlusim::sdk
