#include "tools/progress.h"

#include <unistd.h>

#include <cmath>

namespace mlusim::tools {
namespace {

// Redraws come at most this often: a sweep of many quick items stays cheap.
constexpr std::chrono::milliseconds kRedrawEvery{200};
constexpr size_t kMaxColumns = 120;  // longer lines are cut (a wrapped line cannot be redrawn)

std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof(buf), "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof(buf), "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

Progress::Progress(std::string what, size_t total, std::string unit, std::FILE *out)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      out_(out),
      active_(out != nullptr && isatty(fileno(out)) != 0) {
  if (active_) draw();
}

Progress::~Progress() { clear(); }

std::string Progress::line(std::string_view what, size_t done, size_t total,
                           std::string_view unit, double elapsed, std::string_view last) {
  std::string s = std::string(what) + ": " + std::to_string(done) + "/" + std::to_string(total) +
                  " " + std::string(unit) + ", " + clock_text(elapsed) + " elapsed";
  if (done > 0 && done < total)
    s += ", about " + clock_text(elapsed / static_cast<double>(done) *
                                 static_cast<double>(total - done)) + " left";
  if (!last.empty()) s += " (" + std::string(last) + ")";
  if (s.size() > kMaxColumns) s.resize(kMaxColumns);
  return s;
}

void Progress::advance(std::string_view last, size_t n) {
  done_ += n;
  last_ = last;
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done_ < total_ && now - drawn_at_ < kRedrawEvery) return;
  drawn_at_ = now;
  draw();
}

void Progress::draw() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(out_, "\r\033[K%s", line(what_, done_, total_, unit_, elapsed, last_).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void Progress::clear() {
  if (!active_ || !drawn_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace mlusim::tools
