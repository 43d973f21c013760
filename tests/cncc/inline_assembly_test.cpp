// Inline MLISA assembly in device code (tools/cncc/passes/inline_assembly.cpp,
// tools/cncc/mlisa.cpp). Every expected text is written by hand.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::translate;
using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

TEST(InlineAssembly, SyncIsTheFullFence) {
  const std::string src = "__mlu_global__ void k() {\n  __asm__ volatile(\"sync;\");\n}\n";
  const std::string t = out(src);
  EXPECT_NE(t.find("  []() { ::mlusim::bang::at(\"p.mlu:2\"); __sync(); }();\n"), std::string::npos)
      << t;
  EXPECT_EQ(lines(t), lines(user(src)));
}

TEST(InlineAssembly, OperandsAreTheLambdasArgumentsInOrderNamedOrNumbered) {
  const std::string t =
      out("__mlu_func__ void f(unsigned n) {\n  unsigned e = 0;\n"
          "  asm volatile(\"findlast1.gpr.b32 %[dst], %[src];\\n\\t\" : [dst] \"+&r\"(e) : [src] "
          "\"r\"(n * 2));\n"
          "  asm(\"findlast1.gpr.b32 %0, %1;\" : \"=r\"(e) : \"r\"(n));\n}\n");
  EXPECT_NE(t.find("  [](auto &&mlusim_asm_0, auto &&mlusim_asm_1) { ::mlusim::bang::at(\"p.mlu:3\"); "
                   "mlusim_asm_0 = ::mlusim::bang::asm_findlast1(mlusim_asm_1); }(e, n * 2);\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("{ ::mlusim::bang::at(\"p.mlu:4\"); mlusim_asm_0 = "
                   "::mlusim::bang::asm_findlast1(mlusim_asm_1); }(e, n);\n"),
            std::string::npos)
      << t;
}

// "::" is an empty output section; the operand expressions stay in place, so
// the rewrite of a file-scope NRAM array in them holds.
TEST(InlineAssembly, FuseChainWithEmptyOutputsKeepsTheOperandsRewrites) {
  const std::string t = out(
      "__nram__ float buf[64];\n"
      "__mlu_global__ void k(float c) {\n"
      "  __asm__ volatile(\"fuse.nram.f32 [%[dst]], %[n], [%[src]], .mul(%[c]), .sub([%[v]]), "
      ".add(1);\" ::[dst] \"r\"(buf + 32), [n] \"r\"(32), [src] \"r\"(buf), [c] \"r\"(c), [v] "
      "\"r\"(buf));\n}\n");
  EXPECT_NE(t.find("::mlusim::bang::asm_fuse<float>(\"fuse.nram.f32 [%[dst]], %[n], [%[src]], "
                   ".mul(%[c]), .sub([%[v]]), .add(1)\", mlusim_asm_0, mlusim_asm_1, mlusim_asm_2, "
                   "{::mlusim::bang::fuse_scalar<float>(::mlusim::bang::FuseOp::kMul, mlusim_asm_3), "
                   "::mlusim::bang::fuse_vector<float>(::mlusim::bang::FuseOp::kSub, mlusim_asm_4), "
                   "::mlusim::bang::fuse_scalar<float>(::mlusim::bang::FuseOp::kAdd, 1)}); }"
                   "((::mlusim::bang::onchip_array<float >(mlusim_site_buf, (64))) + 32, 32, "
                   "(::mlusim::bang::onchip_array<float >(mlusim_site_buf, (64))), c, "
                   "(::mlusim::bang::onchip_array<float >(mlusim_site_buf, (64))));"),
            std::string::npos)
      << t;
}

TEST(InlineAssembly, DivideByScalarAndGather) {
  const std::string t = out(
      "__mlu_func__ void f(half *d, half *s, half x, int n, int *o) {\n"
      "  __asm__ volatile(\"div.scalar.nram.f16 [%[d]], [%[s]], %[x], %[n];\" :: [d] \"r\"(d), "
      "[s] \"r\"(s), [x] \"r\"(x), [n] \"r\"(n));\n"
      "  __asm__ volatile(\"gather.clean.nram.nram.nram.b32.u32 [%0], [%1], [%2], %3;\" :: "
      "\"r\"(d), \"r\"(s), \"r\"(o), \"r\"(n));\n}\n");
  EXPECT_NE(t.find("::mlusim::bang::asm_fuse<_Float16>(\"div.scalar.nram.f16 [%[d]], [%[s]], "
                   "%[x], %[n]\", mlusim_asm_0, mlusim_asm_3, mlusim_asm_1, "
                   "{::mlusim::bang::fuse_scalar<_Float16>(::mlusim::bang::FuseOp::kDiv, "
                   "mlusim_asm_2)}); }(d, s, x, n);"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("::mlusim::bang::asm_gather_b32(\"gather.clean.nram.nram.nram.b32.u32 [%0], "
                   "[%1], [%2], %3\", mlusim_asm_0, mlusim_asm_1, mlusim_asm_2, mlusim_asm_3); }"
                   "(d, s, o, n);"),
            std::string::npos)
      << t;
}

// A macro from a system header inside the statement brings linemarkers.
TEST(InlineAssembly, LinemarkersBetweenOperandsAreSkipped) {
  const std::string src = "# 1 \"p.mlu\"\n__mlu_func__ void f(unsigned n, unsigned e) {\n"
                          "  asm(\"findlast1.gpr.b32 %0, %1;\" : \"=r\"(e)\n# 1 \"p.mlu\" 3 4\n"
                          " : \"r\"(n)\n# 3 \"p.mlu\"\n);\n}\n";
  const auto t = translate(src);
  ASSERT_TRUE(t.errors.empty()) << t.errors.front();
  EXPECT_NE(t.text.find("mlusim_asm_0 = ::mlusim::bang::asm_findlast1(mlusim_asm_1); }(e"),
            std::string::npos)
      << t.text;
  EXPECT_EQ(lines(t.text), lines(src));
}

// common.h's __mluop_get_indices starts its register with index.vvr.
TEST(InlineAssembly, IndexIntoAVectorRegister) {
  const std::string t = out("__mlu_vector__ void f(float s) {\n  vv_float r;\n"
                            "  __asm__ volatile(\"index.vvr.f32 %[dst], %[base], 1;\\n\\t\" : "
                            "[dst] \"+r\"(r) : [base] \"r\"(s));\n}\n");
  EXPECT_NE(t.find("__vv_index(mlusim_asm_0, mlusim_asm_1, 1); }(r, s);"), std::string::npos) << t;
}

// The gtest harness's LLC flush: a hinted load in a ".volatile{...}" block
// is an async GDRAM2NRAM copy; strides or counts other than 0 are not read.
TEST(InlineAssembly, HintedLoadInAVolatileBlock) {
  const std::string t = out(
      "__mlu_func__ void f(char *b, char *s, int n) { __asm__ volatile(\".volatile{"
      "ld.3d.async.nram.gdram.scmunlock [%[dst]], [%[src]], %[size], 0, 0, 0, 0, 0, 0, 0, 0;}"
      "\\n\\t\" ::[dst] \"r\"(b), [src] \"r\"(s), [size] \"r\"(n)); }\n");
  EXPECT_NE(t.find("__memcpy_async(mlusim_asm_0, mlusim_asm_1, mlusim_asm_2, GDRAM2NRAM); }(b, s, n);"),
            std::string::npos)
      << t;
  const std::string strided = out(
      "__mlu_func__ void f(char *b, char *s) { asm volatile(\"ld.3d.async.nram.gdram.scmlock "
      "[%0], [%1], 64, 64, 1, 0, 0, 0, 0, 0, 0;\" :: \"r\"(b), \"r\"(s)); }\n");
  EXPECT_NE(strided.find("mlusim_unsimulated_asm_"), std::string::npos) << strided;
}

TEST(InlineAssembly, GatherVectorTakesSizeCountAndStride) {
  const std::string t = out(
      "__mlu_func__ void f(float *d, float *s, int *o, int n) { __asm__ volatile("
      "\"gather.vector.nram.nram.nram.u32 [%[dst]], [%[src]], [%[offset]], %[size], %[num], "
      "%[stride];\" ::[dst] \"r\"(d), [src] \"r\"(s), [offset] \"r\"(o), [size] \"i\"(4), "
      "[num] \"r\"(n), [stride] \"i\"(4)); }\n");
  EXPECT_NE(t.find("::mlusim::bang::asm_gather(\"gather.vector.nram.nram.nram.u32 [%[dst]], "
                   "[%[src]], [%[offset]], %[size], %[num], %[stride]\", mlusim_asm_0, "
                   "mlusim_asm_1, mlusim_asm_2, mlusim_asm_3, mlusim_asm_4, mlusim_asm_5); }"
                   "(d, s, o, 4, n, 4);"),
            std::string::npos)
      << t;
}

TEST(InlineAssembly, SeveralInstructionsInOneTemplate) {
  const std::string t = out("__mlu_func__ void f() { asm volatile(\"sync;\\n\\tsync\"); }\n");
  EXPECT_NE(t.find("__sync(); __sync(); }();"), std::string::npos) << t;
}

// Any other instruction calls a function whose declaration, before the
// enclosing declaration (its template head included), carries the error.
TEST(InlineAssembly, AnotherInstructionIsACompileErrorWhereItIsUsed) {
  const std::string t =
      out("int before;\ntemplate <typename T>\n__mlu_func__ void f(T x) {\n"
          "  __asm__ volatile(\"findfirst1.gpr.b32 %[dst], %[base];\\n\\t\" : [dst] \"+r\"(x) : "
          "[base] \"r\"(1.0f));\n}\n");
  const size_t declaration = t.find("void mlusim_unsimulated_asm_");
  ASSERT_NE(declaration, std::string::npos) << t;
  EXPECT_LT(t.find("int before;"), declaration);
  EXPECT_LT(declaration, t.find("template <typename T>"));
  EXPECT_NE(t.find("__attribute__((error(\"mlusim: inline assembly 'findfirst1.gpr.b32 %[dst], "
                   "%[base]' (p.mlu:4) is MLISA, which mlusim does not simulate"),
            std::string::npos)
      << t;
  const std::string name = t.substr(declaration + 5, t.find('(', declaration) - declaration - 5);
  EXPECT_NE(t.find("[](auto &&mlusim_asm_0, auto &&mlusim_asm_1) { " + name + "(); }(x, 1.0f);"),
            std::string::npos)
      << t;
}

TEST(InlineAssembly, BitwiseStepsOnFloatingPointAreNotRun) {
  const std::string t = out("__mlu_func__ void f(float *d) {\n  asm(\"fuse.nram.f32 [%0], 64, "
                            "[%0], .and(1);\" :: \"r\"(d));\n}\n");
  EXPECT_NE(t.find("inline assembly 'fuse.nram.f32 [%0], 64, [%0], .and(1)'"), std::string::npos)
      << t;
}

TEST(InlineAssembly, HostCodeAndAsmLabelsAreLeftAlone) {
  const std::string src = "void host() { asm volatile(\"nop\"); }\n"
                          "__mlu_func__ void f() { register int r asm(\"r1\") = 0; (void)r; }\n";
  const std::string t = out(src);
  EXPECT_NE(t.find("void host() { asm volatile(\"nop\"); }"), std::string::npos) << t;
  EXPECT_NE(t.find("register int r asm(\"r1\") = 0;"), std::string::npos) << t;
}

TEST(InlineAssembly, UnreadableAssemblyIsAnErrorWithItsLine) {
  auto t = translate(user("__mlu_func__ void f(int x) {\n  asm volatile(\"sync\" : x);\n}\n"));
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_NE(t.errors[0].find("p.mlu:2: error: cannot read this inline assembly"), std::string::npos)
      << t.errors[0];
}

}  // namespace
