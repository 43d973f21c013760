// mlusim-cncc: builds BANG C programs (.mlu with host main and kernels, .cpp,
// .o) into a host executable that runs on the simulated MLU. It reads cncc's
// command line; each .mlu goes through the host compiler's preprocessor, the
// translation (translate.h), and the host compiler. As a CMake compiler
// launcher (--launcher) it does the same for the .mlu sources of a target.
#pragma once

#include <string>
#include <vector>

namespace mlusim::cncc {

// Where bang.h and libmlusim are, and which host compiler to run.
struct Toolchain {
  std::string cxx;
  std::string include_dir;
  std::string lib_dir;
};

// The device a program is built for, from --bang-mlu-arch / --bang-arch.
struct Arch {
  std::string flag = "mtp_372";
  int bang_arch = 372;
  std::string preset = "MLU370-X4";
  bool chosen = false;  // named on the command line: the program runs on that device
};

// Maps "mtp_372", "compute_30", ... to an Arch; false for an arch with no
// simulated device.
bool parse_arch(const std::string &name, Arch *arch);
// From the --bang-mlu-arch= / --bang-arch= options (cncc builds each; mlusim
// builds the first it simulates and notes the others): false, with an error
// naming the simulated ones, when none is simulated.
bool choose_arch(const std::vector<std::string> &options, Arch *arch);

int run_cncc(const Toolchain &tc, const std::vector<std::string> &args);
int run_launcher(const Toolchain &tc, const std::vector<std::string> &args);

}  // namespace mlusim::cncc
