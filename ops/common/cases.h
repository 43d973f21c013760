// What every operator's cases (ops/<op>/<op>_cases.h) draw their data with: a
// seeded random source and half rounding. Tests, benchmarks and the demo use
// the same (harness/harness.h names them mlusim::harness::Random and
// round_to_half), so a seed means the same data everywhere. Header-only, for
// the cases; the library itself never draws random data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace mluop {

class Random {
 public:
  explicit Random(uint32_t seed) : gen_(seed) {}
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  std::vector<float> floats(size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float &x : v) x = uniform(lo, hi);
    return v;
  }
  std::vector<int> ints(size_t n, int lo, int hi) {
    std::vector<int> v(n);
    for (int &x : v) x = integer(lo, hi);
    return v;
  }

 private:
  std::mt19937 gen_;
};

// Rounds through IEEE binary16, as a half tensor stores a value.
inline float round_to_half(float x) { return static_cast<float>(static_cast<_Float16>(x)); }

}  // namespace mluop
