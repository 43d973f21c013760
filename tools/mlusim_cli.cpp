// mlusim: the command-line face of the simulator.
//   mlusim devices              the device presets and their figures
//   mlusim demo [op]            runs every operator's (or one's) demo cases
//   mlusim trace [--launch L] <op|program> [out.svg|out.json] [-- args]
//                               traces one operator's demo or a program: the timeline
//                               picture of one launch, or Chrome JSON of every launch
//   mlusim report [--out dir] [op...]
//                               runs every network case, writes an efficiency chart
//                               per operator (<dir>/<op>.svg, default docs/charts)
//   mlusim calibrate [--fit] [--mluops <build>]...
//                               the published board cases against the model
//                               (tools/calibrate.h)
//   mlusim schedules [--seeds N] <program> [args] | demo [op]
//                               runs every launch under several core orders, fails on
//                               outputs that differ (runtime/core_order.h)
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "mlusim.h"
#include "runtime/devices.h"
#include "runtime/trace/svg.h"
#include "tools/calibrate.h"
#include "tools/demo.h"
#include "tools/progress.h"
#include "tools/report/efficiency_chart.h"

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

// A figure with the digits that matter at its size: 0.72, 41.5, 1460.
std::string figure(double x) {
  return fmt::format(fmt::runtime(x < 10 ? "{:.2f}" : x < 1000 ? "{:.1f}" : "{:.0f}"), x);
}

// "41.5% [33.0-47.2]": the efficiency and its error bar (docs/cost_model.md).
std::string percent_range(double efficiency, double low, double high) {
  if (efficiency < 0) return "-";
  return fmt::format("{}% [{}-{}]", figure(100 * efficiency), figure(100 * low),
                     figure(100 * high));
}

// "755.1 [411.0-1460]": the device time and its error bar.
std::string time_range(const mlusimReport_t &r) {
  return fmt::format("{} [{}-{}]", figure(r.device_time_us), figure(r.device_time_us_low),
                     figure(r.device_time_us_high));
}

const char *bottleneck(const mlusimReport_t &r) {
  if (r.io_efficiency < 0 && r.compute_efficiency < 0) return "-";
  return r.io_efficiency >= r.compute_efficiency ? "IO" : "compute";
}

mlusimDeviceSpec_t print_table_header() {
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  std::printf("simulated device: %s (%d x %d cores, %.1f GB/s)\n\n", spec.name, spec.clusters,
              spec.cores_per_cluster, spec.gdram_gbps);
  std::printf("%-28s %-34s %-6s %22s %19s %19s %-8s %-26s %10s\n", "operator", "case", "dtype",
              "device_us [range]", "io_eff", "comp_eff", "bound", "accuracy vs CPU", "host_ms");
  std::fflush(stdout);
  return spec;
}

void print_row(const Row &row) {
  const mlusimReport_t &r = row.report;
  std::printf("%-28s %-34s %-6s %22s %19s %19s %-8s %-26s %10.2f\n", row.op.c_str(),
              row.case_name.c_str(), row.dtype.c_str(), time_range(r).c_str(),
              percent_range(r.io_efficiency, r.io_efficiency_low, r.io_efficiency_high).c_str(),
              percent_range(r.compute_efficiency, r.compute_efficiency_low,
                            r.compute_efficiency_high)
                  .c_str(),
              bottleneck(r), (row.accuracy + (row.passed ? " ok" : " FAIL")).c_str(), row.host_ms);
  std::fflush(stdout);
}

int run_demo(const char *only) {
  std::vector<const mlusim::demo::Entry *> chosen;
  for (const auto &entry : mlusim::demo::entries())
    if (only == nullptr || std::strcmp(only, entry.op) == 0) chosen.push_back(&entry);
  if (chosen.empty()) {
    std::fprintf(stderr, "no demo named '%s'\n", only ? only : "");
    return 2;
  }
  print_table_header();
  mlusim::tools::Progress progress("demo", chosen.size(), "operators");
  int failures = 0;
  for (const mlusim::demo::Entry *entry : chosen) {
    const std::vector<Row> rows = entry->run();
    progress.clear();
    for (const Row &row : rows) {
      failures += row.passed ? 0 : 1;
      print_row(row);
    }
    progress.advance(entry->op);
  }
  return failures == 0 ? 0 : 1;
}

