// RoiAlign forward and backward against a CPU reference written from mmcv's
// roi_align (bilinear samples, sampling_ratio 0 = adaptive grid, aligned's
// half-pixel shift, average and max modes): random maps and boxes, boxes
// reaching past the map, float and half, the shapes of mlu-ops' gtest
// cases, zero rois, bad arguments. Accuracy: diff1 and diff2 <= 3e-3.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

using Dims = std::vector<int64_t>;

struct Config {
  int64_t n, h, w, c;      // feature map
  int64_t rois, ph, pw;    // pooled
  int sampling_ratio;
  float spatial_scale;
  bool aligned;
  int pool_mode;           // 0 max, 1 average
  cnnlDataType_t dtype = CNNL_DTYPE_FLOAT;
};

std::string describe(const Config &c) {
  return "map [" + std::to_string(c.n) + "," + std::to_string(c.h) + "," + std::to_string(c.w) +
         "," + std::to_string(c.c) + "] rois " + std::to_string(c.rois) + " pooled " +
         std::to_string(c.ph) + "x" + std::to_string(c.pw) + " ratio " +
         std::to_string(c.sampling_ratio) + " scale " + std::to_string(c.spatial_scale) +
         (c.aligned ? " aligned" : "") + (c.pool_mode == 0 ? " max" : " avg") +
         (c.dtype == CNNL_DTYPE_HALF ? " half" : "");
}

float maybe_half(float v, cnnlDataType_t dtype) {
  return dtype == CNNL_DTYPE_HALF ? mlusim::harness::round_to_half(v) : v;
}

// Boxes in image coordinates: most inside the scaled map, some reaching past
// its edges, one with an invalid batch index when `bad_batch`.
std::vector<float> random_boxes(const Config &c, uint32_t seed, bool bad_batch = false) {
  Random random(seed);
  std::vector<float> boxes;
  const float w = c.w / c.spatial_scale, h = c.h / c.spatial_scale;
  for (int64_t r = 0; r < c.rois; ++r) {
    const float x1 = random.uniform(-0.2f * w, 0.9f * w), y1 = random.uniform(-0.2f * h, 0.9f * h);
    const float x2 = x1 + random.uniform(0, 0.8f * w), y2 = y1 + random.uniform(0, 0.8f * h);
    const float batch = bad_batch && r == 1 ? static_cast<float>(c.n) : random.integer(0, c.n - 1);
    for (float v : {batch, x1, y1, x2, y2}) boxes.push_back(maybe_half(v, c.dtype));
  }
  return boxes;
}

// mmcv's sample grid of one roi, the geometry of the reference.
struct Grid {
  float start_w, start_h, bin_w, bin_h;
  int grid_h, grid_w;
  int64_t batch;
};
Grid grid_of(const Config &c, const float *box, int64_t pooled_h, int64_t pooled_w) {
  const float offset = c.aligned ? 0.5f : 0.0f;
  Grid g;
  g.batch = static_cast<int64_t>(box[0]);
  g.start_w = box[1] * c.spatial_scale - offset;
  g.start_h = box[2] * c.spatial_scale - offset;
  float roi_w = box[3] * c.spatial_scale - offset - g.start_w;
  float roi_h = box[4] * c.spatial_scale - offset - g.start_h;
  if (!c.aligned) {
    roi_w = std::max(roi_w, 1.0f);
    roi_h = std::max(roi_h, 1.0f);
  }
  g.bin_w = roi_w / pooled_w;
  g.bin_h = roi_h / pooled_h;
  g.grid_h = c.sampling_ratio > 0 ? c.sampling_ratio : static_cast<int>(std::ceil(g.bin_h));
  g.grid_w = c.sampling_ratio > 0 ? c.sampling_ratio : static_cast<int>(std::ceil(g.bin_w));
  return g;
}

// The weighted corners of a sample; none outside the map.
struct Corner {
  int64_t y, x;
  double w;
};
std::vector<Corner> corners(int64_t height, int64_t width, float y, float x) {
  if (y < -1.0f || y > height || x < -1.0f || x > width) return {};
  y = std::max(y, 0.0f);
  x = std::max(x, 0.0f);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= height - 1) y0 = y1 = height - 1, y = static_cast<float>(y0);
  if (x0 >= width - 1) x0 = x1 = width - 1, x = static_cast<float>(x0);
  const double ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
  return {{y0, x0, hy * hx}, {y0, x1, hy * lx}, {y1, x0, ly * hx}, {y1, x1, ly * lx}};
}

