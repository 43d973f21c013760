// mlusim-mluops-device: what `mlusim-mluops` asks the simulated device through
// the host SDK, as mlu-ops' harness would ask a board.
//   mlusim-mluops-device current   "<preset> mtp_<ISA> <PCI bus id>" of the device
//                                  MLUSIM_DEVICE selects (an unknown name is an
//                                  error listing the presets)
//   mlusim-mluops-device archs     "mtp_<ISA> <preset>", one line per preset
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cn_api.h"
#include "cnrt.h"
#include "mlusim.h"

namespace {

// cncc's architecture name of the current device: mtp_ and its ISA version.
bool current_arch(std::string *arch) {
  int isa = 0;
  if (cnDeviceGetAttribute(&isa, CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION, 0) != CN_SUCCESS) return false;
  *arch = "mtp_" + std::to_string(isa);
  return true;
}

std::string preset_names() {
  std::string names;
  for (int i = 0; i < mlusimGetPresetCount(); ++i) {
    mlusimDeviceSpec_t spec;
    if (mlusimGetPreset(i, &spec) != cnrtSuccess) continue;
    names += (names.empty() ? "" : ", ") + std::string(spec.name);
  }
  return names;
}

int print_current() {
  const char *wanted = std::getenv("MLUSIM_DEVICE");
  if (wanted != nullptr && *wanted != '\0' && mlusimSetDevicePreset(wanted) != cnrtSuccess) {
    std::fprintf(stderr, "MLUSIM_DEVICE=%s is no simulated device; the presets are %s\n", wanted,
                 preset_names().c_str());
    return 2;
  }
  mlusimDeviceSpec_t spec;
  std::string arch;
  char bus_id[32] = {};
  if (mlusimGetDeviceSpec(&spec) != cnrtSuccess || !current_arch(&arch) ||
      cnrtDeviceGetPCIBusId(bus_id, sizeof(bus_id), 0) != cnrtSuccess) {
    std::fprintf(stderr, "the simulated device does not answer: %s\n", mlusimGetLastError());
    return 1;
  }
  std::printf("%s %s %s\n", spec.name, arch.c_str(), bus_id);
  return 0;
}

int print_archs() {
  for (int i = 0; i < mlusimGetPresetCount(); ++i) {
    mlusimDeviceSpec_t spec;
    std::string arch;
    if (mlusimGetPreset(i, &spec) != cnrtSuccess || mlusimSetDevicePreset(spec.name) != cnrtSuccess ||
        !current_arch(&arch))
      return 1;
    std::printf("%s %s\n", arch.c_str(), spec.name);
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "current") == 0) return print_current();
  if (argc == 2 && std::strcmp(argv[1], "archs") == 0) return print_archs();
  std::fprintf(stderr, "usage: %s current|archs\n", argv[0]);
  return 2;
}
