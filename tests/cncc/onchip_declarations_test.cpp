// On-chip variable declarations (tools/cncc/passes/onchip_declarations.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(OnchipDeclarations, LocalNramArrayIsThePerCoreInstanceOfItsSite) {
  const std::string t = out("__mlu_global__ void k() { __nram__ float buf[256]; }\n");
  EXPECT_NE(t.find("static ::mlusim::bang::OnchipSite mlusim_site_buf_"), std::string::npos) << t;
  EXPECT_NE(t.find("{::mlusim::Space::kNram, \"buf\", \"p.mlu:1\", nullptr}"), std::string::npos) << t;
  EXPECT_NE(t.find("float *const buf = ::mlusim::bang::onchip_array<float >("), std::string::npos) << t;
  EXPECT_NE(t.find(", (256))"), std::string::npos) << t;
}

TEST(OnchipDeclarations, TwoDimensionalWramArrayAndScalarWithRunTimeInitializer) {
  const std::string t = out("__mlu_func__ void f(int n) { __wram__ half w[4][64]; __nram__ int q = n / 64, r; }\n");
  EXPECT_NE(t.find("half (&w)[4][64] = ::mlusim::bang::onchip<half [4][64]>("), std::string::npos) << t;
  EXPECT_NE(t.find("::mlusim::Space::kWram"), std::string::npos) << t;
  EXPECT_NE(t.find("int (&q) = ::mlusim::bang::onchip<int >("), std::string::npos) << t;
  EXPECT_NE(t.find("::mlusim::bang::assign(q, (n / 64));"), std::string::npos) << t;
  EXPECT_NE(t.find("int (&r) = ::mlusim::bang::onchip<int >("), std::string::npos) << t;
}

TEST(OnchipDeclarations, FileScopeVariableUsesBecomeTheCallingCoresInstance) {
  const std::string t = out("__mlu_shared__ char sram_buf[1024];\n__mlu_global__ void k() { char *p = sram_buf; s.sram_buf = 0; }\n");
  EXPECT_NE(t.find("inline ::mlusim::bang::OnchipSite mlusim_site_sram_buf{::mlusim::Space::kSram"),
            std::string::npos) << t;
  EXPECT_NE(t.find("char *p = (::mlusim::bang::onchip_array<char >(mlusim_site_sram_buf, (1024)));"),
            std::string::npos) << t;
  EXPECT_NE(t.find("s.sram_buf = 0"), std::string::npos) << t;  // a member keeps its name
}

// A helper without a BANG qualifier (as the operators' kernels have) still
// declares its on-chip variables at function scope: one per core, not a
// file-scope name.
TEST(OnchipDeclarations, OnchipDeclarationInAPlainHelperIsFunctionScope) {
  const std::string t = out("template <typename T> void helper(const T &x) {\n"
                            "  __nram__ char buf[SIZE];\n}\n");
  EXPECT_NE(t.find("static ::mlusim::bang::OnchipSite mlusim_site_buf_"), std::string::npos) << t;
  EXPECT_NE(t.find("char *const buf = ::mlusim::bang::onchip_array<char >("), std::string::npos) << t;
  EXPECT_EQ(t.find("inline ::mlusim::bang::OnchipSite"), std::string::npos) << t;
}

}  // namespace
