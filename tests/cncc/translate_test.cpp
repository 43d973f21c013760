// The .mlu translation on small preprocessed inputs: every expected text is
// written by hand from BANG C's meaning, and every output keeps its lines.
#include "tools/cncc/translate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using mlusim::cncc::translate;

// A preprocessed user file "p.mlu" starting at line 1.
std::string user(const std::string &code) { return "# 1 \"p.mlu\"\n" + code; }

std::string out(const std::string &code) {
  auto t = translate(user(code));
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  return t.text;
}

size_t lines(const std::string &s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(Translate, LaunchBecomesACallWithTheConfigurationFirst) {
  const std::string t = out("void host() { k<<<dim, CNRT_FUNC_TYPE_UNION1, q>>>(a, b + 1); }\n");
  EXPECT_NE(t.find("::mlusim::bang::launch(dim, CNRT_FUNC_TYPE_UNION1, q, \"k\", \"p.mlu:1\", "
                   "k, a, b + 1);"),
            std::string::npos)
      << t;
}

TEST(Translate, LaunchOfATemplateKernelWithBracedDimAndNoArguments) {
  const std::string t = out("void h() { ns::k<float, 4><<<{4, 1, 1}, cnrtFuncTypeBlock, 0>>>(); }\n");
  EXPECT_NE(t.find("::mlusim::bang::launch({4, 1, 1}, cnrtFuncTypeBlock, 0, \"ns::k<float, 4>\", "
                   "\"p.mlu:1\", ns::k<float, 4>);"),
            std::string::npos)
      << t;
}

TEST(Translate, ALaunchOverSeveralLinesKeepsEveryLaterLineInPlace) {
  const std::string src = "void h() {\n  k<<<d,\n     t,\n     q>>>(x);\n  after();\n}\n";
  const std::string t = out(src);
  EXPECT_EQ(lines(t), lines(user(src)));
  // after() is still on the fifth line of p.mlu (the sixth of the text).
  size_t pos = 0;
  for (int i = 0; i < 5; ++i) pos = t.find('\n', pos) + 1;
  EXPECT_EQ(t.substr(pos, 9), "  after()") << t;
}

TEST(Translate, FunctionQualifiersBecomePlainAndInlineFunctions) {
  const std::string t = out("__mlu_global__ void k() {}\n__mlu_func__ int f() { return 1; }\n");
  EXPECT_NE(t.find(" void k() {}"), std::string::npos) << t;
  EXPECT_NE(t.find("inline int f()"), std::string::npos) << t;
  EXPECT_EQ(t.find("__mlu_"), std::string::npos) << t;
}

TEST(Translate, LocalNramArrayIsThePerCoreInstanceOfItsSite) {
  const std::string t = out("__mlu_global__ void k() { __nram__ float buf[256]; }\n");
  EXPECT_NE(t.find("static ::mlusim::bang::OnchipSite mlusim_site_buf_"), std::string::npos) << t;
  EXPECT_NE(t.find("{::mlusim::Space::kNram, \"buf\", \"p.mlu:1\", nullptr}"), std::string::npos) << t;
  EXPECT_NE(t.find("float *const buf = ::mlusim::bang::onchip_array<float >("), std::string::npos) << t;
  EXPECT_NE(t.find(", (256))"), std::string::npos) << t;
}

TEST(Translate, TwoDimensionalWramArrayAndScalarWithRunTimeInitializer) {
  const std::string t = out("__mlu_func__ void f(int n) { __wram__ half w[4][64]; __nram__ int q = n / 64, r; }\n");
  EXPECT_NE(t.find("half (&w)[4][64] = ::mlusim::bang::onchip<half [4][64]>("), std::string::npos) << t;
  EXPECT_NE(t.find("::mlusim::Space::kWram"), std::string::npos) << t;
  EXPECT_NE(t.find("int (&q) = ::mlusim::bang::onchip<int >("), std::string::npos) << t;
  EXPECT_NE(t.find("::mlusim::bang::assign(q, (n / 64));"), std::string::npos) << t;
  EXPECT_NE(t.find("int (&r) = ::mlusim::bang::onchip<int >("), std::string::npos) << t;
}

TEST(Translate, FileScopeVariableUsesBecomeTheCallingCoresInstance) {
  const std::string t = out("__mlu_shared__ char sram_buf[1024];\n__mlu_global__ void k() { char *p = sram_buf; s.sram_buf = 0; }\n");
  EXPECT_NE(t.find("inline ::mlusim::bang::OnchipSite mlusim_site_sram_buf{::mlusim::Space::kSram"),
            std::string::npos) << t;
  EXPECT_NE(t.find("char *p = (::mlusim::bang::onchip_array<char >(mlusim_site_sram_buf, (1024)));"),
            std::string::npos) << t;
  EXPECT_NE(t.find("s.sram_buf = 0"), std::string::npos) << t;  // a member keeps its name
}

TEST(Translate, PrintfIsTheDevicePrintfOnlyInsideDeviceCode) {
  const std::string t = out("__mlu_global__ void k() { printf(\"%d\", taskId); }\nint main() { printf(\"x\"); }\n");
  EXPECT_NE(t.find("__bang_printf(\"%d\", taskId)"), std::string::npos) << t;
  EXPECT_NE(t.find("int main() { printf(\"x\"); }"), std::string::npos) << t;
}

TEST(Translate, IntrinsicCallsInDeviceCodeRecordTheirLine) {
  const std::string t = out("__mlu_global__ void k(float *x) {\n  __bang_add(x, x, x, 64);\n}\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\"), __bang_add(x, x, x, 64));"), std::string::npos)
      << t;
}

