// The runtime side of translated .mlu programs (include/mlusim/bang/detail/program.h):
// <<<>>> launches and the device a program was built for.
#include <cstdlib>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/program.h"
#include "runtime/devices.h"
#include "runtime/last_error.h"
#include "runtime/launch.h"
#include "runtime/logging.h"

namespace mlusim::bang {

void run_launch(const char *kernel, const char *where, cnrtDim3_t dim, cnrtFunctionType_t type,
                cnrtQueue_t queue, const std::function<void()> &body) {
  const cnrtRet_t ret = launch_kernel(kernel, dim, type, queue, body);
  if (ret != cnrtSuccess) log::runtime().debug("launch at {}: {}", where, last_error_message());
}

bool use_device(const char *preset) {
  if (std::getenv("MLUSIM_DEVICE") != nullptr) return true;
  if (const DeviceSpec *spec = find_preset(preset)) set_current_device(*spec);
  return true;
}

}  // namespace mlusim::bang
