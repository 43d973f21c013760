// `kernel<<<dim, type, queue>>>(args)` launches (tools/cncc/passes/launches.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::translate;
using mlusim::cncc::testing::lines;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

TEST(Launches, LaunchBecomesACallWithTheConfigurationFirst) {
  const std::string t = out("void host() { k<<<dim, CNRT_FUNC_TYPE_UNION1, q>>>(a, b + 1); }\n");
  EXPECT_NE(t.find("::mlusim::bang::launch(dim, CNRT_FUNC_TYPE_UNION1, q, \"k\", \"p.mlu:1\", "
                   "k, a, b + 1);"),
            std::string::npos)
      << t;
}

TEST(Launches, LaunchOfATemplateKernelWithBracedDimAndNoArguments) {
  const std::string t = out("void h() { ns::k<float, 4><<<{4, 1, 1}, cnrtFuncTypeBlock, 0>>>(); }\n");
  EXPECT_NE(t.find("::mlusim::bang::launch({4, 1, 1}, cnrtFuncTypeBlock, 0, \"ns::k<float, 4>\", "
                   "\"p.mlu:1\", ns::k<float, 4>);"),
            std::string::npos)
      << t;
}

TEST(Launches, ALaunchOverSeveralLinesKeepsEveryLaterLineInPlace) {
  const std::string src = "void h() {\n  k<<<d,\n     t,\n     q>>>(x);\n  after();\n}\n";
  const std::string t = out(src);
  EXPECT_EQ(lines(t), lines(user(src)));
  // after() is still on the fifth line of p.mlu (the sixth of the text).
  size_t pos = 0;
  for (int i = 0; i < 5; ++i) pos = t.find('\n', pos) + 1;
  EXPECT_EQ(t.substr(pos, 9), "  after()") << t;
}

TEST(Launches, MalformedLaunchIsAnErrorWithItsLine) {
  auto t = translate(user("void h() {\n  k<<<d, t, q>>>;\n}\n"));
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_NE(t.errors[0].find("p.mlu:2: error: kernel launch"), std::string::npos) << t.errors[0];
}

// The preprocessor marks tokens of system-header macros with linemarkers, even
// in the middle of a launch; they must not end up inside the rewritten call.
TEST(Launches, LinemarkersInsideALaunchAreDropped) {
  const std::string src = "# 1 \"p.mlu\"\nvoid h() { k<<<dim,\n# 1 \"p.mlu\" 3 4\n BLOCK\n"
                          "# 1 \"p.mlu\"\n, q>>>(x); }\n";
  auto t = translate(src);
  ASSERT_TRUE(t.errors.empty());
  EXPECT_NE(t.text.find("::mlusim::bang::launch(dim, BLOCK , q, \"k\""), std::string::npos) << t.text;
  EXPECT_EQ(std::count(t.text.begin(), t.text.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
}

// cncc deduces a kernel template's arguments from the launch's arguments, as
// in any call: the launch passes a lambda that calls the kernel.
TEST(Launches, AKernelTemplateWithoutTemplateArgumentsIsCalledThroughALambda) {
  const std::string t = out("template <typename T>\n__mlu_global__ void k(T *x, int n) {}\n"
                            "__mlu_global__ void plain(float *x) {}\n"
                            "void h(float *x) {\n  k<<<d, t, q>>>(x, 4);\n  k<float><<<d, t, q>>>(x, 4);\n"
                            "  plain<<<d, t, q>>>(x);\n}\n");
  EXPECT_NE(t.find("  ::mlusim::bang::launch(d, t, q, \"k\", \"p.mlu:5\", "
                   "[](auto &...mlusim_arguments) { k(mlusim_arguments...); }, x, 4);\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("  ::mlusim::bang::launch(d, t, q, \"k<float>\", \"p.mlu:6\", k<float>, x, 4);\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("  ::mlusim::bang::launch(d, t, q, \"plain\", \"p.mlu:7\", plain, x);\n"),
            std::string::npos)
      << t;
}

// mlu-ops' unary-op kernels take their operator's extra arguments as a pack,
// "template <typename In, typename Out, typename... Args>", launched with the
// first template arguments given: the pack is still deduced from the launch.
TEST(Launches, AKernelTemplateEndingInAPackIsCalledThroughALambdaWithItsGivenArguments) {
  const std::string t = out("template <typename In, typename Out, typename... Args>\n"
                            "__mlu_global__ void k(In *x, Args... args) {}\n"
                            "void h(float *x) {\n  k<float, half><<<d, t, q>>>(x, 0.5f);\n}\n");
  EXPECT_NE(t.find("  ::mlusim::bang::launch(d, t, q, \"k<float, half>\", \"p.mlu:4\", "
                   "[](auto &...mlusim_arguments) { k<float, half>(mlusim_arguments...); }, x, "
                   "0.5f);\n"),
            std::string::npos)
      << t;
}

}  // namespace