bool ends_with(const std::string &s, const char *suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool is_demo(const char *name) {
  for (const auto &entry : mlusim::demo::entries())
    if (std::strcmp(entry.op, name) == 0) return true;
  return false;
}

void print_written(const std::string &path, bool svg) {
  std::printf("\n%s written to %s: open it in %s\n", svg ? "timeline" : "trace", path.c_str(),
              svg ? "a web browser" : "https://ui.perfetto.dev or chrome://tracing");
}

// One operator's demo in this process, traced.
int trace_demo(const char *op, const std::string &path, bool svg, const char *launch) {
  mlusimTraceSelectLaunch(launch != nullptr ? launch : svg ? "longest" : "");
  mlusimTraceStart();
  int rc = run_demo(op);
  mlusimTraceStop();
  if (rc == 2) return rc;
  const cnrtRet_t written = svg ? mlusimTraceWriteSvg(path.c_str(), -1)
                                : mlusimTraceWriteChromeJson(path.c_str());
  if (written != cnrtSuccess) return 1;
  print_written(path, svg);
  return rc;
}

// A program built with mlusim-cncc, traced through the environment its
// runtime reads at start-up; it writes the file when it exits.
int trace_program(char **argv, const std::string &path, bool svg, const char *launch) {
  setenv(svg ? "MLUSIM_TRACE_SVG" : "MLUSIM_TRACE_JSON", path.c_str(), 1);
  if (launch != nullptr) setenv("MLUSIM_TRACE_LAUNCH", launch, 1);
  std::remove(path.c_str());
  pid_t child = 0;
  if (const int err = posix_spawnp(&child, argv[0], nullptr, nullptr, argv, environ); err != 0) {
    std::string ops;
    for (const auto &entry : mlusim::demo::entries()) ops += (ops.empty() ? "" : ", ") + std::string(entry.op);
    std::fprintf(stderr, "mlusim trace: '%s' is neither an operator (%s) nor a program that runs: %s\n",
                 argv[0], ops.c_str(), std::strerror(err));
    return 2;
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (access(path.c_str(), F_OK) != 0) {
    std::fprintf(stderr, "mlusim trace: %s wrote no trace (no launch, or not the one asked for; "
                         "is it built with mlusim-cncc?)\n", argv[0]);
    return 1;
  }
  print_written(path, svg);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// mlusim trace [--launch <n|longest|kernel>] <operator|program> [out.svg|out.json] [-- args]
int run_trace(int argc, char **argv) {
  int arg = 2;
  const char *launch = nullptr;
  if (arg + 1 < argc && std::strcmp(argv[arg], "--launch") == 0) {
    launch = argv[arg + 1];
    arg += 2;
  }
  if (arg >= argc) return -1;
  char *target = argv[arg++];
  std::string path = "mlusim_trace.json";
  if (arg < argc && std::strcmp(argv[arg], "--") != 0) path = argv[arg++];
  const bool svg = ends_with(path, ".svg");
  if (!svg && !ends_with(path, ".json")) {
    std::fprintf(stderr, "mlusim trace: %s: the output is .svg (timeline) or .json (Chrome "
                         "trace)\n", path.c_str());
    return 2;
  }
  if (is_demo(target)) return trace_demo(target, path, svg, launch);
  std::vector<char *> program{target};
  if (arg < argc && std::strcmp(argv[arg], "--") == 0) ++arg;
  for (; arg < argc; ++arg) program.push_back(argv[arg]);
  program.push_back(nullptr);
  return trace_program(program.data(), path, svg, launch);
}

mlusim::report::ChartCase chart_case(const Row &row) {
  const mlusimReport_t &r = row.report;
  return {row.case_name + " " + row.dtype,
          mlusim::svg::estimate(r.io_efficiency, r.io_efficiency_low, r.io_efficiency_high),
          mlusim::svg::estimate(r.compute_efficiency, r.compute_efficiency_low,
                                r.compute_efficiency_high),
          r.device_time_us, row.passed};
}

bool write_text(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// mlusim report [--out <dir>] [operator...]: every network case of each
// operator (or of those named), the table, and <dir>/<operator>.svg.
int run_report(int argc, char **argv) {
  std::filesystem::path dir = "docs/charts";
  std::vector<const mlusim::demo::NetworkEntry *> chosen;
  for (int arg = 2; arg < argc; ++arg) {
    if (std::strcmp(argv[arg], "--out") == 0 && arg + 1 < argc) {
      dir = argv[++arg];
      continue;
    }
    const auto &all = mlusim::demo::network_entries();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const auto &e) { return std::strcmp(e.op, argv[arg]) == 0; });
    if (it == all.end()) {
      std::fprintf(stderr, "mlusim report: no operator named '%s'; there are:", argv[arg]);
      for (const auto &e : all) std::fprintf(stderr, " %s", e.op);
      std::fprintf(stderr, "\n");
      return 2;
    }
    chosen.push_back(&*it);
  }
  if (chosen.empty())
    for (const auto &e : mlusim::demo::network_entries()) chosen.push_back(&e);
  std::vector<std::vector<mlusim::demo::Case>> cases;
  size_t total = 0;
  for (const auto *entry : chosen) total += cases.emplace_back(entry->run()).size();

  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const mlusimDeviceSpec_t spec = print_table_header();
  mlusim::tools::Progress progress("report", total, "cases");
  int failures = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    mlusim::report::Chart chart{chosen[i]->op, spec.name, {}};
    for (const mlusim::demo::Case &run : cases[i]) {
      const Row row = run();
      progress.clear();
      print_row(row);
      failures += row.passed ? 0 : 1;
      chart.cases.push_back(chart_case(row));
      progress.advance(row.op + " " + row.case_name + " " + row.dtype);
    }
    const std::filesystem::path path = dir / (std::string(chosen[i]->op) + ".svg");
    progress.clear();
    if (!write_text(path, mlusim::report::efficiency_chart_svg(chart))) {
      std::fprintf(stderr, "mlusim report: cannot write %s\n", path.c_str());
      return 1;
    }
    std::printf("chart written to %s\n", path.c_str());
  }
  return failures == 0 ? 0 : 1;
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
               "       mlusim trace [--launch <n|longest|kernel>] <operator> [out.svg|out.json]\n"
               "       mlusim trace [--launch <n|longest|kernel>] <program> [out.svg|out.json] "
               "[-- args...]\n"
               "           (MLUSIM_TRACE_FILTER narrows it to some cores)\n"
               "       mlusim report [--out <dir>] [operator...]   (default dir docs/charts)\n"
               "       mlusim calibrate [--fit] [--mluops <mlu-ops build dir>]...\n"
               "       mlusim schedules [--seeds N] <program> [args...]\n"
               "       mlusim schedules [--seeds N] demo [operator]\n");
  return 2;
}

