// A realistic masked_im2col_forward call on the device (distinct mask
// positions, as a network's mask yields them; a random feature), shared by the
// benchmark and the demo.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "mlu_op.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_reference.h"
#include "harness/harness.h"

namespace masked_im2col_testing {

struct Shape {
  int channels, height, width, mask_cnt, kernel, pad;
};

template <typename T>
class NetworkCase {
 public:
  NetworkCase(mluOpHandle_t handle, const Shape &s, uint32_t seed)
      : shape(s),
        dtype(sizeof(T) == 2 ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT),
        rows(s.channels * s.kernel * s.kernel) {
    mlusim::harness::Random rng(seed);
    std::vector<int> cells(size_t(s.height) * s.width);
    for (size_t i = 0; i < cells.size(); ++i) cells[i] = int(i);
    for (int m = 0; m < s.mask_cnt; ++m) {
      std::swap(cells[m], cells[rng.integer(m, int(cells.size()) - 1)]);
      h_idx.push_back(cells[m] / s.width);
      w_idx.push_back(cells[m] % s.width);
    }
    const std::vector<float> values = rng.floats(size_t(s.channels) * s.height * s.width, -1, 1);
    feature.assign(values.begin(), values.end());
    feature_dev = std::make_unique<mlusim::harness::DeviceBuffer<T>>(feature);
    data_col = std::make_unique<mlusim::harness::DeviceBuffer<T>>(size_t(rows) * s.mask_cnt);
    h_dev = std::make_unique<mlusim::harness::DeviceBuffer<int32_t>>(h_idx);
    w_dev = std::make_unique<mlusim::harness::DeviceBuffer<int32_t>>(w_idx);
    mluOpGetMaskedIm2colForwardWorkspaceSize(handle, feature_desc, mask_desc, mask_desc, s.kernel,
                                             s.kernel, col_desc, &workspace_size);
    workspace = std::make_unique<mlusim::harness::DeviceBuffer<char>>(workspace_size);
  }

  // The public call on this case.
  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpMaskedIm2colForward(handle, feature_desc, feature_dev->get(), mask_desc,
                                    h_dev->get(), mask_desc, w_dev->get(), shape.kernel,
                                    shape.kernel, shape.pad, shape.pad, workspace->get(),
                                    workspace_size, col_desc, data_col->get());
  }

  std::vector<T> expected() const {
    return mluop::reference::masked_im2col_forward(feature, shape.channels, shape.height,
                                                   shape.width, h_idx, w_idx, shape.kernel,
                                                   shape.kernel, shape.pad, shape.pad);
  }

  const Shape shape;
  const mluOpDataType_t dtype;
  const int rows;
  std::vector<int32_t> h_idx, w_idx;
  std::vector<T> feature;
  mlusim::harness::TensorDesc feature_desc{
      MLUOP_LAYOUT_NCHW, dtype, {1, shape.channels, shape.height, shape.width}};
  mlusim::harness::TensorDesc mask_desc{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {shape.mask_cnt}};
  mlusim::harness::TensorDesc col_desc{MLUOP_LAYOUT_ARRAY, dtype, {rows, shape.mask_cnt}};
  std::unique_ptr<mlusim::harness::DeviceBuffer<T>> feature_dev, data_col;
  std::unique_ptr<mlusim::harness::DeviceBuffer<int32_t>> h_dev, w_dev;
  size_t workspace_size = 0;
  std::unique_ptr<mlusim::harness::DeviceBuffer<char>> workspace;
};

}  // namespace masked_im2col_testing
