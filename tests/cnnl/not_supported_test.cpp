// The calls mlu-ops names that mlusim does not simulate return
// CNNL_STATUS_NOT_SUPPORTED with a log line naming the call, whatever their
// arguments (NULL everywhere here), and never crash.
#include <gtest/gtest.h>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

TEST(CnnlNotSupported, DescriptorsAndComputeCallsSaySo) {
  cnnlDCNDescriptor_t dcn = nullptr;
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlCreateDCNDescriptor", "not supported",
                 cnnlCreateDCNDescriptor(&dcn));
  EXPECT_EQ(dcn, nullptr);
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlDCNForward", "not supported",
                 cnnlDCNForward(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr,
                                nullptr));
}

// CNNL 2.x's names that mlu-ops v1.11.1 calls (sparse convolution) and the
// batched and quantized MatMul calls (MatMul itself is simulated: matmul_test).
TEST(CnnlNotSupported, CnnlTwoCallsOfMluOpsOneElevenSaySo) {
  int returned = 7;
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlGetBatchMatMulExAlgoHeuristic", "not supported",
                 cnnlGetBatchMatMulExAlgoHeuristic(nullptr, nullptr, nullptr, nullptr, nullptr,
                                                   nullptr, 1, nullptr, &returned));
  EXPECT_EQ(returned, 7);
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlBatchMatMulEx", "not supported",
                 cnnlBatchMatMulEx(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr, nullptr, nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlQuantizeMatMul", "not supported",
                 cnnlQuantizeMatMul(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                    nullptr, nullptr, nullptr, nullptr, 0));
  int axis[1] = {1};
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlSetReduceDescriptor_v2", "not supported",
                 cnnlSetReduceDescriptor_v2(nullptr, axis, 1, CNNL_REDUCE_ADD, CNNL_DTYPE_INT32,
                                            CNNL_PROPAGATE_NAN, CNNL_REDUCE_NO_INDICES,
                                            CNNL_16BIT_INDICES, 0));
  size_t size = 7;
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlGetReduceOpWorkspaceSize_v2", "not supported",
                 cnnlGetReduceOpWorkspaceSize_v2(nullptr, nullptr, nullptr, nullptr, nullptr,
                                                 &size));
  EXPECT_EQ(size, 7u);
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlReduce_v2", "not supported",
                 cnnlReduce_v2(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                               nullptr, nullptr, nullptr, nullptr));
}

}  // namespace
}  // namespace cnnl_test