TEST(Translate, HalfLiteralsBecomeHalfValues) {
  const std::string t = out("half h = 3.14h; float f = 2.0f; int x = 0x1f;\n");
  EXPECT_NE(t.find("half h = ((half)3.14);"), std::string::npos) << t;
  EXPECT_NE(t.find("float f = 2.0f; int x = 0x1f;"), std::string::npos) << t;
}

TEST(Translate, SystemHeadersAreLeftAlone) {
  const std::string src = "# 1 \"/usr/include/x.h\" 1 3\n__mlu_func__ int g(); k<<<a, b, c>>>(d);\n"
                          "# 2 \"p.mlu\" 2\nint y;\n";
  auto t = translate(src);
  EXPECT_TRUE(t.errors.empty());
  EXPECT_EQ(t.text, src);
}

TEST(Translate, MalformedLaunchIsAnErrorWithItsLine) {
  auto t = translate(user("void h() {\n  k<<<d, t, q>>>;\n}\n"));
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_NE(t.errors[0].find("p.mlu:2: error: kernel launch"), std::string::npos) << t.errors[0];
}

}  // namespace

namespace {

// The preprocessor marks tokens of system-header macros with linemarkers, even
// in the middle of a launch; they must not end up inside the rewritten call.
TEST(Translate, LinemarkersInsideALaunchAreDropped) {
  const std::string src = "# 1 \"p.mlu\"\nvoid h() { k<<<dim,\n# 1 \"p.mlu\" 3 4\n BLOCK\n"
                          "# 1 \"p.mlu\"\n, q>>>(x); }\n";
  auto t = mlusim::cncc::translate(src);
  ASSERT_TRUE(t.errors.empty());
  EXPECT_NE(t.text.find("::mlusim::bang::launch(dim, BLOCK , q, \"k\""), std::string::npos) << t.text;
  EXPECT_EQ(std::count(t.text.begin(), t.text.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
}

}  // namespace

namespace {

// A helper without a BANG qualifier (as the operators' kernels have) still
// declares its on-chip variables at function scope: one per core, not a
// file-scope name.
TEST(Translate, OnchipDeclarationInAPlainHelperIsFunctionScope) {
  const std::string t = out("template <typename T> void helper(const T &x) {\n"
                            "  __nram__ char buf[SIZE];\n}\n");
  EXPECT_NE(t.find("static ::mlusim::bang::OnchipSite mlusim_site_buf_"), std::string::npos) << t;
  EXPECT_NE(t.find("char *const buf = ::mlusim::bang::onchip_array<char >("), std::string::npos) << t;
  EXPECT_EQ(t.find("inline ::mlusim::bang::OnchipSite"), std::string::npos) << t;
}

}  // namespace

namespace {

// Scalar subscripts of declared on-chip arrays are checked against unfenced
// async copies; addresses, other names and hidden names are left alone.
TEST(Translate, SubscriptOfAFunctionScopeNramArrayIsChecked) {
  const std::string src = "__mlu_global__ void k(float *out) {\n  __nram__ float buf[64];\n"
                          "  out[0] = buf[3] + buf[i + 1];\n}\n";
  const std::string t = out(src);
  EXPECT_NE(t.find("  out[0] = ::mlusim::bang::scalar_at(\"p.mlu:3\", buf[3]) + "
                   "::mlusim::bang::scalar_at(\"p.mlu:3\", buf[i + 1]);\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(lines(t), lines(user(src)));
}

TEST(Translate, AssignedElementIsCheckedAsAStore) {
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

TEST(Translate, FileScopeArraySubscriptWrapsTheCoresInstance) {
  const std::string t = out("__nram__ float buf[64];\n__mlu_global__ void k() { f = buf[2]; }\n");
  EXPECT_NE(t.find("f = ::mlusim::bang::scalar_at(\"p.mlu:2\", "
                   "(::mlusim::bang::onchip_array<float >(mlusim_site_buf, (64)))[2]);"),
            std::string::npos)
      << t;
}

TEST(Translate, TwoDimensionalArrayElementIsCheckedButARowIsNot) {
  const std::string t = out("__wram__ half w[4][64];\n"
                            "__mlu_func__ void f(int r) { g(w[r]); h = w[r][idx[0]]; }\n");
  EXPECT_NE(t.find("g((::mlusim::bang::onchip<half [4][64]>(mlusim_site_w))[r]);"), std::string::npos)
      << t;
  EXPECT_NE(t.find("h = ::mlusim::bang::scalar_at(\"p.mlu:2\", "
                   "(::mlusim::bang::onchip<half [4][64]>(mlusim_site_w))[r][idx[0]]);"),
            std::string::npos)
      << t;
}

TEST(Translate, AddressOfAnElementIsNotAnAccess) {
  const std::string t = out("__mlu_global__ void k(float *g) { __nram__ float buf[64];\n"
                            "  __memcpy(g, &buf[3], 4, NRAM2GDRAM); float *p = buf + 3;"
                            " return &buf[1]; }\n");
  EXPECT_NE(t.find("__memcpy(g, &buf[3], 4, NRAM2GDRAM)"), std::string::npos) << t;
  EXPECT_NE(t.find("float *p = buf + 3; return &buf[1]; }"), std::string::npos) << t;
  EXPECT_EQ(t.find("scalar_at"), std::string::npos) << t;
}

TEST(Translate, AnElementPassedToAnIntrinsicByValueIsARead) {
  const std::string t = out("__mlu_global__ void k(float *d) { __nram__ float s[4];\n"
                            "  __bang_write_value(d, 64, s[0]); }\n");
  EXPECT_NE(t.find("(::mlusim::bang::at(\"p.mlu:2\"), __bang_write_value(d, 64, "
                   "::mlusim::bang::scalar_at(\"p.mlu:2\", s[0]))); }"),
            std::string::npos)
      << t;
}

TEST(Translate, AddressOfAnElementAfterACastIsNotAnAccess) {
  const std::string t = out("__mlu_global__ void k() { __nram__ int m[8];\n"
                            "  p = (char *)&m[1]; q = (int)&m[2]; }\n");
  EXPECT_NE(t.find("p = (char *)&m[1]; q = (int)&m[2]; }"), std::string::npos) << t;
}

TEST(Translate, BitwiseOrLogicalAndWithAnElementIsARead) {
  const std::string t = out("__mlu_global__ void k() { __nram__ int m[8];\n"
                            "  x = y & m[1]; z = (y) & m[2]; w = ok && m[3]; }\n");
  EXPECT_NE(t.find("x = y & ::mlusim::bang::scalar_at(\"p.mlu:2\", m[1]); "
                   "z = (y) & ::mlusim::bang::scalar_at(\"p.mlu:2\", m[2]); "
                   "w = ok && ::mlusim::bang::scalar_at(\"p.mlu:2\", m[3]); }"),
            std::string::npos)
      << t;
}

TEST(Translate, PointersAndNamesOfOtherFunctionsAreNotChecked) {
  const std::string t = out("__mlu_global__ void k(float *in) { __nram__ float buf[64]; x = in[0]; }\n"
                            "__mlu_func__ float g(float *buf) { return buf[0]; }\n"
                            "__mlu_func__ float h() { float buf[4] = {}; return buf[1]; }\n");
  EXPECT_NE(t.find("x = in[0];"), std::string::npos) << t;
  EXPECT_NE(t.find("{ return buf[0]; }"), std::string::npos) << t;
  EXPECT_NE(t.find("return buf[1]; }"), std::string::npos) << t;
  EXPECT_EQ(t.find("scalar_at"), std::string::npos) << t;
}

TEST(Translate, ALocalOrParameterHidingTheArrayIsNotChecked) {
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

TEST(Translate, AProductWithAnElementIsNotADeclaration) {
  const std::string t = out("__mlu_global__ void k() { __nram__ float s[4];\n"
                            "  f(a * s[0], b); return s[1]; }\n");
  EXPECT_NE(t.find("f(a * ::mlusim::bang::scalar_at(\"p.mlu:2\", s[0]), b); "
                   "return ::mlusim::bang::scalar_at(\"p.mlu:2\", s[1]); }"),
            std::string::npos)
      << t;
}

}  // namespace
