#include "runtime/launch_history.h"

#include <string>
#include <unordered_map>

namespace mlusim {
namespace {

// Below this much host time on its cores, a launch runs faster on one worker
// than on a team of two: waking and joining the team measured 15-25 us on the
// 2-core development machine, and two workers at best halve the cores' time.
constexpr double kWorthATeamUs = 50;

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Looked up by the launch's name without making a string of it.
using BusyByKernel = std::unordered_map<std::string, double, NameHash, std::equal_to<>>;

BusyByKernel &busy_by_kernel() {
  static auto *busy = new BusyByKernel;  // never destroyed: a launch at exit may read it
  return *busy;
}

}  // namespace

bool worth_a_team(std::string_view kernel) {
  const auto &busy = busy_by_kernel();
  const auto it = busy.find(kernel);
  return it == busy.end() || it->second >= kWorthATeamUs;
}

void note_cores_busy(std::string_view kernel, double busy_us) {
  auto &busy = busy_by_kernel();
  const auto it = busy.find(kernel);
  if (it != busy.end())
    it->second = busy_us;
  else
    busy.emplace(kernel, busy_us);
}

}  // namespace mlusim
