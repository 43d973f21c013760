// What the translation tests share: small preprocessed inputs of a user file
// "p.mlu" and their translation.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tools/cncc/translate.h"

namespace mlusim::cncc::testing {

// A preprocessed user file "p.mlu" starting at line 1.
inline std::string user(const std::string &code) { return "# 1 \"p.mlu\"\n" + code; }

// The translation of `code` as p.mlu, which must have no errors.
inline std::string out(const std::string &code) {
  auto t = translate(user(code));
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  return t.text;
}

inline size_t lines(const std::string &s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace mlusim::cncc::testing
