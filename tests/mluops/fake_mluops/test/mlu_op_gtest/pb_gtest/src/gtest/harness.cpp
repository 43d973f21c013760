// The fake mlu-ops harness: `mluop_gtest --cases_dir=<dir> --gtest_filter=<op>/*`
// runs every case file under <dir>/<op>/ with the operator's registered test,
// printing the lines mlu-ops' gtest prints, and what it read of its settings.
// As mlu-ops' does, it first looks
// for a device in shared mode in the driver's /proc files; without one it
// runs nothing and still says "ALL PASSED".
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cndev.h"
#include "cnrt.h"
#include "harness.h"
#include "op_register.h"

namespace fake_harness {

#define DECLARE_TEST(op) bool op(mluOpHandle_t, const Case &, Figures *);
FAKE_MLUOPS_OPERATORS(DECLARE_TEST)

struct Registered {
  std::string name;
  Test test;
};
#define REGISTER_TEST(op) {#op, op},
const std::vector<Registered> kTests = {FAKE_MLUOPS_OPERATORS(REGISTER_TEST)};

double Case::number(const std::string &name) const {
  auto it = fields.find(name);
  return it == fields.end() ? 0 : std::atof(it->second.c_str());
}

Case read_case(const std::string &path) {
  Case c{path, {}};
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream value(line.substr(colon + 1));
    value >> c.fields[line.substr(0, colon)];
  }
  return c;
}

// Device 0 in shared mode: '0' in the driver's exclusive_mode file.
bool device_in_shared_mode() {
  char bus_id[32] = {};
  if (std::getenv("FAKE_MLUOPS_NO_CARD") != nullptr ||
      cnrtDeviceGetPCIBusId(bus_id, sizeof(bus_id), 0) != cnrtSuccess)
    return false;
  const std::string path = "/proc/driver/cambricon/mlus/" + std::string(bus_id) + "/exclusive_mode";
  const int fd = open(path.c_str(), O_RDONLY);
  char mode = 0;
  const bool read_it = fd >= 0 && read(fd, &mode, 1) == 1;
  if (fd >= 0) close(fd);
  return read_it && mode == '0';
}

double bandwidth_gbps() {
  cndevDevice_t device;
  cndevDDRInfo_t ddr{};
  ddr.version = CNDEV_VERSION_5;
  if (cndevInit(0) != CNDEV_SUCCESS || cndevGetDeviceHandleByIndex(0, &device) != CNDEV_SUCCESS ||
      cndevGetDDRInfo(&ddr, device) != CNDEV_SUCCESS)
    return 0;
  return ddr.bandWidth + ddr.bandWidthDecimal / 10.0;
}

std::vector<std::string> case_files(const std::string &dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".prototxt")
      files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

bool run_case(const Registered &op, size_t index, const std::string &path, double gbps) {
  const std::string name = op.name + "/TestSuite.mluOp/" + std::to_string(index);
  std::printf("[ RUN      ] %s\n", name.c_str());
  mluOpHandle_t handle = nullptr;
  Figures figures;
  bool passed = mluOpCreate(&handle) == MLUOP_STATUS_SUCCESS && op.test(handle, read_case(path), &figures);
  if (handle != nullptr) mluOpDestroy(handle);
  const double io = figures.hardware_time_us > 0 && gbps > 0
                        ? figures.io_bytes / (figures.hardware_time_us * 1e3) / gbps : 0;
  std::printf("[MLU Hardware Time      ]: %g (us)\n[MLU IO Efficiency      ]: %g\n"
              "[MLU Compute Efficiency ]: 0\n", figures.hardware_time_us, io);
  if (!passed) std::printf("%s\n", figures.error.c_str());
  std::printf("%s %s\n", passed ? "[^      OK ]" : "[^  FAILED ]", path.c_str());
  std::printf("%s %s (0 ms)\n", passed ? "[       OK ]" : "[  FAILED  ]", name.c_str());
  return passed;
}

// What mlu-ops' harness reads besides the cases: the list of operators whose
// cases need real data (at a path relative to its build/test folder) and
// whether to fill on-chip memory before each case; and mlusim's launch time
// limit the run sets.
void print_settings() {
  const bool listed = std::ifstream("../../test/mlu_op_gtest/pb_gtest/gtest_config/test_list").good();
  const char *fill = std::getenv("MLUOP_GTEST_FILL_RAM");
  const char *watchdog = std::getenv("MLUSIM_WATCHDOG_SECONDS");
  std::printf("[test_list]: %s\n[fill_ram]: %s\n[watchdog]: %s\n", listed ? "found" : "missing",
              fill != nullptr ? fill : "random", watchdog != nullptr ? watchdog : "default");
}

}  // namespace fake_harness

int main(int argc, char **argv) {
  std::string cases_dir = "zoo", only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--cases_dir=", 0) == 0) cases_dir = a.substr(12);
    if (a.rfind("--gtest_filter=", 0) == 0) only = a.substr(15, a.find('/') - 15);
  }
  size_t cases = 0, failed = 0;
  fake_harness::print_settings();
  if (!fake_harness::device_in_shared_mode()) {
    std::printf("No suitable card\n");
  } else {
    const double gbps = fake_harness::bandwidth_gbps();
    for (const auto &op : fake_harness::kTests) {
      if (!only.empty() && op.name != only) continue;
      const auto files = fake_harness::case_files(cases_dir + "/" + op.name);
      for (size_t i = 0; i < files.size(); ++i, ++cases)
        failed += fake_harness::run_case(op, i, files[i], gbps) ? 0 : 1;
    }
  }
  std::printf("[ SUMMARY  ] Total %zu cases.\n", cases);
  if (failed == 0) std::printf("ALL PASSED.\n");
  else std::printf("%zu CASES FAILED\n", failed);
  return failed == 0 ? 0 : 1;
}