float sample_at(const Grid &g, int64_t bin, float bin_size, int i, int grid, bool vertical) {
  const float start = vertical ? g.start_h : g.start_w;
  return start + bin * bin_size + (i + 0.5) * bin_size / grid;
}

struct Forward {
  std::vector<double> out, arg_x, arg_y;
};

Forward forward_reference(const Config &c, const std::vector<float> &map,
                          const std::vector<float> &boxes) {
  const size_t total = c.rois * c.ph * c.pw * c.c;
  Forward f{std::vector<double>(total, 0), std::vector<double>(total, -1),
            std::vector<double>(total, -1)};
  for (int64_t r = 0; r < c.rois; ++r) {
    const Grid g = grid_of(c, &boxes[r * 5], c.ph, c.pw);
    if (g.batch < 0 || g.batch >= c.n) continue;  // documented: zeros, argmax -1
    for (int64_t ph = 0; ph < c.ph; ++ph)
      for (int64_t pw = 0; pw < c.pw; ++pw)
        for (int64_t ch = 0; ch < c.c; ++ch) {
          double acc = c.pool_mode == 0 ? -FLT_MAX : 0, ax = -1, ay = -1;
          for (int iy = 0; iy < g.grid_h; ++iy) {
            const float y = sample_at(g, ph, g.bin_h, iy, g.grid_h, true);
            for (int ix = 0; ix < g.grid_w; ++ix) {
              const float x = sample_at(g, pw, g.bin_w, ix, g.grid_w, false);
              double v = 0;
              for (const Corner &k : corners(c.h, c.w, y, x))
                v += k.w * map[((g.batch * c.h + k.y) * c.w + k.x) * c.c + ch];
              if (c.pool_mode == 1) {
                acc += v;
              } else if (v > acc) {
                acc = v, ax = x, ay = y;
              }
            }
          }
          if (c.pool_mode == 1) acc /= std::max(g.grid_h * g.grid_w, 1);
          const size_t at = ((r * c.ph + ph) * c.pw + pw) * c.c + ch;
          f.out[at] = acc;
          f.arg_x[at] = ax;
          f.arg_y[at] = ay;
        }
  }
  return f;
}

// A tensor of the config's dtype: NHWC when 4-D, else an array.
struct Tensor : DeviceTensor {
  Tensor(const Config &c, const Dims &dims, const std::vector<float> &values)
      : DeviceTensor(dims.size() == 4 ? CNNL_LAYOUT_NHWC : CNNL_LAYOUT_ARRAY, c.dtype, dims,
                     values) {}
};

struct Outputs {
  cnnlStatus_t status;
  std::vector<float> out, arg_x, arg_y;
};

Outputs run_forward(const Handle &handle, const Config &c, const std::vector<float> &map,
                    const std::vector<float> &boxes) {
  const Dims out_dims = {c.rois, c.ph, c.pw, c.c};
  const std::vector<float> start(count_of(out_dims), 7.0f);
  Tensor map_t(c, {c.n, c.h, c.w, c.c}, map), boxes_t(c, {c.rois, 5}, boxes);
  Tensor out(c, out_dims, start), arg_x(c, out_dims, start), arg_y(c, out_dims, start);
  cnnlRoiAlignDescriptor_t desc = nullptr;
  cnnlCreateRoiAlignDescriptor(&desc);
  cnnlSetRoiAlignDescriptor_v2(desc, static_cast<int>(c.ph), static_cast<int>(c.pw),
                               c.sampling_ratio, c.spatial_scale, c.pool_mode, c.aligned);
  // Average mode: argmax descriptors created but never set, as mlu-ops passes them.
  Desc unset(Desc::Unset{});
  const bool max_mode = c.pool_mode == 0;
  Outputs o;
  o.status = cnnlRoiAlign_v2(handle, desc, map_t.desc(), map_t.ptr(), boxes_t.desc(),
                             boxes_t.ptr(), out.desc(), out.ptr(),
                             max_mode ? arg_x.desc() : unset, max_mode ? arg_x.ptr() : nullptr,
                             max_mode ? arg_y.desc() : unset, max_mode ? arg_y.ptr() : nullptr);
  cnnlDestroyRoiAlignDescriptor(desc);
  o.out = out.download();
  o.arg_x = arg_x.download();
  o.arg_y = arg_y.download();
  return o;
}

