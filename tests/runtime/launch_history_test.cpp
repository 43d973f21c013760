// Which launches wake the team of host threads: a kernel's first launch does;
// later ones if sharing its cores' last time out saves more than its last
// team cost beyond that share.
#include <gtest/gtest.h>

#include <string>

#include "runtime/launch_history.h"

namespace {

using mlusim::note_launch;
using mlusim::worth_a_team;

TEST(LaunchHistory, FirstLaunchOfAKernelWakesTheTeam) {
  EXPECT_TRUE(worth_a_team("launch_history_never_launched", 2));
}

TEST(LaunchHistory, AShortKernelRunsAlone) {
  const std::string kernel = "launch_history_short_then_long";
  note_launch(kernel, 2, 3, 20);
  EXPECT_FALSE(worth_a_team(kernel, 2)) << "3 us of cores' time saves less than the team cost";
  note_launch(kernel, 1, 5000, 5000);
  EXPECT_TRUE(worth_a_team(kernel, 2)) << "5 ms of cores' time is worth two threads";
  note_launch(kernel, 2, 3, 20);
  EXPECT_FALSE(worth_a_team(kernel, 2));
}

// 200 us of cores' time in 210 us on two workers: the team cost 110 us
// beyond the 100 it saved.
TEST(LaunchHistory, AKernelWhoseTeamCostMoreThanItSavedRunsAlone) {
  const std::string kernel = "launch_history_costly_team";
  note_launch(kernel, 2, 200, 210);
  EXPECT_FALSE(worth_a_team(kernel, 2));
  EXPECT_TRUE(worth_a_team(kernel, 4)) << "four share out 150 us";
  note_launch(kernel, 1, 400, 400);
  EXPECT_TRUE(worth_a_team(kernel, 2)) << "twice the work saves 200 us";
}

TEST(LaunchHistory, ATeamThatPaidForItselfStays) {
  const std::string kernel = "launch_history_good_team";
  note_launch(kernel, 2, 5000, 2600);
  EXPECT_TRUE(worth_a_team(kernel, 2));
}

// A team that cost 300 us (a spike, say) keeps a kernel of 200 us alone for
// 16 launches, then it tries the team again; a kernel too short for any
// team never does.
TEST(LaunchHistory, AKernelKeptAloneTriesTheTeamAgain) {
  const std::string kernel = "launch_history_spike";
  note_launch(kernel, 2, 200, 400);
  for (int i = 0; i < 15; ++i) {
    EXPECT_FALSE(worth_a_team(kernel, 2)) << i;
    note_launch(kernel, 1, 200, 200);
  }
  EXPECT_FALSE(worth_a_team(kernel, 2));
  note_launch(kernel, 1, 200, 200);
  EXPECT_TRUE(worth_a_team(kernel, 2));
  note_launch(kernel, 2, 200, 120);
  EXPECT_TRUE(worth_a_team(kernel, 2)) << "this team cost 20 us";

  const std::string tiny = "launch_history_tiny";
  note_launch(tiny, 2, 3, 20);
  for (int i = 0; i < 40; ++i) note_launch(tiny, 1, 3, 3);
  EXPECT_FALSE(worth_a_team(tiny, 2));
}

TEST(LaunchHistory, KernelsAreKeptApart) {
  note_launch("launch_history_short", 2, 3, 20);
  note_launch("launch_history_long", 2, 5000, 2600);
  EXPECT_FALSE(worth_a_team("launch_history_short", 2));
  EXPECT_TRUE(worth_a_team("launch_history_long", 2));
  EXPECT_TRUE(worth_a_team("launch_history_short_", 2)) << "a name is matched whole";
}

}  // namespace
