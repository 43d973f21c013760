// BANG function qualifiers (tools/cncc/passes/qualifiers.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(Qualifiers, FunctionQualifiersBecomePlainAndInlineFunctions) {
  const std::string t = out("__mlu_global__ void k() {}\n__mlu_func__ int f() { return 1; }\n");
  EXPECT_NE(t.find(" void k() {}"), std::string::npos) << t;
  EXPECT_NE(t.find("inline int f()"), std::string::npos) << t;
  EXPECT_EQ(t.find("__mlu_"), std::string::npos) << t;
}

}  // namespace
