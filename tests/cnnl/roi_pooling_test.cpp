// RoiPooling (max mode) against a CPU reference written from Caffe's roi_pool
// (corners rounded after scaling, bins split with floor / ceil and clipped,
// the first maximum's pixel h * W + w as argmax, empty bins 0 and -1): random
// maps and rois including inverted and off-map ones, float and half, the
// shape of mlu-ops' gtest case, backward from the forward's argmax, a case
// by hand, zero rois, bad arguments.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

using Dims = std::vector<int64_t>;

struct Config {
  int64_t n, h, w, c, rois, ph, pw;
  float spatial_scale;
  cnnlDataType_t dtype = CNNL_DTYPE_FLOAT;
};

float maybe_half(float v, cnnlDataType_t dtype) {
  return dtype == CNNL_DTYPE_HALF ? mlusim::harness::round_to_half(v) : v;
}

struct Pooled {
  std::vector<double> out;
  std::vector<int32_t> argmax;
};

Pooled forward_reference(const Config &c, const std::vector<float> &map,
                         const std::vector<float> &rois) {
  Pooled p{std::vector<double>(c.rois * c.ph * c.pw * c.c),
           std::vector<int32_t>(c.rois * c.ph * c.pw * c.c)};
  for (int64_t r = 0; r < c.rois; ++r) {
    const float *roi = &rois[r * 5];
    const int64_t batch = static_cast<int64_t>(roi[0]);
    const int64_t x1 = std::lround(roi[1] * c.spatial_scale), y1 = std::lround(roi[2] * c.spatial_scale);
    const int64_t x2 = std::lround(roi[3] * c.spatial_scale), y2 = std::lround(roi[4] * c.spatial_scale);
    const float bin_w = static_cast<float>(std::max<int64_t>(x2 - x1 + 1, 1)) / c.pw;
    const float bin_h = static_cast<float>(std::max<int64_t>(y2 - y1 + 1, 1)) / c.ph;
    for (int64_t ph = 0; ph < c.ph; ++ph)
      for (int64_t pw = 0; pw < c.pw; ++pw) {
        auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
        const int64_t hs = clip(static_cast<int64_t>(std::floor(ph * bin_h)) + y1, c.h);
        const int64_t he = clip(static_cast<int64_t>(std::ceil((ph + 1) * bin_h)) + y1, c.h);
        const int64_t ws = clip(static_cast<int64_t>(std::floor(pw * bin_w)) + x1, c.w);
        const int64_t we = clip(static_cast<int64_t>(std::ceil((pw + 1) * bin_w)) + x1, c.w);
        const bool valid = batch >= 0 && batch < c.n && he > hs && we > ws;
        for (int64_t ch = 0; ch < c.c; ++ch) {
          double best = valid ? -FLT_MAX : 0;
          int32_t arg = -1;
          for (int64_t y = hs; valid && y < he; ++y)
            for (int64_t x = ws; x < we; ++x) {
              const double v = map[((batch * c.h + y) * c.w + x) * c.c + ch];
              if (v > best) best = v, arg = static_cast<int32_t>(y * c.w + x);
            }
          const size_t at = ((r * c.ph + ph) * c.pw + pw) * c.c + ch;
          p.out[at] = best;
          p.argmax[at] = arg;
        }
      }
  }
  return p;
}

std::vector<float> random_rois(const Config &c, uint32_t seed) {
  Random random(seed);
  std::vector<float> rois;
  const float w = c.w / c.spatial_scale, h = c.h / c.spatial_scale;
  for (int64_t r = 0; r < c.rois; ++r) {
    // Corners anywhere around the map: some inverted, some off it.
    const float batch = static_cast<float>(random.integer(0, static_cast<int>(c.n)));  // n: invalid
    for (float v : {batch, random.uniform(-0.2f * w, 1.1f * w), random.uniform(-0.2f * h, 1.1f * h),
                    random.uniform(-0.2f * w, 1.1f * w), random.uniform(-0.2f * h, 1.1f * h)})
      rois.push_back(maybe_half(v, c.dtype));
  }
  return rois;
}

struct Forward {
  cnnlStatus_t status;
  std::vector<float> out;
  std::vector<int32_t> argmax;
};