void expect_forward(const Config &c, uint32_t seed, bool bad_batch = false) {
  SCOPED_TRACE(describe(c));
  std::vector<float> map = Random(seed).floats(c.n * c.h * c.w * c.c, -2, 2);
  for (float &v : map) v = maybe_half(v, c.dtype);
  const std::vector<float> boxes = random_boxes(c, seed + 1, bad_batch);
  Handle handle;
  const Outputs o = run_forward(handle, c, map, boxes);
  ASSERT_EQ(o.status, CNNL_STATUS_SUCCESS);
  const Forward ref = forward_reference(c, map, boxes);
  expect_close(o.out, ref.out);
  if (c.pool_mode == 0) {
    expect_close(o.arg_x, ref.arg_x);
    expect_close(o.arg_y, ref.arg_y);
  }
}

TEST(CnnlRoiAlign, AverageMode) {
  expect_forward({2, 9, 11, 70, 6, 3, 4, 2, 0.5f, false, 1}, 1);
  expect_forward({2, 9, 11, 70, 6, 3, 4, 0, 0.5f, true, 1}, 2);
  expect_forward({1, 16, 16, 3, 5, 7, 7, 0, 1.0f, false, 1}, 3);
  expect_forward({3, 6, 5, 200, 4, 2, 2, 3, 0.25f, true, 1, CNNL_DTYPE_HALF}, 4);
}

TEST(CnnlRoiAlign, MaxModeWithArgmax) {
  expect_forward({1, 10, 12, 13, 2, 5, 5, 0, 0.14676f, false, 0}, 5);  // mlu-ops' case_2 shape
  expect_forward({2, 8, 8, 130, 5, 2, 3, 2, 1.0f, true, 0}, 6);
  expect_forward({1, 7, 9, 64, 3, 3, 3, 1, 0.5f, false, 0, CNNL_DTYPE_HALF}, 7);
}

TEST(CnnlRoiAlign, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    DevicePreset device(name);
    expect_forward({2, 9, 11, 300, 3, 3, 4, 2, 0.5f, false, 1}, 14);
    expect_forward({2, 8, 8, 130, 5, 2, 3, 2, 1.0f, true, 0}, 15);
  }
}

// A box whose batch index is outside the map's batch gives zeros (argmax -1).
TEST(CnnlRoiAlign, InvalidBatchIndexGivesZeros) {
  expect_forward({2, 9, 11, 8, 3, 3, 4, 2, 0.5f, false, 1}, 8, true);
  expect_forward({2, 9, 11, 8, 3, 3, 4, 2, 0.5f, false, 0}, 9, true);
}

// mlu-ops' case_4: one box over a whole [1, 80, 80, 2048] map, one bin, an
// adaptive 80 x 80 grid: the channels are split across cores. A *Large suite:
// not in the sanitizer job, where it takes minutes (.ci/run).
TEST(CnnlRoiAlignLarge, OneBinManySamples) {
  const Config c{1, 80, 80, 2048, 1, 1, 1, 0, 1.0f, false, 1};
  const std::vector<float> map = Random(25).floats(80 * 80 * 2048, -2, 2);
  const std::vector<float> boxes = {0, 0, 0, 80, 80};
  Handle handle;
  const Outputs o = run_forward(handle, c, map, boxes);
  ASSERT_EQ(o.status, CNNL_STATUS_SUCCESS);
  expect_close(o.out, forward_reference(c, map, boxes).out);
}

// ---- Backward ----------------------------------------------------------

// grads [rois, ph, pw, c] back onto [n, h, w, c]: the transpose of the
// forward's weights (average), or of the argmax samples (max).
std::vector<double> backward_reference(const Config &c, const std::vector<float> &grads,
                                       const std::vector<float> &boxes,
                                       const std::vector<float> &arg_x,
                                       const std::vector<float> &arg_y) {
  std::vector<double> image(c.n * c.h * c.w * c.c, 0.0);
  auto add = [&](int64_t batch, const Corner &k, int64_t ch, double v) {
    image[((batch * c.h + k.y) * c.w + k.x) * c.c + ch] += k.w * v;
  };
  for (int64_t r = 0; r < c.rois; ++r) {
    const Grid g = grid_of(c, &boxes[r * 5], c.ph, c.pw);
    if (g.batch < 0 || g.batch >= c.n) continue;
    for (int64_t ph = 0; ph < c.ph; ++ph)
      for (int64_t pw = 0; pw < c.pw; ++pw)
        for (int64_t ch = 0; ch < c.c; ++ch) {
          const size_t at = ((r * c.ph + ph) * c.pw + pw) * c.c + ch;
          if (c.pool_mode == 0) {
            if (arg_y[at] == -1.0f) continue;
            for (const Corner &k : corners(c.h, c.w, arg_y[at], arg_x[at]))
              add(g.batch, k, ch, grads[at]);
            continue;
          }
          const double count = g.grid_h * g.grid_w;
          for (int iy = 0; iy < g.grid_h; ++iy)
            for (int ix = 0; ix < g.grid_w; ++ix)
              for (const Corner &k :
                   corners(c.h, c.w, sample_at(g, ph, g.bin_h, iy, g.grid_h, true),
                           sample_at(g, pw, g.bin_w, ix, g.grid_w, false)))
                add(g.batch, k, ch, grads[at] / count);
        }
  }
  return image;
}

