// Which NRAM scalar code read and stored since its core's last fence, for the
// pipe hazards of scalar code against the DMA pipes (runtime/pipe_hazards.h:
// an async copy writing NRAM scalar code read, or reading NRAM it stored,
// with no fence between them). Each core has two arrays of one 32-bit mark
// per 4 bytes of NRAM (reads, stores); a scalar access stores the core's
// fence epoch into the mark of its first 4 bytes, and a fence starts a new
// epoch, so nothing is ever cleared. Epochs grow across launches: a mark of
// an earlier launch never equals a current epoch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

// Sets every core's marks and first epoch for a run of the launch (on
// NRAM of `nram_bytes` usable bytes per core); the marks are mapped on first
// use and kept for the next launches.
void begin_scalar_marks(std::vector<CoreContext> &cores, size_t nram_bytes);
// The run is over: the next one starts past every epoch it used.
void end_scalar_marks(const std::vector<CoreContext> &cores);

}  // namespace mlusim
