#include "harness/calibration.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <spdlog/fmt/fmt.h>

#include "mlusim.h"

namespace mlusim::calibration {
namespace {

constexpr const char *kPr242 =
    "mlu-ops PR #242, gtest table on MLU270 (features [B,C,M], indices and weights [B,N,3])";
// What the MLU270 cases need: the operator PR #242 timed, its host policy and
// its kernel. Later kernels (v1.5.2's) compare integer indices with
// __bang_not, which MLU200 cores lack (the guide: MLU300 and later), so they
// do not build for mtp_270; PR #242's converts the indices to float first.
// mlusim-mluops builds mlu-ops v1.5.2 to v1.11.1 only, so the build is
// v1.5.2's tree with PR #242's policy function, kernel and the two conversion
// helpers it added to kernels/utils/common.h in place of v1.5.2's forward
// (docs/cost_model.md, "Where the sources stand"). Any mtp_270 build holding
// three_interpolate_forward is such a graft; without one the cases are
// skipped with this note.
constexpr const char *kPr242Kernel =
    "an mlu-ops build for mtp_270 of PR #242's three_interpolate_forward (commit 90e36bb9: its "
    "host policy and kernel grafted into v1.5.2's tree): v1.5.2's own kernel compares integers "
    "with __bang_not, which MLU200 lacks";
constexpr const char *kPr659 =
    "mlu-ops PR #659, gtest table: the 11-us row, the in-tree case_1 (workspace 64768 B); its "
    "IO efficiency is the case's bytes at 11 us on 2764.8 GB/s, an MLU590-M9's";
constexpr const char *kPr1094 =
    "mlu-ops PR #1094, gtest log on MLU590-H8: abs, the in-tree case_0 (BLOCK, 10 tasks), "
    "whole microseconds";
constexpr const char *kPr461 =
    "mlu-ops PR #461 (also #523, #524), performance table on MLU590-M9, whole microseconds: "
    "the operator's first kernel, which later commits rename and re-type but do not rework";
constexpr const char *kLabX =
    "the course's lab 5.2 (exp_5_2_matmul_opt) reference run on MLU370-X8 and X4 at 1000 MHz, "
    "M=128 N=256 K=128 (github.com/Yuichi1001/2024-AICS-EXP at 689d063, README)";
constexpr const char *kLabM8 =
    "the same lab run on MLU370-M8 at 1300 MHz with K=256 (github.com/kolp323/"
    "Cambricon-MLU-Kernel-Labs at 193ee45, matmul_optimization/README.md)";

// One tensor of a case file as mlu-ops' harness reads it, with its data
// (random_data(), or "" for an output).
std::string case_tensor(const char *kind, const char *id, const std::vector<int> &dims,
                        const char *type, const std::string &data) {
  std::string text = fmt::format("{} {{\n  id: \"{}\"\n  shape: {{\n", kind, id);
  for (int d : dims) text += fmt::format("    dims: {}\n", d);
  return text + fmt::format("  }}\n  layout: LAYOUT_ARRAY\n  dtype: {}\n{}}}\n", type, data);
}

// Uniform random data in [low, high], as mlu-ops' generator writes it.
std::string random_data(double low, double high, int seed = 23) {
  return fmt::format("  random_data: {{\n    seed: {}\n    upper_bound: {}\n    lower_bound: {}\n"
                     "    distribution: UNIFORM\n  }}\n",
                     seed, high, low);
}

// three_interpolate_forward's case: features [b, c, m], indices and weights
// [b, n, 3], output [b, c, n], random data.
std::string three_interpolate_case(int b, int c, int m, int n, const char *dtype) {
  return "op_name: \"three_interpolate_forward\"\n" +
         case_tensor("input", "input", {b, c, m}, dtype, random_data(0, 100)) +
         case_tensor("input", "idx", {b, n, 3}, "DTYPE_INT32", random_data(0, m - 1)) +
         case_tensor("input", "weight", {b, n, 3}, dtype, random_data(0, 1)) +
         case_tensor("output", "output", {b, c, n}, dtype, "") +
         "test_param: {\n  error_func: DIFF1\n  error_func: DIFF2\n  error_threshold: 0.003\n"
         "  error_threshold: 0.003\n  baseline_device: CPU\n}\n";
}

// moe_dispatch_backward_data's case, float: gates, indices and locations
// [samples], dispatch [experts * capacity, hidden], grad_input [samples,
// hidden]. Every sample is routed (an expert in [0, experts), a location in
// [0, capacity)), as the published efficiencies say: a sample routed nowhere
// moves no data.
std::string moe_backward_data_case(int samples, int hidden, int capacity, int experts) {
  return "op_name: \"moe_dispatch_backward_data\"\n" +
         case_tensor("input", "gates", {samples}, "DTYPE_FLOAT", random_data(0, 1, 21)) +
         case_tensor("input", "indices", {samples}, "DTYPE_INT32",
                     random_data(0, experts - 1, 23)) +
         case_tensor("input", "locations", {samples}, "DTYPE_INT32",
                     random_data(0, capacity - 1, 24)) +
         case_tensor("input", "dispatch", {experts * capacity, hidden}, "DTYPE_FLOAT",
                     random_data(-1, 1, 25)) +
         case_tensor("output", "grad_input", {samples, hidden}, "DTYPE_FLOAT", "") +
         fmt::format("moe_dispatch_backward_data_param: {{\n  samples: {}\n  capacity: {}\n"
                     "  hidden: {}\n  num_experts: {}\n}}\n",
                     samples, capacity, hidden, experts) +
         "test_param: {\n  error_func: DIFF3\n  error_threshold: 0.0\n"
         "  baseline_device: CPU\n}\n";
}

// What the fitted cases set (the labels their `fits` name), in the order the
// fit takes them: a generation's GDRAM latency is in every other case's time
// on its boards (the MLU500's in abs case_0's, which sets its launch
// overhead), the MLU200 launch overhead in the bandwidth-bound case's.
constexpr const char *kGdramLatency = "GDRAM latency, MLU200 and MLU300";
constexpr const char *kGdramLatencyMlu500 = "GDRAM latency, MLU500";
constexpr const char *kScalarOnchip = "scalar on-chip access";
constexpr const char *kLaunchMlu500 = "launch overhead, MLU500";
constexpr const char *kLaunchMlu200 = "launch overhead, MLU200";
constexpr const char *kKernelLoad = "a kernel's first launch: loading it";
constexpr const char *kSustainedShare = "GDRAM sustained share";
constexpr const char *kHeldOut = "";

std::vector<FitConstant> all_fit_constants() {
  return {{kGdramLatency, "gdram_latency_ns", 200, 499, 100, 1000, 0},
          {kGdramLatencyMlu500, "gdram_latency_ns", 500, 999, 100, 2000, 0},
          {kScalarOnchip, "scalar_onchip_cycles", 200, 999, 0, 20, 1},
          {kLaunchMlu500, "launch_overhead_us", 500, 999, 0, 20, 0},
          {kLaunchMlu200, "launch_overhead_us", 200, 299, 0, 1000, 0},
          {kKernelLoad, "kernel_load_us", 200, 999, 0, 200, 0},
          {kSustainedShare, "gdram_efficiency", 200, 999, 0.2, 1, 0}};
}

Case program(std::string name, std::string board, double clock_mhz, std::string unit,
             double low, double high, std::string citation, std::string fits,
             std::function<double()> run) {
  return Case{std::move(name), std::move(board), clock_mhz, std::move(unit), low, high,
              std::move(citation), std::move(fits), Kind::kProgram, std::move(run), "", "", "", "",
              ""};
}

Case mluops(std::string name, std::string board, std::string arch, double published,
            std::string citation, std::string fits, std::string op, std::string in_tree,
            std::string prototxt) {
  return Case{std::move(name), std::move(board), 0, "us", published, published,
              std::move(citation), std::move(fits), Kind::kMluOps, nullptr, std::move(op),
              std::move(arch), std::move(in_tree), std::move(prototxt), ""};
}

Case three_interpolate(int b, int c, int m, int n, bool half, double published,
                       std::string fits) {
  const char *dtype = half ? "DTYPE_HALF" : "DTYPE_FLOAT";
  Case k = mluops(fmt::format("three_interpolate_forward {} [{},{},{}] N={}",
                              half ? "half" : "float", b, c, m, n),
                  "MLU270", "mtp_270", published, kPr242, std::move(fits),
                  "three_interpolate_forward", "", three_interpolate_case(b, c, m, n, dtype));
  k.needs = kPr242Kernel;
  return k;
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  v.push_back(mluops("ball_query case_0", "MLU370-X4", "mtp_372", 80,
                     "mlu-ops PR #1083 (and #1047), gtest log on MLU370-X4", kHeldOut,
                     "ball_query", "ball_query/test_case/case_0.prototxt", ""));
  v.push_back(three_interpolate(16, 512, 16, 64, false, 283, kLaunchMlu200));
  v.push_back(three_interpolate(16, 256, 64, 256, false, 415, kHeldOut));
  v.push_back(three_interpolate(16, 256, 256, 1024, false, 1985, kHeldOut));
  v.push_back(three_interpolate(16, 128, 1024, 4096, false, 6408, kSustainedShare));
  v.push_back(three_interpolate(16, 512, 16, 64, true, 212, kHeldOut));
  v.push_back(three_interpolate(16, 256, 64, 256, true, 282, kHeldOut));
  v.push_back(three_interpolate(16, 256, 256, 1024, true, 774, kHeldOut));
  v.push_back(mluops("masked_im2col_forward case_1 (14x14 kernel)", "MLU590-M9", "mtp_592", 11,
                     kPr659, kHeldOut, "masked_im2col_forward",
                     "masked_im2col_forward/test_case/case_1.prototxt", ""));
  const auto moe = [&](int samples, int hidden, int capacity, double us, const char *fits) {
    v.push_back(mluops(fmt::format("moe_dispatch_backward_data float, samples {}, hidden {}, "
                                   "capacity {}, 2 experts",
                                   samples, hidden, capacity),
                       "MLU590-M9", "mtp_592", us, kPr461, fits, "moe_dispatch_backward_data",
                       "", moe_backward_data_case(samples, hidden, capacity, 2)));
  };
  moe(4608, 1024, 2880, 106, kHeldOut);
  moe(18432, 512, 11520, 350, kGdramLatencyMlu500);
  v.push_back(mluops("abs case_0 (10,000 floats: the launch floor)", "MLU590-H8", "mtp_592", 2,
                     kPr1094, kLaunchMlu500, "abs", "abs/test_case/case_0.prototxt", ""));
  const auto lab = [&](std::string name, const char *board, double ms, const char *citation,
                       const char *fits, std::function<double()> run) {
    v.push_back(program("lab 5.2 " + name, board, 0, "ms", ms, ms, citation, fits, std::move(run)));
  };
  const auto scalar_lab = [&](const char *name, const char *board, double ms,
                              const char *citation, const char *fits, double (*run)(int), int k) {
    lab(fmt::format("{} 128x256x{}", name, k), board, ms, citation, fits, [run, k] { return run(k); });
  };
  scalar_lab("01_scalar (GDRAM)", "MLU370-X8", 2716.140, kLabX, kGdramLatency, lab_gdram_matmul_ms, 128);
  scalar_lab("01_scalar (GDRAM)", "MLU370-X4", 3261.580, kLabX, kHeldOut, lab_gdram_matmul_ms, 128);
  scalar_lab("01_scalar (GDRAM)", "MLU370-M8", 5280.594, kLabM8, kHeldOut, lab_gdram_matmul_ms, 256);
  scalar_lab("02_scalar_nram", "MLU370-X8", 126.067, kLabX, kScalarOnchip, lab_nram_matmul_ms, 128);
  scalar_lab("02_scalar_nram", "MLU370-X4", 126.071, kLabX, kHeldOut, lab_nram_matmul_ms, 128);
  scalar_lab("02_scalar_nram", "MLU370-M8", 193.940, kLabM8, kHeldOut, lab_nram_matmul_ms, 256);
  // The matrix-unit programs: 06 is left out, as both copies of it fault
  // (the course's reads past the end of `left`, the M8 run's reads SRAM an
  // async copy still writes): their boards timed programs that read data
  // the launch does not define.
  const auto matrix_lab = [&](const char *name, const char *board, double ms,
                              const char *citation, const char *fits,
                              double (*run)(LabCopy), LabCopy copy) {
    lab(name, board, ms, citation, fits, [run, copy] { return run(copy); });
  };
  const LabCopy course = LabCopy::kCourse, m8 = LabCopy::kM8;
  matrix_lab("03_vector_nram 128x256x128", "MLU370-X8", 0.050, kLabX, kKernelLoad,
             lab_matrix_unit_ms, course);
  matrix_lab("03_vector_nram 128x256x128", "MLU370-X4", 0.071, kLabX, kHeldOut,
             lab_matrix_unit_ms, course);
  matrix_lab("03_vector_nram 128x256x256", "MLU370-M8", 0.061, kLabM8, kHeldOut,
             lab_matrix_unit_ms, m8);
  matrix_lab("04_vector_nram_blocks 524288x256x128", "MLU370-X8", 4.563, kLabX, kHeldOut,
             lab_matrix_blocks_ms, course);
  matrix_lab("04_vector_nram_blocks 524288x256x128", "MLU370-X4", 3.703, kLabX, kHeldOut,
             lab_matrix_blocks_ms, course);
  matrix_lab("04_vector_nram_blocks 8192x512x512", "MLU370-M8", 0.453, kLabM8, kHeldOut,
             lab_matrix_blocks_ms, m8);
  matrix_lab("05_vector_nram_blocks_pipe3 524288x256x128", "MLU370-X8", 3.824, kLabX, kHeldOut,
             lab_matrix_pipelined_ms, course);
  matrix_lab("05_vector_nram_blocks_pipe3 524288x256x128", "MLU370-X4", 3.180, kLabX, kHeldOut,
             lab_matrix_pipelined_ms, course);
  matrix_lab("05_vector_nram_blocks_pipe3 8192x512x512", "MLU370-M8", 0.444, kLabM8, kHeldOut,
             lab_matrix_pipelined_ms, m8);
  return v;
}

// Selects a preset at a clock for as long as it lives, then restores the device.
class DeviceScope {
 public:
  DeviceScope(const std::string &board, double clock_mhz) {
    mlusimGetDeviceSpec(&saved_);
    if (mlusimSetDevicePreset(board.c_str()) != cnrtSuccess ||
        (clock_mhz > 0 && mlusimSetClockMHz(clock_mhz) != cnrtSuccess)) {
      mlusimSetDeviceSpec(&saved_);
      throw std::runtime_error("calibration: no device " + board);
    }
  }
  ~DeviceScope() { mlusimSetDeviceSpec(&saved_); }
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;

