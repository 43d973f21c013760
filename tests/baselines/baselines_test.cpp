// The plain OpenMP implementations the benchmarks measure the simulator
// against (perf/<op>/*_omp.h) compute what the operators' CPU references
// compute: a fast yardstick that computed something else would flatter nothing
// but itself. Each on a design doc's network case (the smallest that runs in
// well under a second), float (and half where the version converts rows),
// with mlu-ops' metrics and the operator's thresholds.
#include <gtest/gtest.h>

#include <vector>

#include "harness/harness.h"
#include "ops/border_align_backward/border_align_backward_cases.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"
#include "ops/psamask/psamask_cases.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_cases.h"
#include "perf/border_align_backward/border_align_backward_omp.h"
#include "perf/deform_roi_pool_forward/deform_roi_pool_forward_omp.h"
#include "perf/masked_im2col_forward/masked_im2col_forward_omp.h"
#include "perf/psamask/psamask_omp.h"
#include "perf/three_interpolate_backward/three_interpolate_backward_omp.h"

namespace {

using mlusim::harness::compare;
using mlusim::harness::Diffs;
using mlusim::harness::to_double;

void expect_within(const std::vector<double> &got, const std::vector<double> &expected,
                   double threshold, mluOpDataType_t dtype = MLUOP_DTYPE_FLOAT) {
  ASSERT_EQ(got.size(), expected.size());
  const Diffs d = compare(got, expected, mlusim::harness::diff3_eps(dtype));
  EXPECT_LE(d.diff1, threshold);
  EXPECT_LE(d.diff2, threshold);
}

// Every network case: the boxes of one image overlap, so the (image, border)
// partition is what keeps their sums apart.
TEST(Baselines, BorderAlignBackward) {
  namespace op = mluop::border_align_backward;
  for (const op::cases::Shape &s : op::cases::kNetworkCases) {
    const op::cases::Problem p = op::cases::random_problem(s, 7);
    std::vector<float> got(p.grad_output.size(), -1.0f);
    op::omp::border_align_backward(s, p.grad_output.data(), p.boxes.data(), p.argmax_idx.data(),
                                   got.data());
    expect_within(to_double(got), p.expected(), op::cases::threshold(MLUOP_DTYPE_FLOAT));
  }
}

// Both dtypes: a half version converts its rows to float (perf/common/float_rows.h).
template <typename T>
void expect_deform_roi_pool_forward(mluOpDataType_t dtype) {
  namespace op = mluop::deform_roi_pool_forward;
  const op::cases::Problem p = op::cases::network_problem(op::cases::kNetworkCases[3], dtype);
  const std::vector<T> input(p.input.begin(), p.input.end()), rois(p.rois.begin(), p.rois.end()),
      offset(p.offset.begin(), p.offset.end());
  std::vector<T> got(p.output_count(), T(-1));
  op::omp::deform_roi_pool_forward(input.data(), rois.data(), offset.data(), got.data(),
                                   p.batches, p.height, p.width, p.channels, p.num_rois,
                                   p.pooled_height, p.pooled_width, p.spatial_scale,
                                   p.sampling_ratio, p.gamma);
  expect_within(to_double(got), p.expected(), op::cases::threshold(dtype), dtype);
}

TEST(Baselines, DeformRoiPoolForward) {
  expect_deform_roi_pool_forward<float>(MLUOP_DTYPE_FLOAT);
  expect_deform_roi_pool_forward<_Float16>(MLUOP_DTYPE_HALF);
}

// A copy: every element exactly.
TEST(Baselines, MaskedIm2colForward) {
  namespace op = mluop::masked_im2col_forward;
  for (const op::cases::NetworkCase &c : {op::cases::kDocKernel3, op::cases::kDocKernel1}) {
    const op::cases::Problem p = op::cases::network_problem(c, 11);
    std::vector<float> got(static_cast<size_t>(p.rows()) * p.mask_cnt(), -1.0f);
    op::omp::masked_im2col_forward(p.feature.data(), p, got.data());
    EXPECT_EQ(got, p.expected<float>());
  }
}

// Both directions and both kinds of mask: a copy, every element exactly.
TEST(Baselines, Psamask) {
  namespace op = mluop::psamask;
  // The second map is wider than DISTRIBUTE's block of 16 points.
  const op::cases::Dims maps[] = {{2, 13, 11, 7, 5}, {1, 6, 37, 5, 9}};
  for (const op::cases::Dims &d : maps)
    for (bool backward : {false, true})
      for (int psa_type : {0, 1}) {
        const op::cases::Problem p = op::cases::random_problem(backward, psa_type, d, 3);
        std::vector<float> got(p.output_elements(), -1.0f);
        if (backward)
          op::omp::backward(psa_type, p.input.data(), got.data(), d);
        else
          op::omp::forward(psa_type, p.input.data(), got.data(), d);
        EXPECT_EQ(got, p.expected()) << p.name();
      }
}

template <typename T>
void expect_three_interpolate_backward(mluOpDataType_t dtype) {
  namespace op = mluop::three_interpolate_backward;
  for (int i : {0, 4}) {
    const op::Shape &k = op::cases::kNetworkCases[i].shape;
    const op::cases::Problem<T> p = op::cases::random_problem<T>(k, 5);
    std::vector<T> got(size_t(k.b) * k.c * k.m, T(-1));
    op::omp::three_interpolate_backward(p.grad_output, p.indices, p.weights, got, k);
    expect_within(to_double(got), p.expected(), op::cases::threshold(dtype), dtype);
  }
}

TEST(Baselines, ThreeInterpolateBackward) {
  expect_three_interpolate_backward<float>(MLUOP_DTYPE_FLOAT);
  expect_three_interpolate_backward<_Float16>(MLUOP_DTYPE_HALF);
}

}  // namespace
