#include "runtime/trace/timeline_svg.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "runtime/trace/svg.h"

namespace mlusim::trace {
namespace {

// ---- geometry ----------------------------------------------------------------

constexpr double kLeft = 104, kRight = 16;  // label column, right margin
constexpr double kPlotWidth = kTimelineWidthPx - kLeft - kRight;
constexpr int kColumns = static_cast<int>(kPlotWidth);  // one shade per pixel column
constexpr double kRowPitch = 8, kCoreGap = 3, kClusterGap = 8;
constexpr int kShadeLevels = 8;

// ---- what is painted ---------------------------------------------------------

// Everything a lane shows, one colour each (CSS classes of the document).
enum Paint : uint8_t {
  kIo, kMove, kVector, kTensor, kDependency, kFence, kBarrier, kStall, kScalar, kPaints
};

struct PaintStyle {
  const char *cls;
  const char *colour;
  const char *legend;
  double top, height;  // within the row's pitch
};
constexpr PaintStyle kStyle[kPaints] = {
    {"io", "#0072B2", "IO-DMA", 1, 6},
    {"mv", "#56B4E9", "Move-DMA", 1, 6},
    {"vc", "#009E73", "vector", 1, 6},
    {"tn", "#CC79A7", "tensor", 1, 6},
    {"dw", "#999999", "waits for a dependency", 3, 2},
    {"fe", "#E69F00", "fence wait (__sync*)", 1, 6},
    {"ba", "#D55E00", "barrier wait", 1, 6},
    {"st", "#F0E442", "stall: pipe queue full", 1, 6},
    {"sc", "#000000", "scalar code", 1, 6},
};

constexpr const char *kLaneLabel[kPipeCount + 1] = {"IO", "move", "vector", "tensor", "stream"};
// Rows of a core, top to bottom: the stream that issues, then its pipes.
constexpr uint8_t kLaneOrder[] = {kStreamLane, kIoPipe, kMovePipe, kVectorPipe, kTensorPipe};

Paint stream_paint(EventKind k) {
  switch (k) {
    case EventKind::kFence: return kFence;
    case EventKind::kBarrier: return kBarrier;
    case EventKind::kScalar: return kScalar;
    default: return kStall;
  }
}

struct Bar {
  double x0, x1;
  const Event *event;
};

// One paint on one row: what is wide enough to be a bar, and per pixel column
// the fraction of its time covered by what is not.
struct Ink {
  std::vector<Bar> bars;
  std::vector<float> cover;
  double cycles = 0;
  size_t count = 0;

