// Which launches wake the team of host threads: a kernel's first launch does,
// later ones only if the last launch's cores ran long enough to gain from it.
#include <gtest/gtest.h>

#include <string>

#include "runtime/launch_history.h"

namespace {

using mlusim::note_cores_busy;
using mlusim::worth_a_team;

TEST(LaunchHistory, FirstLaunchOfAKernelWakesTheTeam) {
  EXPECT_TRUE(worth_a_team("launch_history_never_launched"));
}

TEST(LaunchHistory, KernelFollowsItsLastLaunch) {
  const std::string kernel = "launch_history_short_then_long";
  note_cores_busy(kernel, 3);
  EXPECT_FALSE(worth_a_team(kernel)) << "3 us of cores' time is less than waking a team";
  note_cores_busy(kernel, 5000);
  EXPECT_TRUE(worth_a_team(kernel)) << "5 ms of cores' time is worth two threads";
  note_cores_busy(kernel, 3);
  EXPECT_FALSE(worth_a_team(kernel));
}

TEST(LaunchHistory, KernelsAreKeptApart) {
  note_cores_busy("launch_history_short", 3);
  note_cores_busy("launch_history_long", 5000);
  EXPECT_FALSE(worth_a_team("launch_history_short"));
  EXPECT_TRUE(worth_a_team("launch_history_long"));
  EXPECT_TRUE(worth_a_team("launch_history_short_")) << "a name is matched whole";
}

}  // namespace
