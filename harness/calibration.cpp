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
constexpr const char *kPr659 =
    "mlu-ops PR #659, gtest table (the board is not named; mlu-ops tested MLU370 then), the "
    "in-tree case";
constexpr const char *kCourseLabs =
    "course lab runs on MLU370 boards (X8 and X4 at 1 GHz, M8 at 1.3 GHz)";

// three_interpolate_forward's case as mlu-ops' harness reads it: features
// [b, c, m], indices and weights [b, n, 3], output [b, c, n], random data.
std::string three_interpolate_case(int b, int c, int m, int n, const char *dtype) {
  const auto tensor = [](const char *kind, const char *id, std::vector<int> dims,
                         const char *type, const std::string &data) {
    std::string text = fmt::format("{} {{\n  id: \"{}\"\n  shape: {{\n", kind, id);
    for (int d : dims) text += fmt::format("    dims: {}\n", d);
    return text + fmt::format("  }}\n  layout: LAYOUT_ARRAY\n  dtype: {}\n{}}}\n", type, data);
  };
  const auto random = [](double low, double high) {
    return fmt::format("  random_data: {{\n    seed: 23\n    upper_bound: {}\n    lower_bound: {}\n"
                       "    distribution: UNIFORM\n  }}\n",
                       high, low);
  };
  return "op_name: \"three_interpolate_forward\"\n" +
         tensor("input", "input", {b, c, m}, dtype, random(0, 100)) +
         tensor("input", "idx", {b, n, 3}, "DTYPE_INT32", random(0, m - 1)) +
         tensor("input", "weight", {b, n, 3}, dtype, random(0, 1)) +
         tensor("output", "output", {b, c, n}, dtype, "") +
         "test_param: {\n  error_func: DIFF1\n  error_func: DIFF2\n  error_threshold: 0.003\n"
         "  error_threshold: 0.003\n  baseline_device: CPU\n}\n";
}

Case program(std::string name, std::string board, double clock_mhz, std::string unit,
             double low, double high, std::string citation, bool held_out,
             std::function<double()> run) {
  return Case{std::move(name), std::move(board), clock_mhz, std::move(unit), low, high,
              std::move(citation), held_out, Kind::kProgram, std::move(run), "", "", "", ""};
}

Case mluops(std::string name, std::string board, std::string arch, double published,
            std::string citation, bool held_out, std::string op, std::string in_tree,
            std::string prototxt) {
  return Case{std::move(name), std::move(board), 0, "us", published, published,
              std::move(citation), held_out, Kind::kMluOps, nullptr, std::move(op),
              std::move(arch), std::move(in_tree), std::move(prototxt)};
}

Case three_interpolate(int b, int c, int m, int n, bool half, double published) {
  const char *dtype = half ? "DTYPE_HALF" : "DTYPE_FLOAT";
  return mluops(fmt::format("three_interpolate_forward {} [{},{},{}] N={}",
                            half ? "half" : "float", b, c, m, n),
                "MLU270", "mtp_270", published, kPr242, half, "three_interpolate_forward", "",
                three_interpolate_case(b, c, m, n, dtype));
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  v.push_back(mluops("ball_query case_0", "MLU370-X4", "mtp_372", 80,
                     "mlu-ops PR #1083 (and #1047), gtest log on MLU370-X4", false, "ball_query",
                     "ball_query/test_case/case_0.prototxt", ""));
  v.push_back(three_interpolate(16, 512, 16, 64, false, 283));
  v.push_back(three_interpolate(16, 256, 64, 256, false, 415));
  v.push_back(three_interpolate(16, 256, 256, 1024, false, 1985));
  v.push_back(three_interpolate(16, 128, 1024, 4096, false, 6408));
  v.push_back(three_interpolate(16, 512, 16, 64, true, 212));
  v.push_back(three_interpolate(16, 256, 64, 256, true, 282));
  v.push_back(three_interpolate(16, 256, 256, 1024, true, 774));
  v.push_back(mluops("masked_im2col_forward 4x4 kernel", "MLU370-X4", "mtp_372", 18, kPr659, true,
                     "masked_im2col_forward", "masked_im2col_forward/test_case/case_0.prototxt",
                     ""));
  v.push_back(mluops("masked_im2col_forward 14x14 kernel", "MLU370-X4", "mtp_372", 11, kPr659,
                     true, "masked_im2col_forward",
                     "masked_im2col_forward/test_case/case_1.prototxt", ""));
  v.push_back(program("scalar NRAM multiply-add loop", "MLU370-X8", 0, "cycles/iteration", 30, 30,
                      kCourseLabs, false, scalar_nram_loop_cycles_per_iteration));
  v.push_back(program("scalar NRAM multiply-add loop", "MLU370-X4", 0, "cycles/iteration", 30, 30,
                      kCourseLabs, false, scalar_nram_loop_cycles_per_iteration));
  v.push_back(program("scalar NRAM multiply-add loop", "MLU370-M8", 0, "cycles/iteration", 30, 30,
                      kCourseLabs, true, scalar_nram_loop_cycles_per_iteration));
  v.push_back(program("scalar GDRAM pointer loop", "MLU370-X4", 0, "ns/iteration", 630, 780,
                      kCourseLabs, false, scalar_gdram_loop_ns_per_iteration));
  v.push_back(program("scalar GDRAM pointer loop", "MLU370-M8", 0, "ns/iteration", 630, 780,
                      kCourseLabs, true, scalar_gdram_loop_ns_per_iteration));
  v.push_back(program("element-wise op on 10,000 floats (launch floor)", "MLU590-H8", 0, "us",
                      2, 2,
                      "mlu-ops PR #1094, gtest log on an MLU590 (the model is not named)", false,
                      small_elementwise_us));
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

double relative_error(const Case &c, double predicted) {
  if (predicted < c.published_low) return predicted / c.published_low - 1;
  if (predicted > c.published_high) return predicted / c.published_high - 1;
  return 0;
}

std::string published_text(const Case &c) {
  if (c.published_low == c.published_high) return fmt::format("{}", c.published_low);
  return fmt::format("{}-{}", c.published_low, c.published_high);
}

double run_program(const Case &c) {
  const DeviceScope device(c.board, c.clock_mhz);
  return c.program();
}

double median_abs(std::vector<double> errors) {
  if (errors.empty()) return 0;
  for (double &e : errors) e = std::fabs(e);
  std::sort(errors.begin(), errors.end());
  const size_t mid = errors.size() / 2;
  return errors.size() % 2 == 1 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
}

}  // namespace mlusim::calibration
