// What the last launch of each kernel cost the host threads that ran its
// cores, and what the team of host threads cost it beyond their share of the
// work. Waking and joining a team costs tens of microseconds, and more where
// its cores wait on each other across threads: a launch runs on one worker
// unless its cores' last time, shared out, saves more than the kernel's team
// last cost (docs/architecture.md). The first launch of every kernel runs on
// the team.
#pragma once

#include <string_view>

namespace mlusim {

// Whether a launch of `kernel` is worth waking a team of `workers` threads
// for (launches are serialised: called under the launch lock).
bool worth_a_team(std::string_view kernel, int workers);
// A launch of `kernel` ran on `workers` threads (1: the launching thread
// alone) for `wall_us`, its workers busy running its cores for `busy_us`
// summed (their waits left out).
void note_launch(std::string_view kernel, int workers, double busy_us, double wall_us);

}  // namespace mlusim
