// masked_im2col_forward against the CPU reference, bit for bit (diff3 = 0):
// the design doc's network cases, mlu-ops' own small cases, random shapes and
// index sets, indices far outside the feature, every NRAM and task split, and
// every parameter check.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>
#include <string>

#include "mlu_op.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_reference.h"
#include "harness/harness.h"
#include "tests/masked_im2col_forward/test_support.h"

namespace {

using mif_test::first_bit_difference;
using mif_test::GuardedBuffer;
using mlusim::harness::DeviceBuffer;
using mlusim::harness::Handle;
using mlusim::harness::Random;
using mlusim::harness::TensorDesc;

struct Case {
  int channels, height, width;
  int kernel_h, kernel_w, pad_h, pad_w;
  std::vector<int32_t> h_idx, w_idx;
};

std::string describe(const Case &c) {
  return "[1," + std::to_string(c.channels) + "," + std::to_string(c.height) + "," +
         std::to_string(c.width) + "] " + std::to_string(c.h_idx.size()) + " masks, kernel " +
         std::to_string(c.kernel_h) + "x" + std::to_string(c.kernel_w) + ", pad (" +
         std::to_string(c.pad_h) + "," + std::to_string(c.pad_w) + ")";
}

template <typename T>
constexpr mluOpDataType_t dtype_of() {
  return sizeof(T) == 2 ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
}

template <typename T>
std::vector<T> random_feature(const Case &c, Random &rng) {
  const std::vector<float> v =
      rng.floats(static_cast<size_t>(c.channels) * c.height * c.width, -10, 10);
  return std::vector<T>(v.begin(), v.end());
}

// Runs the operator and checks data_col bit for bit against the reference,
// its guard bands, the feature left as it was, and the op report. *diff3, if
// given, receives mlu-ops' diff3 of the same result (what its gtest reports).
template <typename T>
void expect_matches_reference(const Case &c, const std::vector<T> &feature,
                              double *diff3 = nullptr) {
  SCOPED_TRACE(describe(c));
  const mluOpDataType_t dtype = dtype_of<T>();
  const int mask_cnt = static_cast<int>(c.h_idx.size());
  const int rows = c.channels * c.kernel_h * c.kernel_w;
  Handle handle;
  TensorDesc feature_desc(MLUOP_LAYOUT_NCHW, dtype, {1, c.channels, c.height, c.width});
  TensorDesc mask_desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {mask_cnt});
  TensorDesc col_desc(MLUOP_LAYOUT_ARRAY, dtype, {rows, mask_cnt});
  DeviceBuffer<T> feature_dev(feature);
  DeviceBuffer<int32_t> h_dev(c.h_idx), w_dev(c.w_idx);
  size_t workspace_size = 0;
  ASSERT_EQ(
      mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature_desc, mask_desc, mask_desc,
                                               c.kernel_h, c.kernel_w, col_desc, &workspace_size),
      MLUOP_STATUS_SUCCESS);
  // The formula of docs/ops/masked_im2col_forward.md: the NHWC feature and the staging data_col.
  EXPECT_EQ(workspace_size, (feature.size() + size_t(rows) * mask_cnt) * sizeof(T));
  // Stale bytes in the workspace (NaN in half and float): the op must zero what it relies on.
  DeviceBuffer<char> workspace(std::vector<char>(workspace_size, char(0xFF)));
  GuardedBuffer<T> data_col(size_t(rows) * mask_cnt);

  ASSERT_EQ(
      mluOpMaskedIm2colForward(handle, feature_desc, feature_dev.get(), mask_desc, h_dev.get(),
                               mask_desc, w_dev.get(), c.kernel_h, c.kernel_w, c.pad_h, c.pad_w,
                               workspace.get(), workspace_size, col_desc, data_col.get()),
      MLUOP_STATUS_SUCCESS)
      << mlusimGetLastError();

  const std::vector<T> expected =
      mluop::reference::masked_im2col_forward(feature, c.channels, c.height, c.width, c.h_idx,
                                              c.w_idx, c.kernel_h, c.kernel_w, c.pad_h, c.pad_w);
  const std::vector<T> got = data_col.download();
  const long diff = first_bit_difference(got, expected);
  EXPECT_EQ(diff, -1) << "data_col element " << diff << " (row " << diff / mask_cnt << ", mask "
                      << diff % mask_cnt << "): got " << float(got[diff]) << ", expected "
                      << float(expected[diff]);
  EXPECT_TRUE(data_col.guards_intact()) << "data_col written outside its bounds";
  EXPECT_EQ(first_bit_difference(feature_dev.download(), feature), -1) << "feature changed";

  const mlusimReport_t report = handle.last_op_report();
  EXPECT_EQ(report.launches, 4);  // transpose, fill, window copies, permute
  EXPECT_DOUBLE_EQ(report.theory_io_bytes,
                   double((feature.size() + size_t(rows) * mask_cnt) * sizeof(T) +
                          2 * sizeof(int32_t) * mask_cnt));
  EXPECT_GT(report.io_efficiency, 0);
  if (diff3 != nullptr)
    *diff3 = mlusim::harness::compare(mlusim::harness::to_double(got),
                                      mlusim::harness::to_double(expected),
                                      mlusim::harness::diff3_eps(dtype))
                 .diff3;
}

