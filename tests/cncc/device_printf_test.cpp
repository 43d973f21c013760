// printf in device code (tools/cncc/passes/device_printf.cpp).
// Every expected text is written by hand from BANG C's meaning.
#include "tests/cncc/translation.h"

namespace {

using mlusim::cncc::testing::out;

TEST(DevicePrintf, PrintfIsTheDevicePrintfOnlyInsideDeviceCode) {
  const std::string t = out("__mlu_global__ void k() { printf(\"%d\", taskId); }\nint main() { printf(\"x\"); }\n");
  EXPECT_NE(t.find("__bang_printf(\"%d\", taskId)"), std::string::npos) << t;
  EXPECT_NE(t.find("int main() { printf(\"x\"); }"), std::string::npos) << t;
}

}  // namespace
