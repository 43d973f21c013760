// Progress of long work on a terminal: one line on stderr, redrawn as items
// finish, e.g.
//   report: 7/23 cases, 0:42 elapsed, about 1:35 left (border_align_backward [2,950,4,256] half)
// It draws nothing when stderr is not a terminal (CI logs, pipes, files), so
// callers use it unconditionally. Anything the caller prints while the line is
// shown goes after clear(); the next advance() draws the line again.
//
//   mlusim::tools::Progress progress("report", cases.size(), "cases");
//   for (auto &c : cases) {
//     Row row = c();
//     progress.clear();
//     print(row);
//     progress.advance(row.case_name);
//   }
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace mlusim::tools {

class Progress {
 public:
  // `what` starts the line; `total` items, called `unit` ("cases", "launches").
  // `out` must be a terminal for anything to be drawn (default: stderr).
  Progress(std::string what, size_t total, std::string unit, std::FILE *out = stderr);
  ~Progress();  // clears the line
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  // `n` more items are done; `last` names the latest (may be empty).
  void advance(std::string_view last = {}, size_t n = 1);
  // Erases the line so that the caller can print; the next advance() redraws it.
  void clear();
  bool shown() const { return active_; }

  // The line as drawn after `done` of the items in `elapsed` seconds.
  static std::string line(std::string_view what, size_t done, size_t total,
                          std::string_view unit, double elapsed, std::string_view last);

 private:
  void draw();

  std::string what_, unit_, last_;
  size_t total_, done_ = 0;
  std::FILE *out_;
  bool active_, drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point drawn_at_{};
};

}  // namespace mlusim::tools
