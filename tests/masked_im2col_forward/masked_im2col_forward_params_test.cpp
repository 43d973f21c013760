// mluOpMaskedIm2colForward's and its workspace query's parameter checks
// (design doc 1.1, 1.4, 3.7): one mutation of a valid call each, rejected
// before any launch, data_col untouched; zero masks succeed without a launch.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/masked_im2col_forward/masked_im2col_forward_test.h"

namespace mluop::masked_im2col_forward::test {
namespace {

struct Call {
  bool null_handle = false;
  bool null_feature_desc = false, null_mask_h_desc = false, null_mask_w_desc = false,
       null_col_desc = false;
  mluOpTensorLayout_t feature_layout = MLUOP_LAYOUT_NCHW;
  mluOpDataType_t feature_dtype = MLUOP_DTYPE_FLOAT, col_dtype = MLUOP_DTYPE_FLOAT;
  mluOpDataType_t mask_h_dtype = MLUOP_DTYPE_INT32, mask_w_dtype = MLUOP_DTYPE_INT32;
  std::vector<int> feature_dims{1, 4, 6, 5};
  std::vector<int> mask_h_dims{3}, mask_w_dims{3};
  std::vector<int> col_dims{4 * 2 * 3, 3};
  int kernel_h = 2, kernel_w = 3, pad_h = 1, pad_w = 0;
  // Pointers: the valid buffers unless one of these says otherwise.
  bool null_feature = false, null_mask_h = false, null_mask_w = false, null_col = false;
  bool null_workspace = false, host_feature = false, col_is_feature = false;
  bool short_workspace_buffer = false;
  long workspace_size_delta = 0;  // added to the queried size
};

struct Outcome {
  mluOpStatus_t status;
  bool col_untouched;
  bool launched;
};

// Builds the call from valid buffers sized for the valid shapes, then runs it.
Outcome run(const Call &k) {
  Handle handle;
  TensorDesc feature_desc(k.feature_layout, k.feature_dtype, k.feature_dims);
  TensorDesc mask_h_desc(MLUOP_LAYOUT_ARRAY, k.mask_h_dtype, k.mask_h_dims);
  TensorDesc mask_w_desc(MLUOP_LAYOUT_ARRAY, k.mask_w_dtype, k.mask_w_dims);
  TensorDesc col_desc(MLUOP_LAYOUT_ARRAY, k.col_dtype, k.col_dims);
  DeviceBuffer<float> feature(4 * 6 * 5);
  DeviceBuffer<int32_t> mask_h(std::vector<int32_t>{0, 3, 5}),
      mask_w(std::vector<int32_t>{1, 2, 4});
  GuardedBuffer<float> col(4 * 2 * 3 * 3);
  const size_t valid_workspace = (4 * 6 * 5 + 4 * 2 * 3 * 3) * sizeof(float);
  DeviceBuffer<char> workspace(k.short_workspace_buffer ? valid_workspace / 2 : valid_workspace);
  std::vector<float> host_memory(4 * 6 * 5);

  const void *feature_ptr = k.null_feature   ? nullptr
                            : k.host_feature ? static_cast<const void *>(host_memory.data())
                                             : feature.get();
  void *col_ptr = k.null_col ? nullptr : k.col_is_feature ? feature.get() : col.get();
  auto pick = [](bool null, const TensorDesc &d) -> mluOpTensorDescriptor_t {
    return null ? nullptr : static_cast<mluOpTensorDescriptor_t>(d);
  };
  const mluOpStatus_t status = mluOpMaskedIm2colForward(
      k.null_handle ? nullptr : static_cast<mluOpHandle_t>(handle),
      pick(k.null_feature_desc, feature_desc), feature_ptr, pick(k.null_mask_h_desc, mask_h_desc),
      k.null_mask_h ? nullptr : mask_h.get(), pick(k.null_mask_w_desc, mask_w_desc),
      k.null_mask_w ? nullptr : mask_w.get(), k.kernel_h, k.kernel_w, k.pad_h, k.pad_w,
      k.null_workspace ? nullptr : workspace.get(), valid_workspace + k.workspace_size_delta,
      pick(k.null_col_desc, col_desc), col_ptr);
  return {status, col.untouched(), anything_launched(handle.queue())};
}

TEST(MaskedIm2colForwardChecks, ValidCallSucceeds) {
  const Outcome o = run(Call{});
  EXPECT_EQ(o.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  EXPECT_FALSE(o.col_untouched);
  EXPECT_TRUE(o.launched);
}

TEST(MaskedIm2colForwardChecks, EveryBadParameterIsRejectedBeforeAnyLaunch) {
  struct Bad {
    const char *what;
    std::function<void(Call &)> mutate;
    mluOpStatus_t status;
  };
  const mluOpStatus_t kBad = MLUOP_STATUS_BAD_PARAM, kUnsupported = MLUOP_STATUS_NOT_SUPPORTED;
  const std::vector<Bad> cases = {
      {"null handle", [](Call &k) { k.null_handle = true; }, kBad},
      {"null feature_desc", [](Call &k) { k.null_feature_desc = true; }, kBad},
      {"null mask_h_idx_desc", [](Call &k) { k.null_mask_h_desc = true; }, kBad},
      {"null mask_w_idx_desc", [](Call &k) { k.null_mask_w_desc = true; }, kBad},
      {"null data_col_desc", [](Call &k) { k.null_col_desc = true; }, kBad},
      {"feature NHWC", [](Call &k) { k.feature_layout = MLUOP_LAYOUT_NHWC; }, kBad},
      {"feature 3 dims",
       [](Call &k) {
         k.feature_dims = {4, 6, 5};
       },
       kBad},
      {"feature int32", [](Call &k) { k.feature_dtype = k.col_dtype = MLUOP_DTYPE_INT32; }, kBad},
      {"data_col half, feature float", [](Call &k) { k.col_dtype = MLUOP_DTYPE_HALF; }, kBad},
      {"mask_h_idx float", [](Call &k) { k.mask_h_dtype = MLUOP_DTYPE_FLOAT; }, kBad},
      {"mask_w_idx int16", [](Call &k) { k.mask_w_dtype = MLUOP_DTYPE_INT16; }, kBad},
      {"feature batch 2",
       [](Call &k) {
         k.feature_dims = {2, 4, 6, 5};
       },
       kBad},
      {"mask_h_idx 2 dims",
       [](Call &k) {
         k.mask_h_dims = {3, 1};
       },
       kBad},
      {"mask_w_idx 2 dims",
       [](Call &k) {
         k.mask_w_dims = {1, 3};
       },
       kBad},
      {"mask lengths differ", [](Call &k) { k.mask_w_dims = {2}; }, kBad},
      {"kernel_h 0", [](Call &k) { k.kernel_h = 0; }, kBad},
      {"kernel_w negative", [](Call &k) { k.kernel_w = -3; }, kBad},
      {"data_col 3 dims",
       [](Call &k) {
         k.col_dims = {24, 3, 1};
       },
       kBad},
      {"data_col dim 0 not C*kh*kw",
       [](Call &k) {
         k.col_dims = {25, 3};
       },
       kBad},
      {"data_col dim 0 for swapped kernel",
       [](Call &k) {
         k.kernel_h = 4;
         k.kernel_w = 1;
       },
       kBad},
      {"data_col dim 1 not mask_cnt",
       [](Call &k) {
         k.col_dims = {24, 4};
       },
       kBad},
      {"feature zero height",
       [](Call &k) {
         k.feature_dims = {1, 4, 0, 5};
       },
       kBad},
      {"feature zero channels, data_col zero rows",
       [](Call &k) {
         k.feature_dims = {1, 0, 6, 5};
         k.col_dims = {0, 3};
       },
       kBad},
      {"feature 2^31 elements",
       [](Call &k) {
         k.feature_dims = {1, 1 << 16, 1 << 15, 1};
         k.col_dims = {6 << 16, 3};
       },
       kUnsupported},
      {"feature beyond 32-bit byte strides",
       [](Call &k) {
         k.feature_dims = {1, 1 << 15, 1 << 15, 1};
         k.col_dims = {6 << 15, 3};
       },
       kUnsupported},
      {"null feature", [](Call &k) { k.null_feature = true; }, kBad},
      {"null mask_h_idx", [](Call &k) { k.null_mask_h = true; }, kBad},
      {"null mask_w_idx", [](Call &k) { k.null_mask_w = true; }, kBad},
      {"null data_col", [](Call &k) { k.null_col = true; }, kBad},
      {"null workspace", [](Call &k) { k.null_workspace = true; }, kBad},
      {"workspace_size one byte short", [](Call &k) { k.workspace_size_delta = -1; }, kBad},
      {"workspace buffer smaller than workspace_size",
       [](Call &k) { k.short_workspace_buffer = true; }, kBad},
      {"feature in host memory", [](Call &k) { k.host_feature = true; }, kBad},
      {"data_col is the feature (in place)", [](Call &k) { k.col_is_feature = true; }, kBad},
  };
  for (const Bad &b : cases) {
    Call k;
    b.mutate(k);
    const Outcome o = run(k);
    EXPECT_EQ(o.status, b.status) << b.what;
    EXPECT_TRUE(o.col_untouched) << b.what;
    EXPECT_FALSE(o.launched) << b.what;
  }
}

// Doc 1.1: mask_cnt 0 is a success that writes nothing (workspace may be NULL).
TEST(MaskedIm2colForwardChecks, ZeroMasksSucceedWithoutLaunching) {
  Call k;
  k.mask_h_dims = k.mask_w_dims = {0};
  k.col_dims = {24, 0};
  k.null_workspace = true;
  const Outcome o = run(k);
  EXPECT_EQ(o.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(o.col_untouched);
  EXPECT_FALSE(o.launched);
}

TEST(MaskedIm2colForwardChecks, WorkspaceQuery) {
  Handle handle;
  TensorDesc feature(MLUOP_LAYOUT_NCHW, MLUOP_DTYPE_HALF, {1, 4, 6, 5});
  TensorDesc masks(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {3});
  TensorDesc col(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_HALF, {24, 3});
  size_t size = 0;
  ASSERT_EQ(
      mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature, masks, masks, 2, 3, col, &size),
      MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(size, (4 * 6 * 5 + 24 * 3) * sizeof(_Float16));
  EXPECT_EQ(
      mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature, masks, masks, 2, 3, col, nullptr),
      MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(
      mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature, masks, masks, 3, 3, col, &size),
      MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(
      mluOpGetMaskedIm2colForwardWorkspaceSize(nullptr, feature, masks, masks, 2, 3, col, &size),
      MLUOP_STATUS_BAD_PARAM);
  TensorDesc no_masks(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {0});
  TensorDesc empty_col(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_HALF, {24, 0});
  size = 77;
  EXPECT_EQ(mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature, no_masks, no_masks, 2, 3,
                                                     empty_col, &size),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(size, 0u);
}

}  // namespace
}  // namespace mluop::masked_im2col_forward::test
