// The efficiency chart of `mlusim report` (tools/report/efficiency_chart.h):
// well-formed SVG with its title, one row per case, bars whose ends sit where
// the standard's lines say their values are, error bars for ranges, and the
// cases without a figure or with a wrong result marked.
#include "tools/report/efficiency_chart.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "tests/common/svg_document.h"

namespace {

using mlusim::report::Chart;
using mlusim::report::ChartCase;
using mlusim::svg::Estimate;
using mlusim::testing::SvgDocument;

Chart sample() {
  Chart chart{"my_op", "MLU370-X4", {}};
  chart.cases.push_back({"[2,70,4,256] float", {0.3}, {0.6}, 755.1, true});
  chart.cases.push_back({"[2,950,4,256] half", {0.45, 0.4, 0.5}, {-1}, 9273.2, true});
  chart.cases.push_back({"[2,70,4,128] float", {0.1}, {0.02}, 12.5, false});
  return chart;
}

double number(const std::string &text) { return std::stod(text); }

TEST(EfficiencyChart, HasTitleARowPerCaseAndTheStandardsLines) {
  const SvgDocument doc(mlusim::report::efficiency_chart_svg(sample()));
  ASSERT_TRUE(doc.well_formed());
  const std::vector<std::string> title = doc.values("//s:text[@class='t1']");
  ASSERT_EQ(title.size(), 1u);
  EXPECT_EQ(title[0], "my_op on MLU370-X4: efficiency of the network cases");
  EXPECT_EQ(doc.count("//s:text[starts-with(@class, 'lb') and contains(., '[2,')]"), 3u);
  EXPECT_EQ(doc.values("//s:text[contains(., '9273.2 us')]").size(), 1u);
  EXPECT_EQ(doc.count("//s:line[@class='std']"), 1u);   // 60%
  EXPECT_EQ(doc.count("//s:line[@class='std2']"), 1u);  // 30%
  EXPECT_EQ(doc.count("//s:text[.='60%: network-scale cases']"), 1u);
}

// A bar of 30% ends on the 30% line, one of 60% on the 60% line.
TEST(EfficiencyChart, BarsEndWhereTheLinesPutTheirValues) {
  const SvgDocument doc(mlusim::report::efficiency_chart_svg(sample()));
  ASSERT_TRUE(doc.well_formed());
  const double line30 = number(doc.values("//s:line[@class='std2']/@x1").at(0));
  const double line60 = number(doc.values("//s:line[@class='std']/@x1").at(0));
  const std::vector<std::string> io_x = doc.values("//s:rect[@class='io']/@x");
  const std::vector<std::string> io_w = doc.values("//s:rect[@class='io']/@width");
  const std::vector<std::string> cp_w = doc.values("//s:rect[@class='cp']/@width");
  ASSERT_EQ(io_w.size(), 4u);  // the legend's swatch, then the three cases
  ASSERT_EQ(cp_w.size(), 3u);  // the legend's swatch and two cases: one has no figure
  const double left = number(io_x[1]);
  EXPECT_NEAR(left + number(io_w[1]), line30, 0.11);
  EXPECT_NEAR(left + number(cp_w[1]), line60, 0.11);
  EXPECT_NEAR(line60 - left, 2 * (line30 - left), 0.2);
}

TEST(EfficiencyChart, RangesHaveErrorBarsAndMissingFiguresAreSaid) {
  const SvgDocument doc(mlusim::report::efficiency_chart_svg(sample()));
  ASSERT_TRUE(doc.well_formed());
  EXPECT_EQ(doc.count("//s:line[@class='err']"), 3u + 3u);  // the case's and the legend's
  EXPECT_EQ(doc.count("//s:text[.='45.0% (40.0–50.0%)']"), 1u);
  EXPECT_EQ(doc.count("//s:text[.=\"the cost model's range\"]"), 1u);
  EXPECT_EQ(doc.count("//s:text[.='no op count declared']"), 1u);
  EXPECT_EQ(doc.count("//s:text[@class='lb bad' and contains(., '(wrong result)')]"), 1u);

  Chart without_ranges = sample();
  without_ranges.cases[1].io = Estimate{0.45};
  const SvgDocument plain(mlusim::report::efficiency_chart_svg(without_ranges));
  EXPECT_EQ(plain.count("//s:line[@class='err']"), 0u);
  EXPECT_EQ(plain.count("//s:text[.=\"the cost model's range\"]"), 0u);
}

// The error bar of 45% (40-50%) spans 40% to 50% on the scale the 30% and
// 60% lines set: x(f) = left + f / 30% * (line30 - left).
TEST(EfficiencyChart, ErrorBarsSpanTheirRange) {
  const SvgDocument doc(mlusim::report::efficiency_chart_svg(sample()));
  ASSERT_TRUE(doc.well_formed());
  const double line30 = number(doc.values("//s:line[@class='std2']/@x1").at(0));
  const double left = number(doc.values("//s:rect[@class='io']/@x").at(1));
  auto x = [&](double fraction) { return left + fraction / 0.3 * (line30 - left); };
  // The case's three lines come after the legend's: the span, its two ends.
  const std::vector<std::string> x1 = doc.values("//s:line[@class='err']/@x1");
  const std::vector<std::string> x2 = doc.values("//s:line[@class='err']/@x2");
  ASSERT_EQ(x1.size(), 6u);
  EXPECT_NEAR(number(x1[3]), x(0.4), 0.15);
  EXPECT_NEAR(number(x2[3]), x(0.5), 0.15);
  EXPECT_NEAR(number(x1[4]), x(0.4), 0.15);
  EXPECT_NEAR(number(x1[5]), x(0.5), 0.15);
}

// How a report's bounds become a range: -1 (no figure) or bounds equal to the
// value (nothing estimated moved it) give none.
TEST(EfficiencyChart, ReportBoundsBecomeRangesOnlyWhenTheyAreOne) {
  EXPECT_FALSE(mlusim::svg::estimate(-1, -1, -1).has_range());
  EXPECT_FALSE(mlusim::svg::estimate(0.5, 0.5, 0.5).has_range());
  EXPECT_FALSE(mlusim::svg::estimate(0.5, -1, 0.6).has_range());
  const Estimate e = mlusim::svg::estimate(0.5, 0.4, 0.6);
  ASSERT_TRUE(e.has_range());
  EXPECT_EQ(e.lo, 0.4);
  EXPECT_EQ(e.hi, 0.6);
  EXPECT_EQ(mlusim::svg::percent(e), "50.0% (40.0–60.0%)");
  EXPECT_EQ(mlusim::svg::percent(mlusim::svg::estimate(-1, -1, -1)), "-");
}

TEST(EfficiencyChart, EscapesWhatItWrites) {
  Chart chart = sample();
  chart.op = "a<b>&\"c\"";
  const SvgDocument doc(mlusim::report::efficiency_chart_svg(chart));
  ASSERT_TRUE(doc.well_formed());
  EXPECT_EQ(doc.values("//s:text[@class='t1']").at(0),
            "a<b>&\"c\" on MLU370-X4: efficiency of the network cases");
}

}  // namespace
