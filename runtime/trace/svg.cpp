#include "runtime/trace/svg.h"

#include <iterator>

namespace mlusim::svg {

std::string percent(const Estimate &e) {
  if (e.value < 0) return "-";
  if (!e.has_range()) return fmt::format("{:.1f}%", 100 * e.value);
  return fmt::format("{:.1f}% ({:.1f}–{:.1f}%)", 100 * e.value, 100 * e.lo, 100 * e.hi);
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 admits no control character but tab, newline and return.
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\t' || ch == '\n') out += ch;
    }
  }
  return out;
}

std::vector<double> ticks(double span, int max_ticks) {
  if (!(span > 0) || max_ticks < 1) return {0};
  const double rough = span / max_ticks;
  const double power = std::pow(10, std::floor(std::log10(rough)));
  double step = 10 * power;
  for (double m : {1.0, 2.0, 5.0})
    if (m * power >= rough) {
      step = m * power;
      break;
    }
  std::vector<double> out;
  for (int i = 0; i * step <= span * (1 + 1e-9); ++i) out.push_back(i * step);
  return out;
}

std::string tick_label(double value) { return fmt::format("{:.6g}", value); }

double text_width(std::string_view text, double size) {
  double em = 0;
  for (unsigned char ch : text) {
    if (ch >= 0x80 && ch < 0xC0) continue;  // UTF-8 continuation bytes
    em += (ch == ' ' || ch == '.' || ch == ',' || ch == 'i' || ch == 'l' || ch == '|') ? 0.3
          : (ch >= 'A' && ch <= 'Z') || ch == 'm' || ch == 'w'                        ? 0.72
                                                                                       : 0.56;
  }
  return em * size;
}

Document::Document(double width, double height, std::string_view css) {
  raw(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" )"
      R"(font-family="DejaVu Sans,Verdana,Arial,sans-serif">)"
      "\n<style>{}</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
      px(width), px(height), px(width), px(height), css);
}

void Document::text(double x, double y, std::string_view text, std::string_view cls,
                    std::string_view anchor) {
  raw(R"(<text x="{}" y="{}" class="{}"{}>{}</text>)"
      "\n",
      px(x), px(y), cls, anchor == "start" ? "" : fmt::format(R"( text-anchor="{}")", anchor),
      escape(text));
}

void Document::rect(double x, double y, double w, double h, std::string_view cls,
                    std::string_view title) {
  if (title.empty()) {
    raw(R"(<rect x="{}" y="{}" width="{}" height="{}" class="{}"/>)"
        "\n",
        px(x), px(y), px(w), px(h), cls);
  } else {
    raw(R"(<rect x="{}" y="{}" width="{}" height="{}" class="{}"><title>{}</title></rect>)"
        "\n",
        px(x), px(y), px(w), px(h), cls, escape(title));
  }
}

void Document::line(double x0, double y0, double x1, double y1, std::string_view cls) {
  raw(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="{}"/>)"
      "\n",
      px(x0), px(y0), px(x1), px(y1), cls);
}

std::string Document::finish() {
  raw("</svg>\n");
  return fmt::to_string(out_);
}

}  // namespace mlusim::svg
