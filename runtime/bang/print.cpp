// printf in kernel code (include/mlusim/bang/print.h): each core's output is
// written a line at a time, so lines of different cores never interleave.
#include "runtime/bang/print.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <mutex>
#include <string>

#include "mlusim/bang/print.h"

namespace mlusim::bang {
namespace {

std::mutex g_print_mutex;
std::array<std::string, 2 * MLUSIM_MAX_CORES> g_lines;  // per physical core: its unfinished line

void write_line(const std::string &line) {
  std::lock_guard<std::mutex> lock(g_print_mutex);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

void flush_unfinished_lines(size_t cores) {
  for (size_t i = 0; i < std::min(cores, g_lines.size()); ++i) {
    if (!g_lines[i].empty()) write_line(g_lines[i]);
    g_lines[i].clear();
  }
}

void device_print(const char *text, size_t length) {
  const auto core = static_cast<size_t>(this_core().physical_core);
  std::string *line = &g_lines[std::min(core, g_lines.size() - 1)];  // only this core's
  for (size_t i = 0; i < length; ++i) {
    line->push_back(text[i]);
    if (text[i] == '\n') {
      write_line(*line);
      line->clear();
    }
  }
}

}  // namespace mlusim::bang
