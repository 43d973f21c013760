// Every element access of device code is wrapped; declarators, addresses,
// unevaluated operands and host code are left alone
// (tools/cncc/passes/scalar_accesses.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include <regex>

#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::user;

// The translation of `code` with each access written short: L(x) for
// ::mlusim::bang::scalar_at("p.mlu:3" "\0" "12", x), S(x) for scalar_store_at,
// U(x) for scalar_update_at, R(x) for scalar_register_update_at (the first
// test spells one out).
std::string out(const std::string &code) {
  std::string t = mlusim::cncc::testing::out(code);
  for (auto [accessor, letter] : {std::pair{"scalar_at", "L("}, std::pair{"scalar_store_at", "S("},
                                  std::pair{"scalar_update_at", "U("},
                                  std::pair{"scalar_register_update_at", "R("}})
    t = std::regex_replace(t, std::regex(std::string(R"(::mlusim::bang::)") + accessor +
                                         R"(\("p\.mlu:[0-9]+" "\\0" "[0-9]+", )"),
                           letter);
  return t;
}

// The translation's line holding `from`, from there on.
std::string line_of(const std::string &t, const std::string &from) {
  const size_t at = t.find(from);
  if (at == std::string::npos) return "(not found: " + from + ")";
  return t.substr(at, t.find('\n', at) - at);
}

TEST(ScalarAccesses, EachAccessIsASiteOfItsOwnItsColumnAfterTheLine) {
  const std::string src = "__mlu_global__ void k(float *out, const float *in) {\n"
                          "  __nram__ float buf[64];\n"
                          "  x = in[i] + buf[3];\n}\n";
  const std::string t = mlusim::cncc::testing::out(src);
  EXPECT_EQ(line_of(t, "  x ="), "  x = ::mlusim::bang::scalar_at(\"p.mlu:3\" \"\\0\" \"7\", in[i]) + "
                                 "::mlusim::bang::scalar_at(\"p.mlu:3\" \"\\0\" \"15\", buf[3]);");
  EXPECT_EQ(lines(t), lines(user(src)));
}

TEST(ScalarAccesses, AssignmentsAreStoresAndCompoundOnesUpdates) {
  const std::string t = out("__mlu_global__ void k(int *n) {\n"
                            "n[0] = 1; n[1] += 2; n[2]++; --n[3]; x = n[0] == 1; n[1] <<= 1; }\n");
  EXPECT_EQ(line_of(t, "S(n[0])"),
            "S(n[0]) = 1; U(n[1]) += 2; U(n[2])++; --U(n[3]); x = L(n[0]) == 1; U(n[1]) <<= 1; }");
}

TEST(ScalarAccesses, AnUpdateItsInnermostLoopDoesNotMoveIsKeptInARegister) {
  const std::string t = out("__mlu_global__ void k(float *r, const float *a, int n, int i) {\n"
                            "for (int x = 0; x < n; x++) { r[i * n + 1] += a[x]; r[x] += 1; }\n"
                            "while (n > 0) { n--; r[n] += 1; s->total += 1; r[f(i)] += 1; }\n"
                            "do { r[i] += 1; } while (--n > 0); r[i] += 1;\n"
                            "for (int x = 0; x < n; x++) *p++ += 1; }\n");
  // x is the loop's; n changes in the while loop; f(i) might not give the
  // same element twice; p moves; the r[i] after the do loop is in no loop.
  EXPECT_NE(t.find("R(r[i * n + 1]) += L(a[x]); U(r[x]) += 1; }"), std::string::npos) << t;
  EXPECT_NE(t.find("n--; U(r[n]) += 1; R(s->total) += 1; U(r[f(i)]) += 1; }"), std::string::npos)
      << t;
  EXPECT_NE(t.find("R(r[i]) += 1; } while (--n > 0); U(r[i]) += 1;"), std::string::npos) << t;
  EXPECT_NE(t.find("U(*p++) += 1;"), std::string::npos) << t;
}

TEST(ScalarAccesses, DereferencesWrapTheirWholeOperand) {
  const std::string t = out("__mlu_func__ void f(float *p, float *q, char *c) {\n"
                            "*p++ = *q++; y = *(p + 2) * *q; z = (int)*p; w = *(float *)c; }\n");
  EXPECT_EQ(line_of(t, "S(*p++)"),
            "S(*p++) = L(*q++); y = L(*(p + 2)) * L(*q); z = (int)L(*p); w = L(*(float *)c); }");
}

TEST(ScalarAccesses, EachLoadOfAChainIsItsOwnAccess) {
  // p[i][j] of a float ** loads a row pointer, then the element; a struct's
  // member rides along with the element it belongs to.
  const std::string t = out("struct S { float x; float v[4]; S *next; };\n"
                            "__mlu_func__ float f(float **p, S *s) {\n"
                            "return p[i][j] + s->v[1] + s->next->x + (*s).x + s[2].x; }\n");
  EXPECT_EQ(line_of(t, "return"),
            "return L(L(p[i])[j]) + L(L(s->v)[1]) + L(L(s->next)->x) + L((*s).x) + L(s[2].x); }");
}

TEST(ScalarAccesses, DeclaratorsAreNoAccesses) {
  const std::string t = out("template <typename T> __mlu_func__ void f(T *in, int n) {\n"
                            "  float a[8]; T *rows[2][4]; int *p = nullptr, *q[3], r[2] = {};\n"
                            "  unsigned long long v = 0, *vp = &v; float (*fp)(int);\n"
                            "  float (*cols)[7] = (float (*)[7])in; const T &ref = in[0];\n}\n");
  EXPECT_EQ(line_of(t, "  float a[8];"),
            "  float a[8]; T *rows[2][4]; int *p = nullptr, *q[3], r[2] = {};");
  EXPECT_EQ(line_of(t, "  unsigned"), "  unsigned long long v = 0, *vp = &v; float (*fp)(int);");
  EXPECT_EQ(line_of(t, "  float (*cols)"),
            "  float (*cols)[7] = (float (*)[7])in; const T &ref = L(in[0]);");
}

