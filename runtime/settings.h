// The MLUSIM_* environment variables. Each is read by the concern it sets
// (MLUSIM_DEVICE by runtime/devices.cpp, MLUSIM_FILL by
// runtime/onchip_memory.cpp, ...); this file knows every name, so that a
// misspelt name or a value none of the valid ones is reported, with the valid
// ones, instead of silently falling back to a default.
#pragma once

#include <atomic>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace mlusim {

// The reader of setting `name` found `value`, which is none of `valid`
// ("ordered, reverse, random or random:<seed>"), or found it valid (a reader
// that reads at every launch says so each time). Thread-safe.
void setting_invalid(const char *name, const char *value, const std::string &valid);
void setting_valid(const char *name);

// "" when every MLUSIM_* variable of the environment is a known setting with a
// valid value; else what is wrong, one sentence a problem. Every launch fails
// with it until it is mended.
std::string settings_problems();

// The items of a comma-separated setting ("a,b=1"), in order; a trailing
// comma adds none, two commas in a row an empty one.
std::vector<std::string_view> comma_items(std::string_view text);

// A setting whose values are names (MLUSIM_HAZARDS, MLUSIM_TIMING): read from
// the environment at every launch unless a mlusimSet* call chose one. `names`
// lists the values in the order of the mode's enumerators, the default first
// in `valid`'s wording ("warn (the default), fault or off").
class NamedChoice {
 public:
  NamedChoice(const char *variable, std::initializer_list<const char *> names, int fallback,
              const char *valid)
      : variable_(variable), names_(names), fallback_(fallback), valid_(valid) {}
  // The chosen value, else the environment's (an unknown one is a settings
  // problem), else the default.
  int current() const;
  // "" when taken (null restores the environment's); for an unknown name, no
  // change and the problem in words, naming the valid values as a bad
  // environment value's problem does.
  std::string choose(const char *name);

 private:
  int index_of(const char *name) const;  // -1: none of the names

  const char *variable_;
  std::vector<const char *> names_;
  int fallback_;
  const char *valid_;
  std::atomic<int> chosen_{-1};  // -1 while the environment decides
};

}  // namespace mlusim
