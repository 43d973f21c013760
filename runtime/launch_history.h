// What the last launch of each kernel cost the host threads that ran its
// cores. Waking a team of host threads costs tens of microseconds, more than
// a short kernel's cores need on one thread: a kernel whose last launch was
// that short runs on one worker (docs/architecture.md). The first launch of
// every kernel runs on the team.
#pragma once

#include <string_view>

namespace mlusim {

// Whether a launch of `kernel` is worth waking the team for (launches are
// serialised: called under the launch lock).
bool worth_a_team(std::string_view kernel);
// The host time the workers of a launch of `kernel` spent running its cores
// (their waits left out), summed.
void note_cores_busy(std::string_view kernel, double busy_us);

}  // namespace mlusim
