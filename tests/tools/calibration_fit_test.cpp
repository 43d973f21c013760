// `mlusim calibrate --fit` (harness/calibration_fit.h): a constant is found
// where its cases meet their published figures, worked out by hand for
// cases whose figure is a known function of it; the constants are fitted in
// order, each with those before it applied; a held-out case is never run by
// the fit (tests/tools/calibrate_test.sh fits the real cases).
#include "harness/calibration_fit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace {

using mlusim::calibration::Case;
using mlusim::calibration::Evaluate;
using mlusim::calibration::FitConstant;
using mlusim::calibration::Fitted;
using mlusim::calibration::Kind;
using mlusim::calibration::Outcome;
using mlusim::calibration::Setting;

Case case_of(const std::string &name, const std::string &board, double low, double high,
             const std::string &fits) {
  return Case{name, board, 0, "us", low, high, "a test", fits, Kind::kProgram, nullptr,
              "", "", "", "", ""};
}

double value_of(const std::vector<Setting> &settings, const std::string &name) {
  for (const Setting &s : settings)
    if (s.name == name) return s.value;
  return -1;
}

const FitConstant kLatency{"latency", "gdram_latency_ns", 200, 999, 100, 1000, 0};
const FitConstant kLaunch{"launch", "launch_overhead_us", 300, 999, 0, 20, 0};

TEST(CalibrationFit, AHeldOutCaseIsNeverRunByTheFit) {
  const std::vector<Case> cases{case_of("loop", "MLU370-X4", 630, 780, "latency"),
                                case_of("checks it", "MLU370-M8", 630, 780, "")};
  std::set<size_t> evaluated;
  const Evaluate evaluate = [&](const std::vector<size_t> &indices,
                                const std::vector<std::vector<Setting>> &settings) {
    std::vector<Outcome> out;
    for (size_t n = 0; n < indices.size(); ++n) {
      evaluated.insert(indices[n]);
      out.push_back({2 * value_of(settings[n], "gdram_latency_ns") + 25, ""});
    }
    return out;
  };
  const std::vector<Fitted> fitted = mlusim::calibration::fit(cases, {kLatency}, evaluate);
  ASSERT_EQ(fitted.size(), 1u);
  ASSERT_TRUE(fitted[0].found) << fitted[0].note;
  // 2 x + 25 = 705, the middle of 630-780: x = 340, to a thousandth of 100-1000.
  EXPECT_NEAR(*fitted[0].found, 340, 0.9);
  EXPECT_GT(fitted[0].in_use, 0);
  EXPECT_EQ(evaluated, std::set<size_t>{0});
}

TEST(CalibrationFit, EachConstantIsFittedWithTheOnesBeforeIt) {
  const std::vector<Case> cases{case_of("loop", "MLU370-X4", 705, 705, "latency"),
                                case_of("launch floor", "MLU590-H8", 2, 2, "launch")};
  const Evaluate evaluate = [&](const std::vector<size_t> &indices,
                                const std::vector<std::vector<Setting>> &settings) {
    std::vector<Outcome> out;
    for (size_t n = 0; n < indices.size(); ++n) {
      const double latency = value_of(settings[n], "gdram_latency_ns");
      if (indices[n] == 0) out.push_back({2 * latency + 25, ""});
      // A launch: its overhead, then a load and a store of `latency` each.
      else out.push_back({value_of(settings[n], "launch_overhead_us") + 2 * latency / 1000, ""});
    }
    return out;
  };
  const std::vector<Fitted> fitted = mlusim::calibration::fit(cases, {kLatency, kLaunch}, evaluate);
  ASSERT_TRUE(fitted[1].found) << fitted[1].note;
  EXPECT_NEAR(*fitted[1].found, 2 - 2 * 0.340, 0.03);
  // What a case of each generation runs with afterwards.
  EXPECT_EQ(mlusim::calibration::settings_for(592, fitted).size(), 2u);
  EXPECT_EQ(mlusim::calibration::settings_for(270, fitted).size(), 1u);
}

TEST(CalibrationFit, AConstantNoValueOfWhichFitsIsLeftWithTheReason) {
  const std::vector<Case> cases{case_of("loop", "MLU370-X4", 705, 705, "latency")};
  const Evaluate unmoved = [](const std::vector<size_t> &indices,
                              const std::vector<std::vector<Setting>> &) {
    return std::vector<Outcome>(indices.size(), Outcome{1000.0, ""});
  };
  const std::vector<Fitted> fitted = mlusim::calibration::fit(cases, {kLatency}, unmoved);
  EXPECT_FALSE(fitted[0].found);
  EXPECT_NE(fitted[0].note.find("no value from 100 to 1000 fits its cases"), std::string::npos)
      << fitted[0].note;
  const Evaluate cannot_run = [](const std::vector<size_t> &indices,
                                 const std::vector<std::vector<Setting>> &) {
    return std::vector<Outcome>(indices.size(), Outcome{std::nullopt, "skipped: no build"});
  };
  const std::vector<Fitted> skipped = mlusim::calibration::fit(cases, {kLatency}, cannot_run);
  EXPECT_FALSE(skipped[0].found);
  EXPECT_EQ(skipped[0].note, "loop: skipped: no build");
}

TEST(CalibrationFit, AConstantTheDeviceRoundsIsFoundOnItsSteps) {
  // The NRAM loop: a block entry (4), eight operators (16), two accesses.
  const FitConstant access{"access", "scalar_onchip_cycles", 200, 999, 0, 20, 1};
  const std::vector<Case> cases{case_of("nram loop", "MLU370-X8", 30, 30, "access")};
  const Evaluate evaluate = [](const std::vector<size_t> &indices,
                               const std::vector<std::vector<Setting>> &settings) {
    const double cycles = std::round(value_of(settings[0], "scalar_onchip_cycles"));
    return std::vector<Outcome>(indices.size(), Outcome{4 + 16 + 2 * cycles, ""});
  };
  const std::vector<Fitted> fitted = mlusim::calibration::fit(cases, {access}, evaluate);
  ASSERT_TRUE(fitted[0].found) << fitted[0].note;
  EXPECT_EQ(*fitted[0].found, 5);
  EXPECT_EQ(fitted[0].error_at_found, 0);
}

TEST(CalibrationFit, EveryFittedCaseSetsAConstantOnOneBoard) {
  for (const FitConstant &k : mlusim::calibration::fit_constants()) {
    std::set<std::string> boards;
    for (const Case &c : mlusim::calibration::cases())
      if (c.fits == k.label) boards.insert(c.board);
    EXPECT_EQ(boards.size(), 1u) << k.label;
  }
  for (const Case &c : mlusim::calibration::cases()) {
    if (c.held_out()) continue;
    const auto &ks = mlusim::calibration::fit_constants();
    EXPECT_TRUE(std::any_of(ks.begin(), ks.end(), [&](const FitConstant &k) { return k.label == c.fits; }))
        << c.name << " fits an unknown constant '" << c.fits << "'";
  }
}

}  // namespace
