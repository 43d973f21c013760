// mlusim-cncc: see driver.h.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "tools/cncc/driver.h"

namespace fs = std::filesystem;

// Installed: <prefix>/bin/mlusim-cncc next to <prefix>/include and the
// library directory. In the build tree: the source's include/ and the build's
// library, as CMake configured them.
static mlusim::cncc::Toolchain locate() {
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  const fs::path prefix = exe.parent_path().parent_path();
  mlusim::cncc::Toolchain tc;
  if (exe.parent_path().filename() == "bin" && fs::exists(prefix / "include" / "bang.h")) {
    tc.include_dir = (prefix / "include").string();
    tc.lib_dir = (prefix / MLUSIM_INSTALL_LIBDIR).string();
  } else {
    tc.include_dir = MLUSIM_SOURCE_INCLUDE_DIR;
    tc.lib_dir = MLUSIM_BUILD_LIB_DIR;
  }
  const char *cxx = std::getenv("MLUSIM_CXX");
  tc.cxx = cxx != nullptr && *cxx != '\0' ? cxx : MLUSIM_HOST_CXX;
  return tc;
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: mlusim-cncc prog.mlu [more.mlu|.cpp|.o] -o prog [--bang-mlu-arch=mtp_372]"
                 " [-c] [-I dir] [-D name] [-std=...] [-O2] [-x mlu] [-v]\n"
                 "       mlusim-cncc -E prog.mlu [-o prog.cpp]  (the translated C++ text)\n"
                 "       mlusim-cncc --launcher [--bang-mlu-arch=...] <c++ command>  (CMake)\n"
                 "       mlusim-cncc --version\n";
    return args.empty() ? 2 : 0;
  }
  const mlusim::cncc::Toolchain tc = locate();
  if (args[0] == "--version") {
    // The second word is the cncc version build scripts read (mlu-ops adds
    // -mllvm warning options from 4.1 on, which mlusim-cncc accepts): the cncc
    // of CNToolkit 3.7.2, whose CNRT 6.7 and CNDrv 2.7 mlusim's host API reports.
    std::cout << "mlusim-cncc v4.7.2 (mlusim " MLUSIM_VERSION ")\n"
              << "BANG C on the simulated MLU, compiled by " << tc.cxx << "\n";
    return 0;
  }
  if (args[0] == "--launcher")
    return mlusim::cncc::run_launcher(tc, std::vector<std::string>(args.begin() + 1, args.end()));
  return mlusim::cncc::run_cncc(tc, args);
}
