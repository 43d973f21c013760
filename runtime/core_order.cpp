#include "runtime/core_order.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"

namespace mlusim {

std::string Schedule::name() const {
  switch (order) {
    case Order::kOrdered: return "ordered";
    case Order::kReverse: return "reverse";
    case Order::kRandom: return fmt::format("random:{}", seed);
    case Order::kParallel: break;
  }
  return "parallel";
}

bool parse_schedule(std::string_view text, Schedule *out) {
  Schedule s;
  if (text == "ordered") {
    s.order = Schedule::Order::kOrdered;
  } else if (text == "reverse") {
    s.order = Schedule::Order::kReverse;
  } else if (text == "random") {
    s.order = Schedule::Order::kRandom;
    s.seed = std::random_device{}();
  } else if (text.starts_with("random:")) {
    s.order = Schedule::Order::kRandom;
    const std::string_view digits = text.substr(7);
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), s.seed);
    if (err != std::errc() || end != digits.data() + digits.size() || digits.empty()) return false;
  } else if (text != "parallel") {
    return false;
  }
  *out = s;
  return true;
}

Schedule launch_schedule() {
  Schedule s;
  const char *env = std::getenv("MLUSIM_SCHEDULE");
  if (env != nullptr && !parse_schedule(env, &s))
    setting_invalid("MLUSIM_SCHEDULE", env, "parallel, ordered, reverse, random or random:<seed>");
  else
    setting_valid("MLUSIM_SCHEDULE");
  return s;
}

std::vector<Schedule> schedules_to_compare() {
  const char *env = std::getenv("MLUSIM_SCHEDULES");
  setting_valid("MLUSIM_SCHEDULES");
  if (env == nullptr || *env == '\0') return {};
  std::vector<Schedule> list;
  std::string_view rest = env;
  while (!rest.empty()) {
    const size_t comma = std::min(rest.find(','), rest.size());
    Schedule s;
    if (!parse_schedule(rest.substr(0, comma), &s) || !s.reproducible()) {
      setting_invalid("MLUSIM_SCHEDULES", env,
                      "a comma-separated list of ordered, reverse, random and random:<seed>");
      return {};
    }
    list.push_back(s);
    rest.remove_prefix(std::min(comma + 1, rest.size()));
  }
  return list;
}

size_t CorePicker::pick(size_t ready_count) {
  switch (schedule_.order) {
    case Schedule::Order::kReverse: return ready_count - 1;
    case Schedule::Order::kRandom:
      return std::uniform_int_distribution<size_t>(0, ready_count - 1)(*rng_);
    default: return 0;
  }
}

void CorePicker::order_units(std::vector<std::vector<int>> &units) {
  if (schedule_.order == Schedule::Order::kReverse) std::reverse(units.begin(), units.end());
  if (schedule_.order == Schedule::Order::kRandom) std::shuffle(units.begin(), units.end(), *rng_);
}

}  // namespace mlusim
