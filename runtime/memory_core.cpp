#include "runtime/memory_core.h"

#include <algorithm>

#include "runtime/logging.h"

namespace mlusim {

namespace {

// Whether this is the launch's first instruction the memory core skips (the
// one the log names).
bool first_skip(const CoreContext &c) { return first_note(c.launch->memory_core_skipped); }

void log_skip(const CoreContext &c, const std::string &what) {
  log::kernel().warn(
      "kernel '{}' [{}, task {}]{}{}: {}; mlusim skips it there, as it does the memory core's "
      "NRAM and WRAM instructions and compute-core barriers of this launch (no effect, no time: "
      "docs/bang_c.md). The kernel runs on the memory core because it is a UNION kernel "
      "without `if (__is_mpu()) return;`",
      c.launch->kernel, detail::core_name(c), c.task_id, c.where != nullptr ? " at " : "",
      c.where != nullptr ? c.where : "", what);
}

}  // namespace

bool skip_on_memory_core(const CoreContext &c, const char *op, Space space, size_t off,
                         size_t bytes) {
  if (!inside_declared(c.launch->kernel_declared[static_cast<int>(space)], off, bytes))
    return false;
  if (first_skip(c))
    log_skip(c, fmt::format("{} needs {}, which a memory core does not have (BANG C guide 3.3.2)",
                            op, space_name(space)));
  return true;
}

void pass_compute_barrier(const CoreContext &c, const char *op) {
  if (first_skip(c))
    log_skip(c, fmt::format("{} is a barrier of the compute cores, which a memory core does not "
                            "take part in",
                            op));
}

void drop_skipped_counts(std::vector<CoreContext> &cores) {
  for (CoreContext &c : cores) {
    if (!c.is_mpu || !c.launch->memory_core_skipped.load(std::memory_order_relaxed)) continue;
    // Every vector instruction reads or writes NRAM: the memory core's were skipped.
    c.vector_elems_float = c.vector_elems_half = c.vector_elems_int = 0;
  }
}

}  // namespace mlusim
