// BANG function qualifiers (tools/cncc/passes/qualifiers.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(Qualifiers, FunctionQualifiersBecomePlainAndInlineFunctions) {
  const std::string t = out("__mlu_global__ void k() {}\n__mlu_func__ int f() { return 1; }\n");
  EXPECT_NE(t.find("\n void k() {"), std::string::npos) << t;
  EXPECT_NE(t.find("inline int f()"), std::string::npos) << t;
  EXPECT_EQ(t.find("__mlu_"), std::string::npos) << t;
}

// Each .mlu file is its own module on the device: its device functions are
// its own (static), wherever C++ allows a storage class; one nobody calls is
// no warning (on the device it has external linkage).
TEST(Qualifiers, DeviceFunctionsAtNamespaceScopeAreTheFilesOwn) {
  const std::string t = out("__mlu_func__ int f();\n"
                            "namespace ops { __mlu_device__ int g() { return 1; } }\n"
                            "extern \"C\" { __mlu_vector__ void v(float *x) {} }\n"
                            "template <typename T> __mlu_func__ T h(T x) { return x; }\n");
  const std::string own = "static __attribute__((unused)) inline ";
  EXPECT_NE(t.find(own + "int f();"), std::string::npos) << t;
  EXPECT_NE(t.find("namespace ops { " + own + "int g()"), std::string::npos) << t;
  EXPECT_NE(t.find("{ " + own + "void v(float *x) {"), std::string::npos) << t;
  EXPECT_NE(t.find("template <typename T> " + own + "T h(T x)"), std::string::npos) << t;
}

TEST(Qualifiers, NoStorageClassWhereCxxForbidsOneOrItIsGiven) {
  const std::string t = out("struct S { __mlu_func__ int m(); };\n"
                            "__mlu_func__ int S::m() { return 2; }\n"
                            "template <> __mlu_func__ bool is<float>() { return true; }\n"
                            "template __mlu_func__ void h<half>(half);\n"
                            "static __mlu_func__ int s() { return 3; }\n"
                            "inline __mlu_func__ int i() { return 4; }\n");
  EXPECT_NE(t.find("struct S { inline int m(); };"), std::string::npos) << t;
  EXPECT_NE(t.find("\ninline int S::m()"), std::string::npos) << t;
  EXPECT_NE(t.find("template <> inline bool is<float>()"), std::string::npos) << t;
  EXPECT_NE(t.find("template  void h<half>(half);"), std::string::npos) << t;
  EXPECT_NE(t.find("static inline int s()"), std::string::npos) << t;
  EXPECT_NE(t.find("inline static __attribute__((unused))  int i()"), std::string::npos) << t;
  EXPECT_EQ(t.find("static static"), std::string::npos) << t;
}

}  // namespace
