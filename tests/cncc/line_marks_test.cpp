// The .mlu line of intrinsic calls (tools/cncc/passes/line_marks.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(LineMarks, IntrinsicCallsInDeviceCodeRecordTheirLine) {
  const std::string t = out("__mlu_global__ void k(float *x) {\n  __bang_add(x, x, x, 64);\n}\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\" \"\\0\" \"3\"), __bang_add(x, x, x, 64));"),
            std::string::npos)
      << t;
}

// Scalar loads and stores, fills and gathers check their operands and log
// their accesses too: each names its own line, not the last __bang_ or
// __sync's, also in a helper a header defines (mlu-ops' nms_rotated stores
// through __store_sram in nms_utils.h).
TEST(LineMarks, ScalarTransfersAndFillsRecordTheirLineInAHeader) {
  const std::string t = out(
      "# 1 \"helpers.h\" 1\n"
      "__mlu_func__ void put(float *p, float v) {\n"
      "  __store_sram(p, v);\n"
      "  __sramset(p, 4, v);\n"
      "  v = __load_gdram<float>(p);\n"
      "}\n"
      "# 2 \"p.mlu\" 2\n"
      "__mlu_global__ void k(float *x) {\n"
      "  __sync_cluster();\n"
      "  put(x, 1.0f);\n"
      "}\n");
  for (const char *marked :
       {"(::mlusim::bang::at(\"helpers.h:2\" \"\\0\" \"3\"), __store_sram(p, v));",
        "(::mlusim::bang::at(\"helpers.h:3\" \"\\0\" \"3\"), __sramset(p, 4, v));",
        "(::mlusim::bang::at(\"helpers.h:4\" \"\\0\" \"7\"), __load_gdram<float>(p));",
        "(::mlusim::bang::at(\"p.mlu:3\" \"\\0\" \"3\"), __sync_cluster());"})
    EXPECT_NE(t.find(marked), std::string::npos) << marked << " not in:\n" << t;
  // The pure functions are no intrinsics that check anything.
  EXPECT_EQ(out("__mlu_func__ bool f(void *p) { return __is_sram(p); }\n").find("bang::at("),
            std::string::npos);
}

// Two calls on one line are two sites: a string each, the column apart.
TEST(LineMarks, EachCallIsASiteOfItsOwn) {
  const std::string t = out("__mlu_global__ void k(float *p) {\n  __store_gdram(p, __load_gdram(p));\n}\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\" \"\\0\" \"3\"), __store_gdram(p, "
                   "(::mlusim::bang::at(\"p.mlu:2\" \"\\0\" \"20\"), __load_gdram(p))));"),
            std::string::npos)
      << t;
}

}  // namespace
