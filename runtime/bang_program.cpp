// The runtime side of translated .mlu programs: <<<>>> launches, printf from
// kernels, and the device a program was built for.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <mutex>
#include <string>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/print.h"
#include "mlusim/bang/detail/program.h"
#include "runtime/device_spec.h"
#include "runtime/launch.h"
#include "runtime/logging.h"

namespace mlusim::bang {
namespace {

std::mutex g_print_mutex;
std::array<std::string, 2 * MLUSIM_MAX_CORES> g_lines;  // per physical core: its unfinished line

void write_line(const std::string &line) {
  std::lock_guard<std::mutex> lock(g_print_mutex);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

// What a launch's cores printed without a final newline, printed after it ends.
void flush_unfinished_lines() {
  for (std::string &line : g_lines) {
    if (!line.empty()) write_line(line);
    line.clear();
  }
}

}  // namespace

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

void run_launch(const char *kernel, const char *where, cnrtDim3_t dim, cnrtFunctionType_t type,
                cnrtQueue_t queue, const std::function<void()> &body) {
  const cnrtRet_t ret = launch_kernel(kernel, dim, type, queue, body);
  flush_unfinished_lines();
  if (ret != cnrtSuccess) log::runtime().debug("launch at {}: {}", where, last_error());
}

bool use_device(const char *preset) {
  if (std::getenv("MLUSIM_DEVICE") != nullptr) return true;
  if (const DeviceSpec *spec = find_preset(preset)) set_current_device(*spec);
  return true;
}

}  // namespace mlusim::bang