Forward run_forward(const Handle &handle, const Config &c, const std::vector<float> &map,
                    const std::vector<float> &rois) {
  const Dims out_dims = {c.rois, c.ph, c.pw, c.c};
  DeviceTensor map_t(CNNL_LAYOUT_NHWC, c.dtype, {c.n, c.h, c.w, c.c}, map);
  DeviceTensor rois_t(CNNL_LAYOUT_ARRAY, c.dtype, {c.rois, 5}, rois);
  DeviceTensor out(CNNL_LAYOUT_NHWC, c.dtype, out_dims, std::vector<float>(count_of(out_dims), 9));
  DeviceBuffer<int32_t> argmax(std::vector<int32_t>(count_of(out_dims), 99));
  Forward f;
  f.status = cnnlRoiPoolingForward(handle, CNNL_POOLING_MAX, map_t.desc(), map_t.ptr(),
                                   rois_t.desc(), rois_t.ptr(), c.spatial_scale, out.desc(),
                                   out.ptr(), argmax.get());
  f.out = out.download();
  f.argmax = argmax.download();
  return f;
}

void expect_forward(const Config &c, uint32_t seed) {
  SCOPED_TRACE("map [" + std::to_string(c.n) + "," + std::to_string(c.h) + "," +
               std::to_string(c.w) + "," + std::to_string(c.c) + "] rois " +
               std::to_string(c.rois) + " pooled " + std::to_string(c.ph) + "x" +
               std::to_string(c.pw) + (c.dtype == CNNL_DTYPE_HALF ? " half" : ""));
  std::vector<float> map = Random(seed).floats(c.n * c.h * c.w * c.c, -5, 5);
  for (float &v : map) v = maybe_half(v, c.dtype);
  const std::vector<float> rois = random_rois(c, seed + 1);
  Handle handle;
  const Forward f = run_forward(handle, c, map, rois);
  ASSERT_EQ(f.status, CNNL_STATUS_SUCCESS);
  const Pooled ref = forward_reference(c, map, rois);
  expect_close(f.out, ref.out);
  EXPECT_EQ(f.argmax, ref.argmax);
}

TEST(CnnlRoiPooling, ForwardMatchesReference) {
  expect_forward({16, 64, 64, 68, 10, 1, 1, 1.0f}, 23);  // mlu-ops' case_0 shape
  expect_forward({2, 13, 17, 5, 12, 3, 4, 0.5f}, 1);
  expect_forward({1, 9, 150, 70, 3, 2, 2, 1.0f}, 2);     // bin rows longer than one load
  expect_forward({3, 8, 8, 130, 6, 2, 3, 0.25f, CNNL_DTYPE_HALF}, 3);
}

std::vector<double> backward_reference(const Config &c, const std::vector<float> &grads,
                                       const std::vector<float> &rois,
                                       const std::vector<int32_t> &argmax) {
  std::vector<double> image(c.n * c.h * c.w * c.c, 0.0);
  for (int64_t r = 0; r < c.rois; ++r) {
    const int64_t batch = static_cast<int64_t>(rois[r * 5]);
    if (batch < 0 || batch >= c.n) continue;
    for (int64_t bin = 0; bin < c.ph * c.pw; ++bin)
      for (int64_t ch = 0; ch < c.c; ++ch) {
        const size_t at = (r * c.ph * c.pw + bin) * c.c + ch;
        if (argmax[at] >= 0) image[(batch * c.h * c.w + argmax[at]) * c.c + ch] += grads[at];
      }
  }
  return image;
}

void expect_backward(const Config &c, uint32_t seed) {
  std::vector<float> map = Random(seed).floats(c.n * c.h * c.w * c.c, -5, 5);
  for (float &v : map) v = maybe_half(v, c.dtype);
  const std::vector<float> rois = random_rois(c, seed + 1);
  Handle handle;
  const Forward f = run_forward(handle, c, map, rois);
  ASSERT_EQ(f.status, CNNL_STATUS_SUCCESS);
  const Dims grads_dims = {c.rois, c.ph, c.pw, c.c}, image_dims = {c.n, c.h, c.w, c.c};
  std::vector<float> grads = Random(seed + 2).floats(count_of(grads_dims), -3, 3);
  for (float &v : grads) v = maybe_half(v, c.dtype);
  DeviceTensor grads_t(CNNL_LAYOUT_NHWC, c.dtype, grads_dims, grads);
  DeviceTensor rois_t(CNNL_LAYOUT_ARRAY, c.dtype, {c.rois, 5}, rois);
  Desc argmax_desc(CNNL_LAYOUT_NHWC, CNNL_DTYPE_INT32, grads_dims);
  DeviceBuffer<int32_t> argmax(f.argmax);
  DeviceTensor image(CNNL_LAYOUT_NHWC, c.dtype, image_dims, std::vector<float>(count_of(image_dims), 4));
  ASSERT_EQ(cnnlRoiPoolingBackward(handle, CNNL_POOLING_MAX, grads_t.desc(), grads_t.ptr(),
                                   rois_t.desc(), rois_t.ptr(), argmax_desc, argmax.get(),
                                   c.spatial_scale, image.desc(), image.ptr()),
            CNNL_STATUS_SUCCESS);
  expect_close(image.download(), backward_reference(c, grads, rois, f.argmax),
               c.dtype == CNNL_DTYPE_HALF ? 1e-2 : 3e-3);
}

