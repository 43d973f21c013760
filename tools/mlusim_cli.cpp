// mlusim: the command-line face of the simulator.
//   mlusim devices              the device presets and their figures
//   mlusim demo [op]            runs every operator's (or one's) demo cases
//   mlusim trace <op> [file]    runs one operator's demo with tracing, writes Chrome JSON
//   mlusim schedules [--seeds N] <program> [args] | demo [op]
//                               runs every launch under several core orders, fails on
//                               outputs that differ (runtime/schedule.h)
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "mlusim.h"
#include "runtime/device_spec.h"
#include "tools/demo.h"

namespace mlusim::demo {

namespace {
std::vector<Entry> &registry() {
  static std::vector<Entry> r;
  return r;
}
}  // namespace

Registrar::Registrar(const char *op, CaseRunner runner) { registry().push_back({op, runner}); }
const std::vector<Entry> &entries() { return registry(); }

}  // namespace mlusim::demo

namespace {

using mlusim::demo::Row;

// Every preset with every figure, where it comes from, and which are estimates.
int print_devices() {
  for (int i = 0; i < mlusim::preset_count(); ++i) {
    const mlusim::DeviceSpec &s = mlusim::preset(i);
    std::printf("%s%s\n", s.name, i == 0 ? " (the default)" : "");
    for (const mlusim::Figure &f : mlusim::figures_of(i))
      std::printf("  %-36s %-46s [%s]\n", f.name.c_str(), f.value.c_str(), f.source);
    std::printf("\n");
  }
  std::printf("Sources:\n");
  for (const auto &[tag, meaning] : mlusim::figure_sources())
    std::printf("  [%s] %s\n", tag, meaning);
  std::printf("MLUSIM_DEVICE=<name> picks a preset, MLUSIM_CLOCK_MHZ=<MHz> sets its clock.\n");
  return 0;
}

std::string percent(double efficiency) {
  if (efficiency < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f%%", 100 * efficiency);
  return buf;
}

const char *bottleneck(const mlusimReport_t &r) {
  if (r.io_efficiency < 0 && r.compute_efficiency < 0) return "-";
  return r.io_efficiency >= r.compute_efficiency ? "IO" : "compute";
}

int run_demo(const char *only) {
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  std::printf("simulated device: %s (%d x %d cores, %.1f GB/s)\n\n", spec.name, spec.clusters,
              spec.cores_per_cluster, spec.gdram_gbps);
  std::printf("%-28s %-34s %-6s %12s %8s %8s %-8s %-26s %10s\n", "operator", "case", "dtype",
              "device_us", "io_eff", "comp_eff", "bound", "accuracy vs CPU", "host_ms");
  int failures = 0, rows = 0;
  for (const auto &entry : mlusim::demo::entries()) {
    if (only != nullptr && std::strcmp(only, entry.op) != 0) continue;
    for (const Row &row : entry.runner()) {
      ++rows;
      failures += row.passed ? 0 : 1;
      std::printf("%-28s %-34s %-6s %12.2f %8s %8s %-8s %-26s %10.2f\n", row.op.c_str(),
                  row.case_name.c_str(), row.dtype.c_str(), row.report.device_time_us,
                  percent(row.report.io_efficiency).c_str(),
                  percent(row.report.compute_efficiency).c_str(), bottleneck(row.report),
                  (row.accuracy + (row.passed ? " ok" : " FAIL")).c_str(), row.host_ms);
    }
  }
  if (rows == 0) {
    std::fprintf(stderr, "no demo named '%s'\n", only ? only : "");
    return 2;
  }
  return failures == 0 ? 0 : 1;
}

int run_trace(const char *op, const char *path) {
  mlusimTraceStart();
  int rc = run_demo(op);
  mlusimTraceStop();
  if (rc == 2) return rc;
  if (mlusimTraceWriteChromeJson(path) != cnrtSuccess) return 1;
  std::printf("\ntrace written to %s: open it in https://ui.perfetto.dev or chrome://tracing\n",
              path);
  return rc;
}

// Sets MLUSIM_SCHEDULES to ordered, reverse and `seeds` random orders, then
// runs the demo in this process or execs the program (its exit status is ours).
int run_schedules(int argc, char **argv) {
  int arg = 2, seeds = 2;
  if (arg + 1 < argc && std::strcmp(argv[arg], "--seeds") == 0) {
    seeds = std::atoi(argv[arg + 1]);
    arg += 2;
  }
  if (arg >= argc || seeds < 0) return -1;
  std::string list = "ordered,reverse";
  std::random_device entropy;
  for (int i = 0; i < seeds; ++i) list += ",random:" + std::to_string(entropy());
  setenv("MLUSIM_SCHEDULES", list.c_str(), 1);
  std::fprintf(stderr,
               "mlusim: every launch runs under %s from the same inputs; a launch whose outputs "
               "differ fails naming two of them (MLUSIM_SCHEDULE=<one> reproduces it)\n",
               list.c_str());
  if (std::strcmp(argv[arg], "demo") == 0) return run_demo(arg + 1 < argc ? argv[arg + 1] : nullptr);
  execvp(argv[arg], argv + arg);
  std::fprintf(stderr, "mlusim schedules: cannot run %s: %s\n", argv[arg], std::strerror(errno));
  return 127;
}

int usage() {
  std::fprintf(stderr,
               "usage: mlusim devices\n"
               "       mlusim demo [operator]\n"
               "       mlusim trace <operator> [out.json]   (MLUSIM_TRACE_FILTER narrows it)\n"
               "       mlusim schedules [--seeds N] <program> [args...]\n"
               "       mlusim schedules [--seeds N] demo [operator]\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  if (cmd == "devices") return print_devices();
  if (cmd == "demo") return run_demo(argc > 2 ? argv[2] : nullptr);
  if (cmd == "trace" && argc > 2) return run_trace(argv[2], argc > 3 ? argv[3] : "mlusim_trace.json");
  if (cmd == "schedules") {
    const int rc = run_schedules(argc, argv);
    return rc < 0 ? usage() : rc;
  }
  return usage();
}
