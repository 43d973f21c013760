// Each block of device code charges the operators it computes when it is
// entered; loop conditions count in their bodies, bodies without braces get
// them (tools/cncc/passes/scalar_work.cpp).
// Every expected count is worked out by hand from the code.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

TEST(ScalarWork, ALoopBodyCountsItsConditionAndIncrement) {
  // i < n, i++, +=, * : four operators per iteration; the body's accesses
  // are scalar_accesses' (loads, not operators).
  const std::string src = "__mlu_global__ void k(float *a, int n) {\n"
                          "  for (int i = 0; i < n; i++) {\n    s += a[i] * a[i];\n  }\n}\n";
  const std::string t = out(src);
  EXPECT_NE(t.find("void k(float *a, int n) { ::mlusim::bang::scalar_work(0, 0);\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("for (int i = 0; i < n; i++) { ::mlusim::bang::scalar_work(4, 0);\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(lines(t), lines(user(src)));
}

TEST(ScalarWork, BodiesWithoutBracesGetThem) {
  const std::string t = out("__mlu_func__ void f(int n) {\n"
                            "  for (i = 0; i < n; ++i) for (j = 0; j < m; ++j) s += j;\n"
                            "  while (n--) t = t * 2;\n}\n");
  // Outer: i < n, ++i; inner: j < m, ++j, +=.
  EXPECT_NE(t.find("for (i = 0; i < n; ++i) { ::mlusim::bang::scalar_work(2, 0); "
                   "for (j = 0; j < m; ++j) { ::mlusim::bang::scalar_work(3, 0); s += j; } }\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("while (n--) { ::mlusim::bang::scalar_work(2, 0); t = t * 2; }\n"),
            std::string::npos)
      << t;
}

TEST(ScalarWork, BranchesAreRegionsOfTheirOwnAndElseIfIsTheInnerIfs) {
  const std::string t = out("__mlu_func__ void f(int x) {\n"
                            "  if (x > 0) y = x + 1; else if (x < 0) y = -x; else { y = 0; }\n}\n");
  EXPECT_NE(t.find("{ ::mlusim::bang::scalar_work(2, 0);\n"), std::string::npos) << t;  // >, <
  EXPECT_NE(t.find("if (x > 0) { ::mlusim::bang::scalar_work(1, 0); y = x + 1; } else "
                   "if (x < 0) { ::mlusim::bang::scalar_work(1, 0); y = -x; } else "
                   "{ ::mlusim::bang::scalar_work(0, 0); y = 0; }\n"),
            std::string::npos)
      << t;
}

TEST(ScalarWork, ADoLoopsConditionCountsInItsBody) {
  const std::string t = out("__mlu_func__ void f(int n) {\n  do { n -= 2; } while (n > 0);\n}\n");
  EXPECT_NE(t.find("do { ::mlusim::bang::scalar_work(2, 0); n -= 2; } while (n > 0);"),
            std::string::npos)
      << t;
}

TEST(ScalarWork, DivisionsAndCostlyMathAreDividesCheapMathIsAnOperator) {
  const std::string t = out("__mlu_func__ float f(float x, int i) {\n"
                            "  return x / 3 + i % 4 + expf(x) + fabsf(x);\n}\n");
  EXPECT_NE(t.find("float f(float x, int i) { ::mlusim::bang::scalar_work(4, 3);"),
            std::string::npos)
      << t;
}

TEST(ScalarWork, DeclaratorsAddressesCastsAndAssignmentsAreNotCounted) {
  // Only "a * b" and "==" are operators here.
  const std::string t = out("__mlu_func__ void f(float *p, float &r) {\n"
                            "  float *q = &r; const float &s = *p; int k = static_cast<int>(*q);\n"
                            "  c = (float *)p; v = a * b; ok = v == -1;\n}\n");
  EXPECT_NE(t.find("void f(float *p, float &r) { ::mlusim::bang::scalar_work(2, 0);"),
            std::string::npos)
      << t;
}

TEST(ScalarWork, InitializersClassesAndSwitchBodiesAreNoBlocks) {
  const std::string t = out("__mlu_func__ void f(int x) {\n"
                            "  int a[2][2] = {{1, 2}, {3, 4}}; struct S { int v; } s{1};\n"
                            "  switch (x) { case 0: { x = 1; break; } default: x = x + 2; }\n}\n");
  EXPECT_NE(t.find("int a[2][2] = {{1, 2}, {3, 4}}; struct S { int v; } s{1};"),
            std::string::npos)
      << t;
  // The switch's cases count in the function's block; a braced case is a block.
  EXPECT_NE(t.find("switch (x) { case 0: { ::mlusim::bang::scalar_work(0, 0); x = 1; break; } "
                   "default: x = x + 2; }"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("void f(int x) { ::mlusim::bang::scalar_work(1, 0);"), std::string::npos) << t;
}

TEST(ScalarWork, HostCodeIsLeftAlone) {
  const std::string src = "int main() { for (int i = 0; i < 3; ++i) x += i; return x; }\n";
  EXPECT_EQ(out(src), user(src));
}

}  // namespace
