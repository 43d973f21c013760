// What the SVG pictures share (the launch timeline here, the efficiency charts
// of `mlusim report`): an SVG document built in memory, escaped text, compact
// numbers, axis ticks, and figures that may carry a range.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/fmt/fmt.h>

namespace mlusim::svg {

// A figure of the cost model, with the range it may lie in when the model
// gives one (lo/hi NaN: no range).
struct Estimate {
  double value = 0;
  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = std::numeric_limits<double>::quiet_NaN();
  bool has_range() const { return !std::isnan(lo) && !std::isnan(hi); }
};

// A figure of mlusimReport_t with its bounds: no range when they are -1 (no
// figure) or both equal the value (no estimated constant moved it).
inline Estimate estimate(double value, double low, double high) {
  if (low < 0 || high < 0 || (low == value && high == value)) return {value};
  return {value, low, high};
}

// "23.4%" or "23.4% (19.0–27.9%)" for a fraction; "-" for a negative value
// (mlu-ops' "no figure").
std::string percent(const Estimate &e);

std::string escape(std::string_view text);

// Ticks from 0 covering `span` with a step of 1, 2 or 5 times a power of ten,
// at most `max_ticks` + 1 of them.
std::vector<double> ticks(double span, int max_ticks);
// A tick's label without needless digits: 0, 2.5, 40, 1200.
std::string tick_label(double value);

// Width in pixels of `text` in the pictures' sans-serif font at `size` px (an
// estimate good enough to lay out legends and labels).
double text_width(std::string_view text, double size);

class Document {
 public:
  Document(double width, double height, std::string_view css);
  // Rounds coordinates to 0.1 px: the picture is no finer, the file smaller.
  static double px(double v) { return std::round(v * 10) / 10; }

  void text(double x, double y, std::string_view text, std::string_view cls,
            std::string_view anchor = "start");
  void rect(double x, double y, double w, double h, std::string_view cls,
            std::string_view title = {});
  void line(double x0, double y0, double x1, double y1, std::string_view cls);
  // Raw markup (already escaped), e.g. <g> with a title or a path.
  template <typename... Args>
  void raw(fmt::format_string<Args...> format, Args &&...args) {
    fmt::format_to(std::back_inserter(out_), format, std::forward<Args>(args)...);
  }
  // The finished document (closes the <svg> element).
  std::string finish();

 private:
  fmt::memory_buffer out_;
};

}  // namespace mlusim::svg
