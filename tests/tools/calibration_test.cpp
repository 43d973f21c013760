// The calibration suite's bookkeeping (harness/calibration.h): the published
// cases the issue names are there, errors are measured against a figure or a
// range as docs/cost_model.md says, and a program case runs on its board.
#include "harness/calibration.h"

#include <gtest/gtest.h>

#include <string>

#include "mlusim.h"

namespace {

using mlusim::calibration::Case;
using mlusim::calibration::cases;
using mlusim::calibration::Kind;

const Case &named(const std::string &name, const std::string &board) {
  for (const Case &c : cases())
    if (c.name == name && c.board == board) return c;
  throw std::runtime_error("no case " + name + " on " + board);
}

TEST(Calibration, ThePublishedCasesAreThereOnTheirBoards) {
  const Case &ball = named("ball_query case_0", "MLU370-X4");
  EXPECT_EQ(ball.published_low, 80);
  EXPECT_EQ(ball.kind, Kind::kMluOps);
  EXPECT_EQ(ball.arch, "mtp_372");
  const Case &largest = named("three_interpolate_forward float [16,128,1024] N=4096", "MLU270");
  EXPECT_EQ(largest.published_low, 6408);
  EXPECT_EQ(largest.arch, "mtp_270");
  EXPECT_FALSE(largest.held_out());
  EXPECT_EQ(named("three_interpolate_forward float [16,512,16] N=64", "MLU270").published_low, 283);
  EXPECT_TRUE(named("three_interpolate_forward half [16,512,16] N=64", "MLU270").held_out());
  const Case &gdram = named("lab 5.2 01_scalar (GDRAM) 128x256x128", "MLU370-X8");
  EXPECT_EQ(gdram.published_low, 2716.140);
  EXPECT_EQ(gdram.unit, "ms");
  EXPECT_EQ(named("lab 5.2 02_scalar_nram 128x256x256", "MLU370-M8").published_low, 193.940);
  const Case &masked = named("masked_im2col_forward case_1 (14x14 kernel)", "MLU590-M9");
  EXPECT_EQ(masked.arch, "mtp_592");
  EXPECT_EQ(masked.in_tree, "masked_im2col_forward/test_case/case_1.prototxt");
  EXPECT_EQ(named("abs case_0 (10,000 floats: the launch floor)", "MLU590-H8").in_tree,
            "abs/test_case/case_0.prototxt");
  EXPECT_FALSE(named("lab 5.2 03_vector_nram 128x256x128", "MLU370-X8").held_out());
  EXPECT_TRUE(named("lab 5.2 03_vector_nram 128x256x256", "MLU370-M8").held_out());
  EXPECT_EQ(named("lab 5.2 04_vector_nram_blocks 524288x256x128", "MLU370-X4").published_low, 3.703);
  EXPECT_EQ(named("lab 5.2 05_vector_nram_blocks_pipe3 8192x512x512", "MLU370-M8").published_low,
            0.444);
  for (const Case &c : cases()) {
    EXPECT_FALSE(c.citation.empty()) << c.name;
    EXPECT_EQ(c.kind == Kind::kProgram, static_cast<bool>(c.program)) << c.name;
  }
}

// The dims of tensor `id` in a case file, space-separated.
std::string dims_of(const std::string &text, const std::string &id) {
  const size_t at = text.find("id: \"" + id + "\"");
  if (at == std::string::npos) return "no tensor " + id;
  std::string dims;
  for (size_t p = text.find("dims: ", at); p < text.find("layout", at);
       p = text.find("dims: ", p + 1))
    dims += text.substr(p + 6, text.find('\n', p) - p - 6) + " ";
  return dims;
}

TEST(Calibration, TheCaseFileHoldsThePublishedShapes) {
  const std::string &text =
      named("three_interpolate_forward float [16,128,1024] N=4096", "MLU270").prototxt;
  EXPECT_EQ(dims_of(text, "input"), "16 128 1024 ");
  EXPECT_EQ(dims_of(text, "idx"), "16 4096 3 ");
  EXPECT_EQ(dims_of(text, "weight"), "16 4096 3 ");
  EXPECT_EQ(dims_of(text, "output"), "16 128 4096 ");
  EXPECT_NE(text.find("dtype: DTYPE_FLOAT"), std::string::npos);
  EXPECT_NE(text.find("op_name: \"three_interpolate_forward\""), std::string::npos);
}

TEST(Calibration, TheMoeCaseRoutesEverySampleAsPublished) {
  const Case &moe = named(
      "moe_dispatch_backward_data float, samples 18432, hidden 512, capacity 11520, 2 experts",
      "MLU590-M9");
  EXPECT_EQ(moe.published_low, 350);
  EXPECT_EQ(moe.arch, "mtp_592");
  EXPECT_EQ(moe.fits, "GDRAM latency, MLU500");
  EXPECT_TRUE(named("moe_dispatch_backward_data float, samples 4608, hidden 1024, capacity 2880, "
                    "2 experts",
                    "MLU590-M9")
                  .held_out());
  const std::string &text = moe.prototxt;
  EXPECT_EQ(dims_of(text, "gates"), "18432 ");
  EXPECT_EQ(dims_of(text, "dispatch"), "23040 512 ");
  EXPECT_EQ(dims_of(text, "grad_input"), "18432 512 ");
  // Experts 0 and 1, locations below the capacity: no sample routed nowhere.
  const size_t indices = text.find("id: \"indices\"");
  EXPECT_NE(text.find("upper_bound: 1\n    lower_bound: 0\n", indices), std::string::npos);
  EXPECT_LT(text.find("upper_bound: 1\n", indices), text.find("id: \"locations\""));
  EXPECT_NE(text.find("upper_bound: 11519\n", text.find("id: \"locations\"")),
            std::string::npos);
  EXPECT_NE(text.find("samples: 18432\n  capacity: 11520\n  hidden: 512\n  num_experts: 2\n"),
            std::string::npos);
}

TEST(Calibration, ErrorsAreToTheFigureOrToTheNearestEndOfTheRange) {
  const Case &one = named("ball_query case_0", "MLU370-X4");
  EXPECT_DOUBLE_EQ(mlusim::calibration::relative_error(one, 100), 0.25);
  EXPECT_DOUBLE_EQ(mlusim::calibration::relative_error(one, 60), -0.25);
  Case range = one;
  range.published_low = 630;
  range.published_high = 780;
  EXPECT_DOUBLE_EQ(mlusim::calibration::relative_error(range, 700), 0);
  EXPECT_DOUBLE_EQ(mlusim::calibration::relative_error(range, 567), 567.0 / 630 - 1);
  EXPECT_DOUBLE_EQ(mlusim::calibration::relative_error(range, 975), 0.25);
  EXPECT_EQ(mlusim::calibration::published_text(range), "630-780");
  EXPECT_EQ(mlusim::calibration::published_text(one), "80");
  EXPECT_DOUBLE_EQ(mlusim::calibration::median_abs({0.1, -0.3, 0.2}), 0.2);
  EXPECT_DOUBLE_EQ(mlusim::calibration::median_abs({0.1, -0.3, 0.2, -0.5}), 0.25);
}

TEST(Calibration, AProgramRunsOnItsBoardAndLeavesTheDeviceAsItWas) {
  mlusimDeviceSpec_t before;
  ASSERT_EQ(mlusimGetDeviceSpec(&before), cnrtSuccess);
  const Case &lab = named("lab 5.2 02_scalar_nram 128x256x128", "MLU370-X4");
  mlusimDeviceSpec_t x4;
  ASSERT_EQ(mlusimGetPreset(0, &x4), cnrtSuccess);
  ASSERT_STREQ(x4.name, "MLU370-X4");
  // 128 x 256 x 128 iterations of the inner loop, each at least its block
  // entry and at most a hundred cycles, at the X4's clock.
  const double ms = mlusim::calibration::run_program(lab);
  const double iterations = 128.0 * 256 * 128, ms_per_cycle = 1e-6 / x4.clock_ghz;
  EXPECT_GT(ms, iterations * x4.scalar_block_cycles * ms_per_cycle);
  EXPECT_LT(ms, iterations * 100 * ms_per_cycle);
  mlusimDeviceSpec_t after;
  ASSERT_EQ(mlusimGetDeviceSpec(&after), cnrtSuccess);
  EXPECT_STREQ(after.name, before.name);
  EXPECT_EQ(after.clock_ghz, before.clock_ghz);
}

// The lab printed one launch's host-observed time in a fresh process: every
// run of the case is its kernel's first launch, loading included.
TEST(Calibration, EveryRunOfALabProgramIsItsKernelsFirstLaunch) {
  const Case &lab = named("lab 5.2 03_vector_nram 128x256x128", "MLU370-X8");
  double load_us = 0;
  ASSERT_EQ(mlusimGetConstant("kernel_load_us", &load_us), cnrtSuccess);
  const double first = mlusim::calibration::run_program(lab);
  EXPECT_GT(first, load_us / 1000);
  EXPECT_EQ(mlusim::calibration::run_program(lab), first);
}

}  // namespace
