#include "runtime/settings.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <vector>

#include <spdlog/fmt/fmt.h>

extern char **environ;

namespace mlusim {

std::vector<std::string_view> comma_items(std::string_view text) {
  std::vector<std::string_view> items;
  while (!text.empty()) {
    const size_t comma = std::min(text.find(','), text.size());
    items.push_back(text.substr(0, comma));
    text.remove_prefix(std::min(comma + 1, text.size()));
  }
  return items;
}

namespace {

// Every MLUSIM_* environment variable anything of mlusim reads (docs/host_api.md
// lists them with their values).
constexpr const char *kKnown[] = {
    "MLUSIM_DEVICE",     "MLUSIM_CLOCK_MHZ",       "MLUSIM_LOG",         "MLUSIM_FILL",
    "MLUSIM_GDRAM_GUARD", "MLUSIM_RACES",          "MLUSIM_SCHEDULE",    "MLUSIM_SCHEDULES",
    "MLUSIM_TRACE_FILTER", "MLUSIM_TRACE_JSON",    "MLUSIM_TRACE_SVG",   "MLUSIM_TRACE_LAUNCH",
    "MLUSIM_WATCHDOG_SECONDS", "MLUSIM_CXX",       "MLUSIM_FUZZ_BUILD",  "MLUSIM_PROCFS_DIR",
    "MLUSIM_HAZARDS",    "MLUSIM_TIMING",         "MLUSIM_CONSTANTS",
};

struct Problems {
  std::mutex mutex;
  std::map<std::string, std::string> invalid;  // by name: what is wrong with its value
  // Whether `invalid` holds any: every launch reads its settings, and with
  // none invalid, taking the lock to find nothing to erase is most of the cost.
  std::atomic<bool> any_invalid{false};
};
Problems &problems() {
  static Problems p;
  return p;
}

std::string known_names() {
  std::string names;
  for (const char *k : kKnown) names += (names.empty() ? "" : ", ") + std::string(k);
  return names;
}

// MLUSIM_* names of the environment that no part of mlusim reads.
std::vector<std::string> unknown_names() {
  std::vector<std::string> unknown;
  for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
    const char *entry = *e;
    // Every launch asks: a first-byte test passes over most of the environment.
    if (entry[0] != 'M' || std::strncmp(entry, "MLUSIM_", 7) != 0) continue;
    const std::string_view name(entry, std::strcspn(entry, "="));
    if (std::none_of(std::begin(kKnown), std::end(kKnown),
                     [&](const char *k) { return name == k; }))
      unknown.emplace_back(name);
  }
  return unknown;
}

}  // namespace

void setting_invalid(const char *name, const char *value, const std::string &valid) {
  Problems &p = problems();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.invalid[name] = fmt::format("{}='{}' is none of the valid values: {}", name, value, valid);
  p.any_invalid.store(true, std::memory_order_release);
}

void setting_valid(const char *name) {
  Problems &p = problems();
  if (!p.any_invalid.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(p.mutex);
  p.invalid.erase(name);
  p.any_invalid.store(!p.invalid.empty(), std::memory_order_release);
}

int NamedChoice::index_of(const char *name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (std::strcmp(name, names_[i]) == 0) return static_cast<int>(i);
  return -1;
}

int NamedChoice::current() const {
  if (const int chosen = chosen_.load(); chosen >= 0) return chosen;
  const char *env = std::getenv(variable_);
  setting_valid(variable_);
  if (env == nullptr) return fallback_;
  const int found = index_of(env);
  if (found < 0) setting_invalid(variable_, env, valid_);
  return found < 0 ? fallback_ : found;
}

std::string NamedChoice::choose(const char *name) {
  const int found = name == nullptr ? -1 : index_of(name);
  if (name != nullptr && found < 0)
    return fmt::format("'{}' is none of the valid values of {}: {}", name, variable_, valid_);
  chosen_ = found;
  return "";
}

std::string settings_problems() {
  Problems &p = problems();
  std::lock_guard<std::mutex> lock(p.mutex);
  std::string out;
  for (const auto &[name, line] : p.invalid) out += (out.empty() ? "" : "; ") + line;
  for (const std::string &name : unknown_names())
    out += fmt::format("{}{} is no setting of mlusim (the settings are {})", out.empty() ? "" : "; ",
                       name, known_names());
  return out;
}

}  // namespace mlusim