TEST(ScalarAccesses, AddressesAreNoAccesses) {
  const std::string t = out("__mlu_global__ void k(float *g, float **pp) {\n"
                            "  __nram__ float buf[64];\n"
                            "  __memcpy(g, &buf[3], 4, NRAM2GDRAM); c = (char *)&g[1]; "
                            "d = &pp[0][2]; e = &*g; }\n");
  EXPECT_EQ(line_of(t, "__memcpy"),
            "__memcpy(g, &buf[3], 4, NRAM2GDRAM)); c = (char *)&g[1]; d = &L(pp[0])[2]; e = &*g; }");
}

// "a * s[0]", "y & m[1]": a product and a bitwise and, not a declarator or an address.
TEST(ScalarAccesses, ProductsAndBitwiseAndsAreNotDeclaratorsOrAddresses) {
  const std::string t = out("__mlu_global__ void k(int *m, float *s) {\n"
                            "  f(a * s[0], b); x = y & m[1]; z = (y) & m[2]; w = ok && *m; }\n");
  EXPECT_EQ(line_of(t, "  f("),
            "  f(a * L(s[0]), b); x = y & L(m[1]); z = (y) & L(m[2]); w = ok && L(*m); }");
}

TEST(ScalarAccesses, StatementsAfterConditionsStartWithTheirAccess) {
  const std::string t = out("__mlu_global__ void k(float *o) {\n  if (n) *o = 1; else o[1] = 2; }\n");
  EXPECT_NE(t.find("S(*o) = 1;"), std::string::npos) << t;
  EXPECT_NE(t.find("S(o[1]) = 2;"), std::string::npos) << t;
}

TEST(ScalarAccesses, LambdasTemplatesAndCallsAreSeenThrough) {
  const std::string t = out("template <typename T> __mlu_func__ T *row(T *p, int i);\n"
                            "template <typename T> __mlu_global__ void k(T *p) {\n"
                            "  auto f = [&](int j) { return p[j]; };\n"
                            "  x = row<T>(p, 2)[1] + static_cast<T *>(p)[3] + int64_t{n} * x;\n}\n");
  EXPECT_EQ(line_of(t, "  auto f"),
            "  auto f = [&](int j) { ::mlusim::bang::scalar_work(0, 0); return L(p[j]); };");
  EXPECT_EQ(line_of(t, "  x ="), "  x = L(row<T>(p, 2)[1]) + L(static_cast<T *>(p)[3]) + int64_t{n} * x;");
}

// A name that was a template's type parameter is any name outside it: a
// product here, not a declarator.
TEST(ScalarAccesses, TemplateParametersNameTypesOnlyInTheirTemplate) {
  const std::string t = out("template <typename T> __mlu_func__ T id(T x) { return x; }\n"
                            "__mlu_func__ int f(int T, int *p) { return T * p[0]; }\n");
  EXPECT_NE(t.find("return T * L(p[0]); }"), std::string::npos) << t;
}

TEST(ScalarAccesses, UnevaluatedOperandsAttributesAndAsmAreLeftAlone) {
  const std::string t = out("__mlu_global__ void k(unsigned *p) {\n"
                            "  n = sizeof(p[0]); decltype(p[0]) r = q; [[maybe_unused]] int u;\n"
                            "  asm(\"findlast1.gpr.b32 %0, %1;\" : \"=r\"(e) : \"r\"(p[0]));\n}\n");
  EXPECT_NE(t.find("n = sizeof(p[0]); decltype(p[0]) r = q; [[maybe_unused]] int u;"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("L("), std::string::npos) << t;
}

TEST(ScalarAccesses, MemberFunctionsAndLambdaIntroducersAreNoAccesses) {
  const std::string t = out("__mlu_global__ void k(V *v) {\n"
                            "  v->clear(); auto g = [v] { return 1; }; delete[] q; }\n");
  EXPECT_EQ(t.find("L("), std::string::npos) << t;
}

TEST(ScalarAccesses, HostCodeIsLeftAlone) {
  const std::string src = "int main() { float h[4]; float *p = h; h[0] = *p; return p[1]; }\n";
  EXPECT_EQ(out(src), user(src));
}

// An alias declared in a function body names a type in that body only: a
// header's "using S = ...;" made mlu-ops' "S * (T + 1)" (S and T int
// parameters) a dereference. One declared in a namespace stays a type.
TEST(ScalarAccesses, AnAliasInABodyEndsWithItsBody) {
  const std::string t = out("inline float g() { using S = float; S x = 1; return x; }\n"
                            "__mlu_func__ void f(int *q, int S, int T) {\n"
                            "  int n = S * (T + 1); q[0] = n; }\n");
  EXPECT_EQ(line_of(t, "  int n"), "  int n = S * (T + 1); S(q[0]) = n; }");
}

TEST(ScalarAccesses, AnAliasInANamespaceStaysAType) {
  const std::string t = out("namespace a { using Index = int; }\n"
                            "namespace a { __mlu_func__ void f(int *q) {\n"
                            "  Index *p = q; *p = 1; } }\n");
  EXPECT_EQ(line_of(t, "  Index"), "  Index *p = q; S(*p) = 1; } }");
}

}  // namespace