 private:
  mlusimDeviceSpec_t saved_{};
};

}  // namespace

const std::vector<Case> &cases() {
  static const std::vector<Case> all = all_cases();
  return all;
}

const std::vector<FitConstant> &fit_constants() {
  static const std::vector<FitConstant> all = all_fit_constants();
  return all;
}

double relative_error(const Case &c, double predicted) {
  if (predicted < c.published_low) return predicted / c.published_low - 1;
  if (predicted > c.published_high) return predicted / c.published_high - 1;
  return 0;
}

std::string published_text(const Case &c) {
  if (c.published_low == c.published_high) return fmt::format("{}", c.published_low);
  return fmt::format("{}-{}", c.published_low, c.published_high);
}

double run_program(const Case &c, const std::vector<Setting> &settings) {
  const DeviceScope device(c.board, c.clock_mhz);
  for (const Setting &s : settings)
    if (mlusimSetConstant(s.name.c_str(), s.value) != cnrtSuccess)
      throw std::runtime_error(fmt::format("calibration: {} cannot be {}", s.name, s.value));
  return c.program();
}

double constant_on(const std::string &board, const std::string &name) {
  const DeviceScope device(board, 0);
  double value = 0;
  if (mlusimGetConstant(name.c_str(), &value) != cnrtSuccess)
    throw std::runtime_error("calibration: no constant " + name);
  return value;
}

int bang_arch_of(const std::string &board) {
  const DeviceScope device(board, 0);
  mlusimDeviceSpec_t spec{};
  mlusimGetDeviceSpec(&spec);
  return spec.bang_arch;
}

double median_abs(std::vector<double> errors) {
  if (errors.empty()) return 0;
  for (double &e : errors) e = std::fabs(e);
  std::sort(errors.begin(), errors.end());
  const size_t mid = errors.size() / 2;
  return errors.size() % 2 == 1 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
}

}  // namespace mlusim::calibration