TEST(CnnlRoiPooling, BackwardFromForwardArgmax) {
  expect_backward({2, 13, 17, 5, 12, 3, 4, 0.5f}, 10);
  expect_backward({1, 6, 6, 130, 20, 2, 2, 1.0f}, 11);  // many rois on one small map
  expect_backward({2, 8, 8, 64, 6, 2, 3, 0.5f, CNNL_DTYPE_HALF}, 12);
}

// By hand: one 4 x 4 roi pooled 2 x 2 on a 6 x 6 map of two channels;
// argmax names the bins' pixels, grads 0..7 land on them.
TEST(CnnlRoiPooling, BackwardByHand) {
  Handle handle;
  DeviceTensor grads(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor rois(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {1, 5}, {0, 0, 0, 3, 3});
  Desc argmax_desc(CNNL_LAYOUT_NHWC, CNNL_DTYPE_INT32, {1, 2, 2, 2});
  DeviceBuffer<int32_t> argmax(std::vector<int32_t>{0, 0, 2, 2, 12, 12, 14, 14});
  DeviceTensor image(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {1, 6, 6, 2}, std::vector<float>(72, 1));
  ASSERT_EQ(cnnlRoiPoolingBackward(handle, CNNL_POOLING_MAX, grads.desc(), grads.ptr(),
                                   rois.desc(), rois.ptr(), argmax_desc, argmax.get(), 1.0f,
                                   image.desc(), image.ptr()),
            CNNL_STATUS_SUCCESS);
  std::vector<float> expected(72, 0.0f);
  for (int k = 0; k < 8; ++k) expected[std::vector<int>{0, 0, 2, 2, 12, 12, 14, 14}[k] * 2 + k % 2] = k;
  EXPECT_EQ(image.download(), expected);
}

TEST(CnnlRoiPooling, ZeroRoisAndBadArguments) {
  Handle handle;
  DeviceTensor map(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {1, 4, 4, 2}, std::vector<float>(32, 1));
  DeviceTensor no_rois(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {0, 5}, {});
  DeviceTensor no_out(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {0, 2, 2, 2}, {});
  EXPECT_EQ(cnnlRoiPoolingForward(handle, CNNL_POOLING_MAX, map.desc(), map.ptr(), no_rois.desc(),
                                  no_rois.ptr(), 1.0f, no_out.desc(), no_out.ptr(), nullptr),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);

  DeviceTensor rois(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {1, 5}, {0, 0, 0, 3, 3});
  DeviceTensor out(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {1, 2, 2, 2}, std::vector<float>(8));
  DeviceBuffer<int32_t> argmax(8);
  const char *api = "cnnlRoiPoolingForward";
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "CNNL_POOLING_MAX",
                 cnnlRoiPoolingForward(handle, CNNL_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                                       map.desc(), map.ptr(), rois.desc(), rois.ptr(), 1.0f,
                                       out.desc(), out.ptr(), argmax.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "spatial_scale",
                 cnnlRoiPoolingForward(handle, CNNL_POOLING_MAX, map.desc(), map.ptr(), rois.desc(),
                                       rois.ptr(), -1.0f, out.desc(), out.ptr(), argmax.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "one row per roi",
                 cnnlRoiPoolingForward(handle, CNNL_POOLING_MAX, map.desc(), map.ptr(),
                                       no_rois.desc(), no_rois.ptr(), 1.0f, out.desc(), out.ptr(),
                                       argmax.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "argmax",
                 cnnlRoiPoolingForward(handle, CNNL_POOLING_MAX, map.desc(), map.ptr(), rois.desc(),
                                       rois.ptr(), 1.0f, out.desc(), out.ptr(), nullptr));
  Desc float_argmax(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {1, 2, 2, 2});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlRoiPoolingBackward", "int32",
                 cnnlRoiPoolingBackward(handle, CNNL_POOLING_MAX, out.desc(), out.ptr(),
                                        rois.desc(), rois.ptr(), float_argmax, argmax.get(), 1.0f,
                                        map.desc(), map.ptr()));
}

}  // namespace
}  // namespace cnnl_test
