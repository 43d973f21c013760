// The timeline picture of one traced launch: one row per lane (stream,
// IO-DMA, Move-DMA, vector, tensor, where used) of every traced core, grouped
// by cluster; instructions as bars coloured by pipe; the stream's fence and
// barrier waits and queue-full stalls; dependency waits; a device-time axis in
// us, a legend, and a title with the launch's and its operator call's figures.
// What is at least kMinBarPx wide is a bar of its own (with a tooltip); what is
// narrower is summed per pixel column into a shade whose opacity is the
// fraction of that column's time the lane was busy. A lane's instructions never
// overlap, so the file's size is bounded by rows x width, not by the count of
// instructions.
// docs/tracing.md explains how to read it.
#pragma once

#include <string>

#include "runtime/trace/launch.h"

namespace mlusim::trace {

inline constexpr double kTimelineWidthPx = 1200;
inline constexpr double kMinBarPx = 8;  // narrower instructions are shaded

std::string timeline_svg(const Launch &launch);

}  // namespace mlusim::trace