// The commands that print device times with their error bars ask for them
// (MLUSIM_TIMING=bars, runtime/timing/timing_mode.h) unless the user chose.
void time_with_error_bars() { setenv("MLUSIM_TIMING", "bars", 0); }

// A timeline needs a timed launch.
bool timing_is_off() {
  const char *timing = std::getenv("MLUSIM_TIMING");
  if (timing == nullptr || std::strcmp(timing, "off") != 0) return false;
  std::fprintf(stderr, "mlusim trace: MLUSIM_TIMING=off times no launch, so there is no "
                       "timeline to draw; unset it, or set it to on or bars\n");
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  if (cmd == "devices") return print_devices();
  if (cmd == "demo" || cmd == "report" || cmd == "calibrate") time_with_error_bars();
  if (cmd == "demo") return run_demo(argc > 2 ? argv[2] : nullptr);
  if (cmd == "trace") {
    if (timing_is_off()) return 2;
    const int rc = run_trace(argc, argv);
    return rc < 0 ? usage() : rc;
  }
  if (cmd == "report") return run_report(argc, argv);
  if (cmd == "calibrate") return mlusim::tools::run_calibrate(argc, argv);
  if (cmd == "schedules") {
    const int rc = run_schedules(argc, argv);
    return rc < 0 ? usage() : rc;
  }
  return usage();
}
