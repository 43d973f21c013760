// cncc's pragmas are dropped (tools/cncc/passes/device_pragmas.cpp).
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

TEST(DevicePragmas, UnrollAndBangPragmasAreDroppedOnTheirLines) {
  const std::string src = "#pragma bang walign(64)\nvoid f() {\n#  pragma unroll 4\n"
                          "  for (;;) {}\n}\n";
  const std::string t = out(src);
  EXPECT_EQ(t.find("pragma"), std::string::npos) << t;
  EXPECT_EQ(lines(t), lines(user(src)));
  EXPECT_NE(t.find("\n\n  for"), std::string::npos) << t;  // the pragma's line stays, empty
}

TEST(DevicePragmas, OtherPragmasStay) {
  const std::string t = out("#pragma once\n#pragma GCC unroll 4\n#pragma omp parallel\n"
                            "#pragma unrolled\n");
  EXPECT_NE(t.find("#pragma once\n#pragma GCC unroll 4\n#pragma omp parallel\n#pragma unrolled\n"),
            std::string::npos)
      << t;
}

TEST(DevicePragmas, PragmasOfSystemHeadersStay) {
  const std::string t = out("# 1 \"/usr/include/x.h\" 1 3\n#pragma unroll\n");
  EXPECT_NE(t.find("#pragma unroll"), std::string::npos) << t;
}

}  // namespace
