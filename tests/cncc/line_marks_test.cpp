// The .mlu line of intrinsic calls (tools/cncc/passes/line_marks.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(LineMarks, IntrinsicCallsInDeviceCodeRecordTheirLine) {
  const std::string t = out("__mlu_global__ void k(float *x) {\n  __bang_add(x, x, x, 64);\n}\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\"), __bang_add(x, x, x, 64));"), std::string::npos)
      << t;
}

}  // namespace
