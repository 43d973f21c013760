// Half literals (tools/cncc/passes/half_literals.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(HalfLiterals, HalfLiteralsBecomeHalfValues) {
  const std::string t = out("half h = 3.14h; float f = 2.0f; int x = 0x1f;\n");
  EXPECT_NE(t.find("half h = ((half)3.14);"), std::string::npos) << t;
  EXPECT_NE(t.find("float f = 2.0f; int x = 0x1f;"), std::string::npos) << t;
}

}  // namespace
