// The MLUSIM_* environment variables. Each is read by the concern it sets
// (MLUSIM_DEVICE by runtime/devices.cpp, MLUSIM_FILL by
// runtime/onchip_memory.cpp, ...); this file knows every name, so that a
// misspelt name or a value none of the valid ones is reported, with the valid
// ones, instead of silently falling back to a default.
#pragma once

#include <string>

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

}  // namespace mlusim
