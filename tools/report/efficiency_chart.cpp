#include "tools/report/efficiency_chart.h"

#include <algorithm>
#include <cmath>

namespace mlusim::report {
namespace {

constexpr double kWidth = 960, kMargin = 12, kTimeColumn = 84;
constexpr double kRowPitch = 24, kBarHeight = 8;
constexpr double kRowsTop = 100;

constexpr const char *kCss =
    "text{fill:#222}.t1{font-size:15px;font-weight:bold}.t2{font-size:12px}.lg{font-size:11px}"
    ".lb{font-size:11px}.bad{fill:#c00}.v{font-size:9px;fill:#444}.ax{font-size:10px;fill:#555}"
    ".grid{stroke:#e6e6e6}.band{fill:#f4f4f4}.io{fill:#0072B2}.cp{fill:#009E73}"
    ".std{stroke:#c00;stroke-width:1.5}.std2{stroke:#c00;stroke-width:1;stroke-dasharray:5 3}"
    ".err{stroke:#000;stroke-width:1}.sl{font-size:10px;fill:#c00}";

struct Geometry {
  double plot_left, plot_width, scale;  // scale: the fraction at the plot's right edge
  double x(double fraction) const { return plot_left + plot_width * fraction / scale; }
};

Geometry geometry(const Chart &chart) {
  double label = 160, top = 1;
  for (const ChartCase &c : chart.cases) {
    label = std::max(label, svg::text_width(c.label, 11) + (c.passed ? 0 : 90));
    for (const svg::Estimate &e : {c.io, c.compute})
      top = std::max(top, e.has_range() ? e.hi : e.value);
  }
  label = std::min(label, 360.0);
  const double left = kMargin + label + 10;
  return {left, kWidth - left - kTimeColumn - kMargin, std::ceil(top * 5 - 1e-9) / 5};
}

void draw_bar(svg::Document &doc, const Geometry &g, const svg::Estimate &e, double y,
              const char *cls) {
  if (e.value < 0) {
    doc.text(g.plot_left + 3, y + kBarHeight - 1, "no op count declared", "v");
    return;
  }
  doc.rect(g.plot_left, y, g.x(e.value) - g.plot_left, kBarHeight, cls);
  double end = g.x(e.value);
  if (e.has_range()) {
    const double middle = y + kBarHeight / 2;
    doc.line(g.x(e.lo), middle, g.x(e.hi), middle, "err");
    doc.line(g.x(e.lo), y, g.x(e.lo), y + kBarHeight, "err");
    doc.line(g.x(e.hi), y, g.x(e.hi), y + kBarHeight, "err");
    end = std::max(end, g.x(e.hi));
  }
  doc.text(end + 3, y + kBarHeight - 1, svg::percent(e), "v");
}

void draw_axis(svg::Document &doc, const Geometry &g, double top, double bottom) {
  for (double t : svg::ticks(g.scale * 100, 10)) {
    const double x = g.x(t / 100);
    doc.line(x, top - 3, x, bottom, "grid");
    doc.text(x, top - 6, svg::tick_label(t) + "%", "ax", "middle");
    doc.text(x, bottom + 12, svg::tick_label(t) + "%", "ax", "middle");
  }
  doc.text(kWidth - kMargin, top - 6, "device time", "ax", "end");
}

void draw_standard(svg::Document &doc, const Geometry &g, double top, double bottom) {
  doc.line(g.x(kNetworkStandard), top - 2, g.x(kNetworkStandard), bottom, "std");
  doc.line(g.x(kGeneralStandard), top - 2, g.x(kGeneralStandard), bottom, "std2");
  doc.text(g.x(kNetworkStandard) + 3, bottom + 24, "60%: network-scale cases", "sl");
  doc.text(g.x(kGeneralStandard) + 3, bottom + 24, "30%: other cases", "sl");
}

void draw_legend(svg::Document &doc, bool ranges) {
  double x = kMargin;
  auto swatch = [&](const char *cls, const char *label) {
    doc.rect(x, 53, 10, 9, cls);
    doc.text(x + 14, 62, label, "lg");
    x += 14 + svg::text_width(label, 11) + 18;
  };
  swatch("io", "IO efficiency");
  swatch("cp", "compute efficiency");
  if (ranges) {
    doc.line(x, 57.5, x + 16, 57.5, "err");
    doc.line(x, 53, x, 62, "err");
    doc.line(x + 16, 53, x + 16, 62, "err");
    doc.text(x + 20, 62, "the cost model's range", "lg");
  }
}

}  // namespace

std::string efficiency_chart_svg(const Chart &chart) {
  const Geometry g = geometry(chart);
  const double bottom = kRowsTop + kRowPitch * static_cast<double>(chart.cases.size());
  svg::Document doc(kWidth, bottom + 36, kCss);
  doc.text(kMargin, 22,
           chart.op + " on " + chart.device + ": efficiency of the network cases", "t1");
  doc.text(kMargin, 40,
           "mlu-ops' performance standard: at least 60% on the bottleneck side (the larger of "
           "the two) for network-scale cases, 30% for other cases",
           "t2");
  bool ranges = false;
  for (const ChartCase &c : chart.cases) ranges |= c.io.has_range() || c.compute.has_range();
  draw_legend(doc, ranges);
  for (size_t i = 0; i < chart.cases.size(); ++i)
    if (i % 2 == 1) doc.rect(0, kRowsTop + kRowPitch * i, kWidth, kRowPitch, "band");
  draw_axis(doc, g, kRowsTop, bottom);
  for (size_t i = 0; i < chart.cases.size(); ++i) {
    const ChartCase &c = chart.cases[i];
    const double y = kRowsTop + kRowPitch * static_cast<double>(i);
    doc.text(kMargin, y + 15, c.passed ? c.label : c.label + "  (wrong result)",
             c.passed ? "lb" : "lb bad");
    draw_bar(doc, g, c.io, y + 3, "io");
    draw_bar(doc, g, c.compute, y + 3 + kBarHeight + 1, "cp");
    doc.text(kWidth - kMargin, y + 15, fmt::format("{:.1f} us", c.device_us), "lb", "end");
  }
  draw_standard(doc, g, kRowsTop, bottom);
  return doc.finish();
}

}  // namespace mlusim::report
