// The whole translation (tools/cncc/translate.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::translate;

TEST(Translate, SystemHeadersAreLeftAlone) {
  const std::string src = "# 1 \"/usr/include/x.h\" 1 3\n__mlu_func__ int g(); k<<<a, b, c>>>(d);\n"
                          "# 2 \"p.mlu\" 2\nint y;\n";
  auto t = translate(src);
  EXPECT_TRUE(t.errors.empty());
  EXPECT_EQ(t.text, src);
}

}  // namespace