// v1 (average only) or v2; max mode takes its argmax from the forward.
void expect_backward(const Config &c, uint32_t seed, bool v2) {
  SCOPED_TRACE(describe(c) + (v2 ? " v2" : " v1"));
  const Dims grads_dims = {c.rois, c.ph, c.pw, c.c}, image_dims = {c.n, c.h, c.w, c.c};
  std::vector<float> grads = Random(seed).floats(count_of(grads_dims), -20, 20);
  for (float &v : grads) v = maybe_half(v, c.dtype);
  const std::vector<float> boxes = random_boxes(c, seed + 1);
  Handle handle;
  std::vector<float> arg_x, arg_y;
  if (c.pool_mode == 0) {
    std::vector<float> map = Random(seed + 2).floats(count_of(image_dims), -2, 2);
    for (float &v : map) v = maybe_half(v, c.dtype);
    const Outputs f = run_forward(handle, c, map, boxes);
    ASSERT_EQ(f.status, CNNL_STATUS_SUCCESS);
    arg_x = f.arg_x;
    arg_y = f.arg_y;
  }
  Tensor grads_t(c, grads_dims, grads), boxes_t(c, {c.rois, 5}, boxes);
  Tensor image(c, image_dims, std::vector<float>(count_of(image_dims), 5.0f));
  Tensor ax(c, grads_dims, arg_x.empty() ? grads : arg_x), ay(c, grads_dims, arg_y.empty() ? grads : arg_y);
  const cnnlStatus_t status =
      v2 ? cnnlRoiAlignBackward_v2(handle, grads_t.desc(), grads_t.ptr(), boxes_t.desc(),
                                   boxes_t.ptr(), c.pool_mode == 0 ? ax.desc() : nullptr,
                                   c.pool_mode == 0 ? ax.ptr() : nullptr,
                                   c.pool_mode == 0 ? ay.desc() : nullptr,
                                   c.pool_mode == 0 ? ay.ptr() : nullptr, c.spatial_scale,
                                   c.sampling_ratio, c.aligned, c.pool_mode, image.desc(),
                                   image.ptr())
         : cnnlRoiAlignBackward(handle, c.spatial_scale, c.sampling_ratio, c.aligned,
                                grads_t.desc(), grads_t.ptr(), boxes_t.desc(), boxes_t.ptr(),
                                image.desc(), image.ptr());
  ASSERT_EQ(status, CNNL_STATUS_SUCCESS);
  expect_close(image.download(), backward_reference(c, grads, boxes, arg_x, arg_y),
               c.dtype == CNNL_DTYPE_HALF ? 1e-2 : 3e-3);
}

TEST(CnnlRoiAlignBackward, AverageModeV1AndV2) {
  expect_backward({16, 10, 10, 16, 10, 6, 6, 2, 1.0f, false, 1}, 32, false);  // mlu-ops' case_0
  expect_backward({2, 9, 11, 70, 6, 3, 4, 0, 0.5f, true, 1}, 40, true);
  expect_backward({1, 12, 12, 5, 30, 2, 2, 2, 1.0f, false, 1}, 41, true);  // many overlapping bins
}

TEST(CnnlRoiAlignBackward, MaxModeFromForwardArgmax) {
  expect_backward({2, 7, 7, 3, 4, 2, 2, 0, 1.0f, true, 0}, 50, true);  // mlu-ops' case_1 kind
  expect_backward({2, 8, 8, 130, 5, 2, 3, 2, 1.0f, true, 0}, 51, true);
}

TEST(CnnlRoiAlignBackward, HalfAverageMode) {
  expect_backward({2, 6, 5, 64, 4, 2, 2, 2, 0.5f, false, 1, CNNL_DTYPE_HALF}, 60, true);
}

// ---- Zero rois and bad arguments -----------------------------------------------

