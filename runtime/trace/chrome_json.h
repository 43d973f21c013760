// Chrome trace-event JSON of traced launches, for https://ui.perfetto.dev and
// chrome://tracing: one process per cluster, per core one thread per pipe and
// one for its stream; launches follow each other on the queue's timeline.
#pragma once

#include <ostream>
#include <vector>

#include "runtime/trace/launch.h"

namespace mlusim::trace {

void write_chrome_json(std::ostream &out, const std::vector<Launch> &launches);

}  // namespace mlusim::trace
