// masked_im2col_forward in `mlusim demo`: RetinaNet's MaskedConv2d case of the
// design doc (feature [1,256,20,20], 200 masks, 3x3, pad 1) in float and half,
// and a larger map in float, each checked bit for bit against the CPU reference.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_reference.h"
#include "tests/common/testing.h"
#include "tools/demo.h"

namespace {

using mlusim::testing::DeviceBuffer;
using mlusim::testing::Handle;
using mlusim::testing::Random;
using mlusim::testing::TensorDesc;

struct DemoCase {
  int channels, height, width, mask_cnt, kernel, pad;
};

template <typename T>
mlusim::demo::Row run_case(const DemoCase &s) {
  const bool half = sizeof(T) == 2;
  const mluOpDataType_t dtype = half ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  Random rng(7);
  std::vector<int> cells(size_t(s.height) * s.width);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = int(i);
  std::vector<int32_t> h_idx, w_idx;
  for (int m = 0; m < s.mask_cnt; ++m) {  // distinct positions, as a mask yields them
    std::swap(cells[m], cells[rng.integer(m, int(cells.size()) - 1)]);
    h_idx.push_back(cells[m] / s.width);
    w_idx.push_back(cells[m] % s.width);
  }
  const std::vector<float> values = rng.floats(size_t(s.channels) * s.height * s.width, -1, 1);
  const std::vector<T> feature(values.begin(), values.end());
  const int rows = s.channels * s.kernel * s.kernel;

  Handle handle;
  TensorDesc feature_desc(MLUOP_LAYOUT_NCHW, dtype, {1, s.channels, s.height, s.width});
  TensorDesc mask_desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {s.mask_cnt});
  TensorDesc col_desc(MLUOP_LAYOUT_ARRAY, dtype, {rows, s.mask_cnt});
  DeviceBuffer<T> feature_dev(feature), data_col(size_t(rows) * s.mask_cnt);
  DeviceBuffer<int32_t> h_dev(h_idx), w_dev(w_idx);
  size_t workspace_size = 0;
  mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature_desc, mask_desc, mask_desc, s.kernel,
                                           s.kernel, col_desc, &workspace_size);
  DeviceBuffer<char> workspace(workspace_size);

  mlusim::demo::Row row;
  row.op = "masked_im2col_forward";
  row.case_name = "[1," + std::to_string(s.channels) + "," + std::to_string(s.height) + "," +
                  std::to_string(s.width) + "] " + std::to_string(s.mask_cnt) + "m k" +
                  std::to_string(s.kernel) + " p" + std::to_string(s.pad);
  row.dtype = half ? "half" : "float";
  const bool ran = mlusim::demo::run_timed(row, handle, [&] {
    return mluOpMaskedIm2colForward(handle, feature_desc, feature_dev.get(), mask_desc,
                                    h_dev.get(), mask_desc, w_dev.get(), s.kernel, s.kernel,
                                    s.pad, s.pad, workspace.get(), workspace_size, col_desc,
                                    data_col.get());
  });
  if (!ran) return row;
  const std::vector<T> expected = mluop::reference::masked_im2col_forward(
      feature, s.channels, s.height, s.width, h_idx, w_idx, s.kernel, s.kernel, s.pad, s.pad);
  const std::vector<T> got = data_col.download();
  const double diff3 = mlusim::testing::compare(mlusim::testing::to_double(got),
                                                mlusim::testing::to_double(expected),
                                                mlusim::testing::diff3_eps(dtype))
                           .diff3;
  const bool bit_exact = std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)) == 0;
  char accuracy[64];
  std::snprintf(accuracy, sizeof(accuracy), "diff3=%g%s", diff3, bit_exact ? " bit-exact" : "");
  row.accuracy = accuracy;
  row.passed = bit_exact;
  return row;
}

std::vector<mlusim::demo::Row> run_masked_im2col_forward() {
  const DemoCase network{256, 20, 20, 200, 3, 1};
  const DemoCase large_map{256, 100, 152, 4000, 3, 1};
  return {run_case<float>(network), run_case<_Float16>(network), run_case<float>(large_map)};
}

}  // namespace

MLUSIM_DEMO(masked_im2col_forward, run_masked_im2col_forward);
