// Scalar subscripts of declared on-chip arrays are checked against unfenced
// async copies; addresses, other names and hidden names are left alone
// (tools/cncc/passes/scalar_subscripts.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

// Scalar subscripts of declared on-chip arrays are checked against unfenced
// async copies; addresses, other names and hidden names are left alone.
TEST(ScalarSubscripts, SubscriptOfAFunctionScopeNramArrayIsChecked) {
  const std::string src = "__mlu_global__ void k(float *out) {\n  __nram__ float buf[64];\n"
                          "  out[0] = buf[3] + buf[i + 1];\n}\n";
  const std::string t = out(src);
  EXPECT_NE(t.find("  out[0] = ::mlusim::bang::scalar_at(\"p.mlu:3\", buf[3]) + "
                   "::mlusim::bang::scalar_at(\"p.mlu:3\", buf[i + 1]);\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(lines(t), lines(user(src)));
}

TEST(ScalarSubscripts, AssignedElementIsCheckedAsAStore) {
  const std::string t = out("__mlu_global__ void k() { __nram__ int n[4];\n"
                            "n[0] = 1; n[1] += 2; n[2]++; --n[3]; x = n[0] == 1; n[1] <<= 1; }\n");
  EXPECT_NE(t.find("\n::mlusim::bang::scalar_store_at(\"p.mlu:2\", n[0]) = 1; "
                   "::mlusim::bang::scalar_store_at(\"p.mlu:2\", n[1]) += 2; "
                   "::mlusim::bang::scalar_store_at(\"p.mlu:2\", n[2])++; "
                   "--::mlusim::bang::scalar_store_at(\"p.mlu:2\", n[3]); "
                   "x = ::mlusim::bang::scalar_at(\"p.mlu:2\", n[0]) == 1; "
                   "::mlusim::bang::scalar_store_at(\"p.mlu:2\", n[1]) <<= 1; }"),
            std::string::npos)
      << t;
}

TEST(ScalarSubscripts, FileScopeArraySubscriptWrapsTheCoresInstance) {
  const std::string t = out("__nram__ float buf[64];\n__mlu_global__ void k() { f = buf[2]; }\n");
  EXPECT_NE(t.find("f = ::mlusim::bang::scalar_at(\"p.mlu:2\", "
                   "(::mlusim::bang::onchip_array<float >(mlusim_site_buf, (64)))[2]);"),
            std::string::npos)
      << t;
}

TEST(ScalarSubscripts, TwoDimensionalArrayElementIsCheckedButARowIsNot) {
  const std::string t = out("__wram__ half w[4][64];\n"
                            "__mlu_func__ void f(int r) { g(w[r]); h = w[r][idx[0]]; }\n");
  EXPECT_NE(t.find("g((::mlusim::bang::onchip<half [4][64]>(mlusim_site_w))[r]);"), std::string::npos)
      << t;
  EXPECT_NE(t.find("h = ::mlusim::bang::scalar_at(\"p.mlu:2\", "
                   "(::mlusim::bang::onchip<half [4][64]>(mlusim_site_w))[r][idx[0]]);"),
            std::string::npos)
      << t;
}

TEST(ScalarSubscripts, AddressOfAnElementIsNotAnAccess) {
  const std::string t = out("__mlu_global__ void k(float *g) { __nram__ float buf[64];\n"
                            "  __memcpy(g, &buf[3], 4, NRAM2GDRAM); float *p = buf + 3;"
                            " return &buf[1]; }\n");
  EXPECT_NE(t.find("__memcpy(g, &buf[3], 4, NRAM2GDRAM)"), std::string::npos) << t;
  EXPECT_NE(t.find("float *p = buf + 3; return &buf[1]; }"), std::string::npos) << t;
  EXPECT_EQ(t.find("scalar_at"), std::string::npos) << t;
}

TEST(ScalarSubscripts, AnElementPassedToAnIntrinsicByValueIsARead) {
  const std::string t = out("__mlu_global__ void k(float *d) { __nram__ float s[4];\n"
                            "  __bang_write_value(d, 64, s[0]); }\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\"), __bang_write_value(d, 64, "
                   "::mlusim::bang::scalar_at(\"p.mlu:2\", s[0]))); }"),
            std::string::npos)
      << t;
}

TEST(ScalarSubscripts, AddressOfAnElementAfterACastIsNotAnAccess) {
  const std::string t = out("__mlu_global__ void k() { __nram__ int m[8];\n"
                            "  p = (char *)&m[1]; q = (int)&m[2]; }\n");
  EXPECT_NE(t.find("p = (char *)&m[1]; q = (int)&m[2]; }"), std::string::npos) << t;
}

TEST(ScalarSubscripts, BitwiseOrLogicalAndWithAnElementIsARead) {
  const std::string t = out("__mlu_global__ void k() { __nram__ int m[8];\n"
                            "  x = y & m[1]; z = (y) & m[2]; w = ok && m[3]; }\n");
  EXPECT_NE(t.find("x = y & ::mlusim::bang::scalar_at(\"p.mlu:2\", m[1]); "
                   "z = (y) & ::mlusim::bang::scalar_at(\"p.mlu:2\", m[2]); "
                   "w = ok && ::mlusim::bang::scalar_at(\"p.mlu:2\", m[3]); }"),
            std::string::npos)
      << t;
}

TEST(ScalarSubscripts, PointersAndNamesOfOtherFunctionsAreNotChecked) {
  const std::string t = out("__mlu_global__ void k(float *in) { __nram__ float buf[64]; x = in[0]; }\n"
                            "__mlu_func__ float g(float *buf) { return buf[0]; }\n"
                            "__mlu_func__ float h() { float buf[4] = {}; return buf[1]; }\n");
  EXPECT_NE(t.find("x = in[0];"), std::string::npos) << t;
  EXPECT_NE(t.find("{ return buf[0]; }"), std::string::npos) << t;
  EXPECT_NE(t.find("return buf[1]; }"), std::string::npos) << t;
  EXPECT_EQ(t.find("scalar_at"), std::string::npos) << t;
}

TEST(ScalarSubscripts, ALocalOrParameterHidingTheArrayIsNotChecked) {
  const std::string t = out("template <typename T> __mlu_func__ void k() {\n"
                            "  __nram__ T buf[64];\n"
                            "  { float buf[2]; buf[0] = 1; }\n"
                            "  auto f = [](T *buf) { return buf[1]; };\n"
                            "  buf[5] = 2;\n}\n");
  EXPECT_NE(t.find("{ float buf[2]; buf[0] = 1; }"), std::string::npos) << t;
  EXPECT_NE(t.find("{ return buf[1]; }"), std::string::npos) << t;
  // Outside the inner block and the lambda the name is the on-chip array again.
  EXPECT_NE(t.find("::mlusim::bang::scalar_store_at(\"p.mlu:5\", buf[5]) = 2;"), std::string::npos)
      << t;
}

TEST(ScalarSubscripts, AProductWithAnElementIsNotADeclaration) {
  const std::string t = out("__mlu_global__ void k() { __nram__ float s[4];\n"
                            "  f(a * s[0], b); return s[1]; }\n");
  EXPECT_NE(t.find("f(a * ::mlusim::bang::scalar_at(\"p.mlu:2\", s[0]), b); "
                   "return ::mlusim::bang::scalar_at(\"p.mlu:2\", s[1]); }"),
            std::string::npos)
      << t;
}

}  // namespace
