// The calls mlu-ops names that mlusim does not simulate return
// CNNL_STATUS_NOT_SUPPORTED with a log line naming the call, whatever their
// arguments (NULL everywhere here), and never crash.
#include <gtest/gtest.h>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

TEST(CnnlNotSupported, DescriptorsAndComputeCallsSaySo) {
  cnnlMatMulDescriptor_t matmul = nullptr;
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlMatMulDescCreate", "not supported",
                 cnnlMatMulDescCreate(&matmul));
  EXPECT_EQ(matmul, nullptr);
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlDCNForward", "not supported",
                 cnnlDCNForward(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr,
                                nullptr));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlGatherNd", "not supported",
                 cnnlGatherNd(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlTopKTensor_v3", "not supported",
                 cnnlTopKTensor_v3(nullptr, nullptr, nullptr, 1, 0, true, true, true, nullptr, 0,
                                   nullptr, nullptr, nullptr, nullptr));
}

}  // namespace
}  // namespace cnnl_test