TEST(CnnlRoiAlign, ZeroRois) {
  Handle handle;
  const Config c{1, 4, 4, 8, 0, 2, 2, 2, 1.0f, false, 1};
  const Outputs o = run_forward(handle, c, std::vector<float>(128, 1.0f), {});
  EXPECT_EQ(o.status, CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);
  // Backward with no rois still overwrites grads_image with zeros.
  Tensor grads(c, {0, 2, 2, 8}, {}), boxes(c, {0, 5}, {});
  Tensor image(c, {1, 4, 4, 8}, std::vector<float>(128, 5.0f));
  ASSERT_EQ(cnnlRoiAlignBackward(handle, 1.0f, 2, false, grads.desc(), grads.ptr(), boxes.desc(),
                                 boxes.ptr(), image.desc(), image.ptr()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(image.download(), std::vector<float>(128, 0.0f));
}

TEST(CnnlRoiAlign, RefusesBadArguments) {
  Handle handle;
  const Config c{1, 4, 4, 8, 2, 2, 2, 2, 1.0f, false, 0};
  Tensor map(c, {1, 4, 4, 8}, std::vector<float>(128, 1.0f));
  Tensor boxes(c, {2, 5}, std::vector<float>(10, 1.0f));
  Tensor bad_boxes(c, {2, 4}, std::vector<float>(8, 1.0f));
  Tensor out(c, {2, 2, 2, 8}, std::vector<float>(64)), wrong_out(c, {2, 3, 2, 8}, std::vector<float>(96));
  Desc nchw(CNNL_LAYOUT_NCHW, CNNL_DTYPE_FLOAT, {1, 4, 4, 8});
  cnnlRoiAlignDescriptor_t desc = nullptr;
  ASSERT_EQ(cnnlCreateRoiAlignDescriptor(&desc), CNNL_STATUS_SUCCESS);
  const char *api = "cnnlRoiAlign_v2";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "never set",
                 cnnlRoiAlign_v2(handle, desc, map.desc(), map.ptr(), boxes.desc(), boxes.ptr(),
                                 out.desc(), out.ptr(), nullptr, nullptr, nullptr, nullptr));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetRoiAlignDescriptor_v2", "pool_mode is 2",
                 cnnlSetRoiAlignDescriptor_v2(desc, 2, 2, 2, 1.0f, 2, false));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetRoiAlignDescriptor_v2", "must be positive",
                 cnnlSetRoiAlignDescriptor_v2(desc, 0, 2, 2, 1.0f, 1, false));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetRoiAlignDescriptor_v2", "sampling_ratio",
                 cnnlSetRoiAlignDescriptor_v2(desc, 2, 2, -1, 1.0f, 1, false));
  ASSERT_EQ(cnnlSetRoiAlignDescriptor_v2(desc, 2, 2, 2, 1.0f, 0, false), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "argmax_x is absent",
                 cnnlRoiAlign_v2(handle, desc, map.desc(), map.ptr(), boxes.desc(), boxes.ptr(),
                                 out.desc(), out.ptr(), nullptr, nullptr, nullptr, nullptr));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "[rois, 5]",
                 cnnlRoiAlign_v2(handle, desc, map.desc(), map.ptr(), bad_boxes.desc(),
                                 bad_boxes.ptr(), out.desc(), out.ptr(), out.desc(), out.ptr(),
                                 out.desc(), out.ptr()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "4-D NHWC",
                 cnnlRoiAlign_v2(handle, desc, nchw, map.ptr(), boxes.desc(), boxes.ptr(),
                                 out.desc(), out.ptr(), out.desc(), out.ptr(), out.desc(),
                                 out.ptr()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "pooled_height",
                 cnnlRoiAlign_v2(handle, desc, map.desc(), map.ptr(), boxes.desc(), boxes.ptr(),
                                 wrong_out.desc(), wrong_out.ptr(), wrong_out.desc(),
                                 wrong_out.ptr(), wrong_out.desc(), wrong_out.ptr()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "share memory",
                 cnnlRoiAlign_v2(handle, desc, map.desc(), map.ptr(), boxes.desc(), boxes.ptr(),
                                 out.desc(), out.ptr(), out.desc(), out.ptr(), out.desc(),
                                 out.ptr()));
  ASSERT_EQ(cnnlDestroyRoiAlignDescriptor(desc), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlRoiAlignBackward", "spatial_scale",
                 cnnlRoiAlignBackward(handle, 0.0f, 2, false, out.desc(), out.ptr(),
                                      boxes.desc(), boxes.ptr(), map.desc(), map.ptr()));
  Tensor three_rois(c, {3, 2, 2, 8}, std::vector<float>(96));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlRoiAlignBackward", "one row per box",
                 cnnlRoiAlignBackward(handle, 1.0f, 2, false, three_rois.desc(), three_rois.ptr(),
                                      boxes.desc(), boxes.ptr(), map.desc(), map.ptr()));
}

}  // namespace
}  // namespace cnnl_test