// `count` distinct positions of an H x W map, as a network's mask yields them.
void distinct_positions(int count, int height, int width, Random &rng, Case &c) {
  std::vector<int> cells(static_cast<size_t>(height) * width);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = static_cast<int>(i);
  for (int i = 0; i < count; ++i) {
    std::swap(cells[i], cells[rng.integer(i, static_cast<int>(cells.size()) - 1)]);
    c.h_idx.push_back(cells[i] / width);
    c.w_idx.push_back(cells[i] % width);
  }
}

using Float = mlusim::harness::FloatTag;
using Half = mlusim::harness::HalfTag;
template <typename D>
class MaskedIm2colForward : public ::testing::Test {};
using Dtypes = ::testing::Types<Float, Half>;
TYPED_TEST_SUITE(MaskedIm2colForward, Dtypes);

// Design doc 3.6: feature [1,256,20,20], 200 masks, kernel 3 pad 1 and kernel 1 pad 1.
TYPED_TEST(MaskedIm2colForward, DesignDocNetworkCases) {
  using T = typename TypeParam::T;
  Random rng(1);
  for (int kernel : {3, 1}) {
    Case c{256, 20, 20, kernel, kernel, 1, 1, {}, {}};
    distinct_positions(200, 20, 20, rng, c);
    const auto feature = random_feature<T>(c, rng);
    double diff3 = -1;
    expect_matches_reference(c, feature, &diff3);
    EXPECT_EQ(diff3, 0.0);
  }
}

// mlu-ops' zoo cases: feature [1,8,8,8], 10 masks at negative and edge
// positions, kernel 4x4 pad 1, and kernel 14x14 (windows larger than the map).
TYPED_TEST(MaskedIm2colForward, SmallMapWithEdgeAndNegativeMasks) {
  using T = typename TypeParam::T;
  Random rng(2);
  for (int kernel : {4, 14}) {
    Case c{8,
           8,
           8,
           kernel,
           kernel,
           1,
           1,
           {0, 7, -1, -4, 3, 8, 7, -13, 5, 20},
           {0, 7, 3, -1, -4, 2, 8, -13, 9, 20}};
    expect_matches_reference(c, random_feature<T>(c, rng));
  }
}

TYPED_TEST(MaskedIm2colForward, RandomShapesAndIndexSets) {
  using T = typename TypeParam::T;
  Random rng(3);
  for (int trial = 0; trial < 8; ++trial) {
    Case c{rng.integer(1, 70),
           rng.integer(1, 24),
           rng.integer(1, 24),
           rng.integer(1, 7),
           rng.integer(1, 7),
           rng.integer(-2, 4),
           rng.integer(-2, 4),
           {},
           {}};
    const int mask_cnt = rng.integer(1, 300);
    c.h_idx = rng.ints(mask_cnt, -c.kernel_h - 3, c.height + 3);
    c.w_idx = rng.ints(mask_cnt, -c.kernel_w - 3, c.width + 3);
    expect_matches_reference(c, random_feature<T>(c, rng));
  }
}

// Indices and pads at the ends of int: the window arithmetic must not wrap.
TYPED_TEST(MaskedIm2colForward, IndicesFarOutsideTheFeature) {
  using T = typename TypeParam::T;
  Random rng(4);
  const int32_t big = INT_MAX, small = INT_MIN;
  for (int pad : {0, 2, -3, INT_MAX, INT_MIN}) {
    Case c{5,
           6,
           7,
           3,
           4,
           pad,
           pad,
           {small, big, -1, 0, 5, 6, small, 2, big, -2},
           {big, small, 0, -1, 6, 7, small, 3, big, 9}};
    expect_matches_reference(c, random_feature<T>(c, rng));
  }
}

// A pure IO operator moves NaN, Inf and -0 unchanged; padding is +0.
TYPED_TEST(MaskedIm2colForward, NanInfAndSignedZeroPassThrough) {
  using T = typename TypeParam::T;
  Random rng(5);
  Case c{3, 5, 5, 3, 3, 1, 1, {0, 2, 4, -1, 5}, {0, 2, 4, 4, -1}};
  auto feature = random_feature<T>(c, rng);
  const T specials[] = {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity(), T(-0.0f)};
  for (size_t i = 0; i < feature.size(); i += 3) feature[i] = specials[(i / 3) % 4];
  expect_matches_reference(c, feature);
}

// Fewer masks than cores (idle tasks), a few per core, many per core.
TYPED_TEST(MaskedIm2colForward, MaskCountsAroundTheCoreCount) {
  using T = typename TypeParam::T;
  Random rng(6);
  for (int mask_cnt : {1, 5, 33, 1000}) {
    Case c{9, 12, 10, 3, 2, 1, 0, {}, {}};
    c.h_idx = rng.ints(mask_cnt, -1, 12);
    c.w_idx = rng.ints(mask_cnt, -1, 10);
    expect_matches_reference(c, random_feature<T>(c, rng));
  }
}

// 8 KB of NRAM on one cluster: the index arrays come in several chunks per
// task and both permutes run many tiles in both directions.
TYPED_TEST(MaskedIm2colForward, TinyNramSplitsEverything) {
  using T = typename TypeParam::T;
  mif_test::ScopedDevice device(mif_test::tiny_nram);
  Random rng(7);
  Case c{70, 9, 11, 2, 3, 1, 1, {}, {}};
  c.h_idx = rng.ints(5000, -2, 10);
  c.w_idx = rng.ints(5000, -2, 12);
  expect_matches_reference(c, random_feature<T>(c, rng));
}

// ---------------------------------------------------------------------------
// Parameter checks (design doc 1.1, 1.4, 3.7): one mutation of a valid call each.

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
  return {status, col.untouched(), mif_test::anything_launched(handle.queue())};
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