  void shade(double x0, double x1) {
    if (cover.empty()) cover.assign(kColumns, 0.0f);
    x0 = std::clamp(x0, 0.0, kPlotWidth);
    x1 = std::clamp(x1, x0, kPlotWidth);
    for (int c = static_cast<int>(x0); c < kColumns && c < x1; ++c)
      cover[static_cast<size_t>(c)] +=
          static_cast<float>(std::min(x1, c + 1.0) - std::max(x0, static_cast<double>(c)));
  }
};

struct Row {
  size_t core;
  uint8_t lane;
  double y;
  std::array<Ink, kPaints> ink;
};

struct Layout {
  std::vector<Row> rows;
  std::vector<std::array<int, kPipeCount + 1>> row_of;  // per core and lane, or -1
  double top = 0, bottom = 0;
};

// Which lanes a core shows: those any core of its kind (compute or memory)
// used, so that every compute core has the same rows.
std::array<bool, kPipeCount + 1> used_lanes(const Launch &l, bool mpu) {
  std::array<bool, kPipeCount + 1> used{};
  for (const Event &e : l.events)
    if (l.cores[e.core].mpu == mpu) used[e.lane] = true;
  return used;
}

// Core indices by cluster, each cluster's compute cores first.
std::vector<size_t> core_order(const Launch &l) {
  std::vector<size_t> order(l.cores.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const TracedCore &x = l.cores[a], &y = l.cores[b];
    return std::tie(x.cluster, x.core) < std::tie(y.cluster, y.core);
  });
  return order;
}

Layout lay_out(const Launch &l, double top) {
  const std::array<bool, kPipeCount + 1> lanes[2] = {used_lanes(l, false), used_lanes(l, true)};
  Layout out;
  out.top = top;
  out.row_of.assign(l.cores.size(), {-1, -1, -1, -1, -1});
  double y = top;
  int cluster = -1;
  for (size_t core : core_order(l)) {
    const TracedCore &c = l.cores[core];
    if (cluster >= 0) y += c.cluster != cluster ? kClusterGap : kCoreGap;
    cluster = c.cluster;
    for (uint8_t lane : kLaneOrder) {
      if (!lanes[c.mpu][lane]) continue;
      out.row_of[core][lane] = static_cast<int>(out.rows.size());
      out.rows.push_back(Row{core, lane, y, {}});
      y += kRowPitch;
    }
  }
  out.bottom = y;
  return out;
}

// ---- from events to ink --------------------------------------------------------

void add(Ink &ink, double x0, double x1, const Event &e, double cycles) {
  ++ink.count;
  ink.cycles += cycles;
  if (x1 - x0 >= kMinBarPx) ink.bars.push_back(Bar{x0, x1, &e});
  else ink.shade(x0, x1);
}

void ink_events(const Launch &l, double px_per_cycle, Layout &layout) {
  for (const Event &e : l.events) {
    const int r = layout.row_of[e.core][e.lane];
    if (r < 0) continue;
    Row &row = layout.rows[static_cast<size_t>(r)];
    const double x0 = e.start * px_per_cycle, x1 = e.end * px_per_cycle;
    // An instruction, or scalar code, waited for a dependency first.
    if (e.start > e.ready)
      add(row.ink[kDependency], e.ready * px_per_cycle, x0, e, e.start - e.ready);
    add(row.ink[e.lane == kStreamLane ? stream_paint(e.kind) : e.pipe], x0, x1, e,
        e.end - e.start);
  }
}

// ---- drawing ---------------------------------------------------------------

std::string css() {
  std::string s =
      "text{fill:#222}.t1{font-size:15px;font-weight:bold}.t2{font-size:12px}"
      ".lg{font-size:11px}.cl{font-size:10px;font-weight:bold}.co{font-size:9px}"
      ".ln{font-size:7px;fill:#777}.ax{font-size:10px;fill:#555}"
      ".grid{stroke:#e0e0e0;stroke-width:1}"
      ".band{fill:#f4f4f4}path,rect{shape-rendering:crispEdges}";
  for (const PaintStyle &p : kStyle) s += fmt::format(".{}{{fill:{}}}", p.cls, p.colour);
  for (int level = 1; level < kShadeLevels; ++level)
    s += fmt::format(".o{}{{fill-opacity:{:g}}}", level, static_cast<double>(level) / kShadeLevels);
  return s;
}

std::string us(double cycles, const Launch &l) {
  return fmt::format("{:.3f} us", cycles / l.cycles_per_us());
}

std::string bar_title(const Launch &l, Paint paint, const Event &e) {
  if (paint == kDependency)
    return fmt::format("{} waits for a dependency: {} to {}", event_name(e), us(e.ready, l),
                       us(e.start, l));
  return fmt::format("{} {} size={} : {} to {} (issued {})", event_name(e), e.detail, e.size,
                     us(e.start, l), us(e.end, l), us(e.issue, l));
}

std::string core_label(const TracedCore &c) {
  return c.mpu ? std::string("memory core") : fmt::format("core {}", c.core);
}

std::string row_title(const Launch &l, const Row &row, double span_cycles) {
  const TracedCore &c = l.cores[row.core];
  std::string s = fmt::format("cluster {} {} {}:", c.cluster, core_label(c), kLaneLabel[row.lane]);
  for (int p = 0; p < kPaints; ++p) {
    const Ink &ink = row.ink[p];
    if (ink.count == 0) continue;
    s += fmt::format(" {} x{} {} ({:.0f}% of the launch);", kStyle[p].legend, ink.count,
                     us(ink.cycles, l), 100 * ink.cycles / span_cycles);
  }
  return s;
}

void draw_shade(svg::Document &doc, const Ink &ink, const PaintStyle &style, double y) {
  if (ink.cover.empty()) return;
  std::array<std::string, kShadeLevels + 1> paths;
  auto level_of = [](float f) {
    return f <= 0 ? 0 : std::clamp(static_cast<int>(std::ceil(f * kShadeLevels - 1e-3)), 1, kShadeLevels);
  };
  for (int c = 0; c < kColumns;) {
    const int level = level_of(ink.cover[static_cast<size_t>(c)]);
    int end = c + 1;
    while (end < kColumns && level_of(ink.cover[static_cast<size_t>(end)]) == level) ++end;
    if (level > 0)
      fmt::format_to(std::back_inserter(paths[static_cast<size_t>(level)]), "M{} {}h{}v{}h-{}z",
                     kLeft + c, y + style.top, end - c, style.height, end - c);
    c = end;
  }
  for (int level = 1; level <= kShadeLevels; ++level) {
    if (paths[static_cast<size_t>(level)].empty()) continue;
    if (level == kShadeLevels) doc.raw(R"(<path class="{}" d="{}"/>)" "\n", style.cls, paths[level]);
    else doc.raw(R"(<path class="{} o{}" d="{}"/>)" "\n", style.cls, level, paths[level]);
  }
}

void draw_rows(svg::Document &doc, const Launch &l, const Layout &layout, double span_cycles) {
  for (const Row &row : layout.rows) {
    doc.raw("<g><title>{}</title>\n", svg::escape(row_title(l, row, span_cycles)));
    for (int p = 0; p < kPaints; ++p) {
      const PaintStyle &style = kStyle[p];
      draw_shade(doc, row.ink[p], style, row.y);
      for (const Bar &b : row.ink[p].bars)
        doc.rect(kLeft + b.x0, row.y + style.top, b.x1 - b.x0, style.height, style.cls,
                 bar_title(l, static_cast<Paint>(p), *b.event));
    }
    doc.raw("</g>\n");
    doc.text(kLeft - 4, row.y + 6.5, kLaneLabel[row.lane], "ln", "end");
  }
}

// Cluster bands (every other one shaded), cluster and core labels.
void draw_labels(svg::Document &doc, const Launch &l, const Layout &layout) {
  size_t i = 0;
  for (int band = 0; i < layout.rows.size(); ++band) {
    const int cluster = l.cores[layout.rows[i].core].cluster;
    const size_t first = i;
    while (i < layout.rows.size() && l.cores[layout.rows[i].core].cluster == cluster) ++i;
    const double top = layout.rows[first].y, bottom = layout.rows[i - 1].y + kRowPitch;
    if (band % 2 == 1) doc.rect(0, top - kCoreGap / 2, kTimelineWidthPx, bottom - top + kCoreGap, "band");
    doc.raw(R"x(<text transform="translate(12 {}) rotate(-90)" class="cl" text-anchor="middle">cluster {}</text>)x"
            "\n",
            svg::Document::px((top + bottom) / 2), cluster);
    for (size_t r = first; r < i;) {
      const size_t core = layout.rows[r].core;
      const size_t core_first = r;
      while (r < i && layout.rows[r].core == core) ++r;
      const double middle = (layout.rows[core_first].y + layout.rows[r - 1].y + kRowPitch) / 2;
      doc.text(22, middle + 3, l.cores[core].mpu ? "mem core" : core_label(l.cores[core]), "co");
    }
  }
}

void draw_axis(svg::Document &doc, const Layout &layout, double span_us) {
  const double px_per_us = kPlotWidth / span_us;
  for (double t : svg::ticks(span_us, 12)) {
    const double x = kLeft + t * px_per_us;
    doc.line(x, layout.top - 4, x, layout.bottom + 2, "grid");
    doc.text(x, layout.top - 7, svg::tick_label(t), "ax", "middle");
    doc.text(x, layout.bottom + 13, svg::tick_label(t), "ax", "middle");
  }
  doc.text(8, layout.top - 7, "device time, us", "ax");
  doc.text(8, layout.bottom + 13, "device time, us", "ax");
}

struct Swatch {
  const char *cls;
  const char *label;
  double height;
  double x = 0, y = 0;  // where it goes: the text's baseline starts at x + 14
};

// The legend's swatches left to right from (kLeft, y), wrapping at the right margin.
std::vector<Swatch> legend(double y) {
  std::vector<Swatch> out;
  for (const PaintStyle &p : kStyle) out.push_back({p.cls, p.legend, p.height + 3});
  out.push_back({"vc o3", "shaded: share of a pixel's time busy", 9});
  double x = kLeft;
  for (Swatch &s : out) {
    const double w = 14 + svg::text_width(s.label, 11) + 14;
    if (x + w > kTimelineWidthPx - kRight) {
      x = kLeft;
      y += 16;
    }
    s.x = x;
    s.y = y;
    x += w;
  }
  return out;
}

void draw_legend(svg::Document &doc, const std::vector<Swatch> &swatches) {
  for (const Swatch &s : swatches) {
    doc.rect(s.x, s.y - 5 - s.height / 2, 10, s.height, s.cls);
    doc.text(s.x + 14, s.y, s.label, "lg");
  }
}

std::string megabytes(double bytes) {
  return bytes >= 1e9 ? fmt::format("{:.2f} GB", bytes / 1e9)
         : bytes >= 1e6 ? fmt::format("{:.1f} MB", bytes / 1e6)
                        : fmt::format("{:.1f} KB", bytes / 1e3);
}

// "1 core", "4 cores".
std::string count(int n, const char *one, const char *many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// "12.34 us" or "12.34 us (9.80–17.10 us)" with the cost model's range.
std::string time_with_range(const mlusimReport_t &r) {
  const svg::Estimate t = svg::estimate(r.device_time_us, r.device_time_us_low, r.device_time_us_high);
  if (!t.has_range()) return fmt::format("{:.2f} us", t.value);
  return fmt::format("{:.2f} us ({:.2f}–{:.2f} us)", t.value, t.lo, t.hi);
}

std::string efficiency_line(const Launch &l) {
  if (!l.in_op) return "not inside an operator call: no IO or compute efficiency";
  const mlusimReport_t &op = l.op;
  return fmt::format(
      "operator {}: {}, {}, IO efficiency {}, compute efficiency {}", op.name,
      count(op.launches, "launch", "launches"), time_with_range(op),
      svg::percent(svg::estimate(op.io_efficiency, op.io_efficiency_low, op.io_efficiency_high)),
      svg::percent(svg::estimate(op.compute_efficiency, op.compute_efficiency_low,
                                 op.compute_efficiency_high)));
}

void draw_title(svg::Document &doc, const Launch &l) {
  const mlusimDeviceSpec_t &d = l.device;
  const mlusimReport_t &r = l.report;
  const double run_us = r.device_time_us - d.launch_overhead_us;
  const double gbps = run_us > 0 ? r.gdram_bytes / (run_us * 1e3) : 0;
  doc.text(8, 20, fmt::format("{}  (launch {})", l.kernel, l.number), "t1");
  doc.text(8, 38,
           fmt::format("{}: {} clusters x {} cores at {:.2f} GHz; the launch ran {}{}, {} traced",
                       d.name, d.clusters, d.cores_per_cluster, d.clock_ghz,
                       count(r.cores, "core", "cores"),
                       r.memory_cores > 0 ? " + " + count(r.memory_cores, "memory core", "memory cores") : "",
                       l.cores.size()),
           "t2");
  doc.text(8, 55,
           fmt::format("launch {} = {:.2f} us run + {:.2f} us launch overhead; "
                       "GDRAM {} at {:.1f} GB/s = {:.1f}% of {:.1f} GB/s",
                       time_with_range(r), run_us, d.launch_overhead_us, megabytes(r.gdram_bytes), gbps,
                       100 * gbps / d.gdram_gbps, d.gdram_gbps),
           "t2");
  doc.text(8, 72, efficiency_line(l), "t2");
}

}  // namespace

std::string timeline_svg(const Launch &l) {
  double span_cycles = (l.report.device_time_us - l.device.launch_overhead_us) * l.cycles_per_us();
  for (const Event &e : l.events) span_cycles = std::max(span_cycles, e.end);
  span_cycles = std::max(span_cycles, 1.0);
  const double span_us = span_cycles / l.cycles_per_us();

  // Title, legend, axis labels above the rows; axis labels and a margin below.
  const std::vector<Swatch> swatches = legend(92);
  const double rows_top = swatches.back().y + 34;
  Layout layout = lay_out(l, rows_top);
  ink_events(l, kPlotWidth / span_cycles, layout);

  svg::Document doc(kTimelineWidthPx, layout.bottom + 24, css());
  draw_title(doc, l);
  draw_legend(doc, swatches);
  if (layout.rows.empty()) {
    doc.text(kLeft, rows_top + 12, "no traced core recorded anything in this launch", "t2");
  } else {
    draw_labels(doc, l, layout);
    draw_axis(doc, layout, span_us);
    draw_rows(doc, l, layout, span_cycles);
  }
  return doc.finish();
}

}  // namespace mlusim::trace
