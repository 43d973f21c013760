#include "runtime/launch_history.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace mlusim {
namespace {

// What a team is taken to cost a kernel before any of its launches ran on
// one: waking and joining a team of two measured 15-25 us on the 2-core
// development machine.
constexpr double kFirstTeamCostUs = 25;
// A kernel kept off the team by what its last team cost tries one again
// after this many launches: that cost may have been a spike (the first
// team of a process starts its threads), or the kernel's work grown.
constexpr int kTeamAgainAfter = 16;

struct History {
  double busy_us = 0;                      // the cores' host time in the last launch
  double team_cost_us = kFirstTeamCostUs;  // its last team's wall time beyond busy / workers
  int alone = 0;                           // launches on one worker since its last team
};

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Looked up by the launch's name without making a string of it.
using HistoryByKernel = std::unordered_map<std::string, History, NameHash, std::equal_to<>>;

HistoryByKernel &history_by_kernel() {
  static auto *history = new HistoryByKernel;  // never destroyed: a launch at exit may read it
  return *history;
}

}  // namespace

// A team of n shares the busy time out: it saves busy * (1 - 1/n) and costs
// what the kernel's last team cost beyond that share.
bool worth_a_team(std::string_view kernel, int workers) {
  const auto &history = history_by_kernel();
  const auto it = history.find(kernel);
  if (it == history.end()) return true;
  const History &h = it->second;
  const double saves = h.busy_us * (1 - 1.0 / workers);
  return saves > h.team_cost_us || (h.alone >= kTeamAgainAfter && saves > kFirstTeamCostUs);
}

void note_launch(std::string_view kernel, int workers, double busy_us, double wall_us) {
  auto &history = history_by_kernel();
  auto it = history.find(kernel);
  if (it == history.end()) it = history.emplace(kernel, History{}).first;
  History &h = it->second;
  h.busy_us = busy_us;
  if (workers == 1) {
    ++h.alone;
  } else {
    h.team_cost_us = std::max(0.0, wall_us - busy_us / workers);
    h.alone = 0;
  }
}

}  // namespace mlusim
