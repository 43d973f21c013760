// On-chip variable declarations (tools/cncc/passes/onchip_declarations.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::translate;
using mlusim::cncc::testing::out;
using mlusim::cncc::testing::user;

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
  EXPECT_NE(t.find("namespace { [[maybe_unused]] ::mlusim::bang::OnchipSite mlusim_site_sram_buf{::mlusim::Space::kSram, "
                   "\"sram_buf\", \"p.mlu:1\", nullptr}; }"),
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

// On the device each .mlu file is its own module: a file-scope variable is
// the file's own (internal linkage), its initial value copied at each launch.
TEST(OnchipDeclarations, FileScopeVariableIsTheFilesOwnWithItsInitialValue) {
  const std::string t = out("__nram__ int table[4] = {1, 2, 3, 4};\n"
                            "__mlu_global__ void k(int *o) { o[0] = *table; }\n");
  EXPECT_NE(t.find("namespace { const int  mlusim_init_table[4] = {1, 2, 3, 4}; "
                   "[[maybe_unused]] ::mlusim::bang::OnchipSite mlusim_site_table{::mlusim::Space::kNram, \"table\", "
                   "\"p.mlu:1\", &mlusim_init_table}; }"),
            std::string::npos) << t;
  EXPECT_NE(t.find("*(::mlusim::bang::onchip<int [4]>(mlusim_site_table)));"), std::string::npos)
      << t;
}

// "extern __nram__ T buf[];" in headers, then the definition in the .mlu:
// every use, also before the definition, is the definition's variable.
TEST(OnchipDeclarations, ExternDeclarationsReferToTheFilesDefinition) {
  const std::string t = out("extern __nram__ char nram_buffer[];\n"
                            "__mlu_func__ char *head() { return nram_buffer; }\n"
                            "extern __nram__ char nram_buffer[];\n"
                            "__nram__ char nram_buffer[4096];\n"
                            "__mlu_global__ void k() { char *p = nram_buffer + 1; }\n");
  const std::string declared = "namespace { extern ::mlusim::bang::OnchipSite mlusim_site_nram_buffer; }";
  const size_t first = t.find(declared);
  ASSERT_NE(first, std::string::npos) << t;
  EXPECT_NE(t.find(declared, first + 1), std::string::npos) << t;
  EXPECT_NE(t.find("namespace { [[maybe_unused]] ::mlusim::bang::OnchipSite mlusim_site_nram_buffer{"), std::string::npos)
      << t;
  const std::string instance = "(::mlusim::bang::onchip_array<char >(mlusim_site_nram_buffer, (4096)))";
  EXPECT_NE(t.find("return " + instance + "; }"), std::string::npos) << t;
  EXPECT_NE(t.find("char *p = " + instance + " + 1;"), std::string::npos) << t;
}

TEST(OnchipDeclarations, AnExternVariableUsedWithoutADefinitionInTheFileIsAnError) {
  auto t = translate(user("extern __wram__ float w[256];\nextern __nram__ int unused[8];\n"
                          "__mlu_global__ void k() {\n  f(w);\n  g(w);\n}\n"));
  ASSERT_EQ(t.errors.size(), 1u);  // once, at the first use; 'unused' is fine
  EXPECT_NE(t.errors[0].find("p.mlu:4: error: 'w' is declared extern but not defined in this file"),
            std::string::npos)
      << t.errors[0];
}

// mlu-ops' ms_deform_attn names a parameter after the file's WRAM buffer:
// inside that function the name is the parameter, elsewhere the buffer.
TEST(OnchipDeclarations, ALocalOrParameterOfTheNameHidesAFileScopeVariable) {
  const std::string t = out("__wram__ float wram_buffer[64];\n"
                            "template <typename T>\n"
                            "__mlu_func__ void count(T *wram_buffer, int n) { wram_buffer[n] = 1; }\n"
                            "__mlu_func__ void local() { int wram_buffer = 3; wram_buffer += 1; }\n"
                            "__mlu_global__ void k() { count(wram_buffer, 0); }\n");
  EXPECT_NE(t.find("wram_buffer[n]) = 1; }"), std::string::npos) << t;
  EXPECT_NE(t.find("int wram_buffer = 3; wram_buffer += 1; }"), std::string::npos) << t;
  EXPECT_NE(t.find("count((::mlusim::bang::onchip_array<float >(mlusim_site_wram_buffer, (64))), 0); }"),
            std::string::npos)
      << t;
}

}  // namespace
