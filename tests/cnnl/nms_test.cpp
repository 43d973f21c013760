// cnnlNms_v2 against CPU references: greedy selection by score with hard,
// linear and Gaussian suppression (mlu-ops' nms semantics: corner or center
// boxes, the include-boundary offset, the confidence threshold, output modes
// 0 to 3, both input layouts, max_output_size, padding), and the rotated 3-D
// mode (boxes in input order, bird's-eye-view IoU) with an overlap computed
// a different way (edge crossings and contained corners). Cases by hand,
// zero boxes and bad arguments too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

struct Options {
  cnnlNmsBoxPointMode_t box_mode = CNNL_NMS_BOX_DIAGONAL;
  cnnlNmsOutputMode_t output_mode = CNNL_NMS_OUTPUT_TARGET_INDICES;
  cnnlNmsAlgo_t algo = CNNL_NMS_ALGO_EXCLUDE_BOUNDARY;
  cnnlNmsMethodMode_t method = CNNL_NMS_HARD_NMS;
  float iou_threshold = 0.45f, sigma = 0.0f, confidence_threshold = 0.0f, offset = 0.0f;
  int max_output_size = 100, input_layout = 0;
  bool pad = false;
  cnnlDataType_t dtype = CNNL_DTYPE_FLOAT;
  // Set the descriptor one attribute at a time (cnnlSetNmsDescAttr, as
  // mlu-ops v1.11.1 does; algo and method keep their defaults) and query the
  // workspace with cnnlGetNmsWorkspaceSize_v4.
  bool attributes = false;
};

// The descriptor set by cnnlSetNmsDescAttr, in mlu-ops v1.11.1's order.
void set_by_attributes(cnnlNmsDescriptor_t desc, const Options &o) {
  const auto set = [&](cnnlNmsDescAttribute_t attr, const auto &value) {
    EXPECT_EQ(cnnlSetNmsDescAttr(desc, attr, &value, sizeof value), CNNL_STATUS_SUCCESS) << attr;
  };
  set(CNNL_NMS_DESC_IOU_THRESHOLD, o.iou_threshold);
  set(CNNL_NMS_DESC_INPUT_LAYOUT, o.input_layout);
  set(CNNL_NMS_DESC_MAX_OUTPUT_SIZE, o.max_output_size);
  set(CNNL_NMS_DESC_CONFIDENCE_THRESHOLD, o.confidence_threshold);
  set(CNNL_NMS_DESC_OUTPUT_MODE, o.output_mode);
  set(CNNL_NMS_DESC_OFFSET, o.offset);
  set(CNNL_NMS_DESC_BOX_MODE, o.box_mode);
  set(CNNL_NMS_DESC_PAD_TO_MAX_OUTPUT_SIZE, o.pad);
}

// One kept box: its index, score when kept, and its box as given.
struct Kept {
  int index;
  float score;
  float box[4];
};

std::vector<Kept> nms_reference(const std::vector<float> &boxes, std::vector<float> scores,
                                const Options &o) {
  const int n = static_cast<int>(scores.size());
  auto coord = [&](int i, int j) { return o.input_layout == 0 ? boxes[i * 4 + j] : boxes[j * n + i]; };
  // Corner form, ordered corners, areas.
  std::vector<float> x1(n), y1(n), x2(n), y2(n), area(n);
  const float extra = o.algo == CNNL_NMS_ALGO_INCLUDE_BOUNDARY ? o.offset : 0.0f;
  for (int i = 0; i < n; ++i) {
    float a = coord(i, 0), b = coord(i, 1), c = coord(i, 2), d = coord(i, 3);
    if (o.box_mode == CNNL_NMS_BOX_CENTER) {
      a = a - c * 0.5f, c = a + c;
      b = b - d * 0.5f, d = b + d;
    }
    x1[i] = std::min(a, c), x2[i] = std::max(a, c), y1[i] = std::min(b, d), y2[i] = std::max(b, d);
    area[i] = (x2[i] - x1[i] + extra) * (y2[i] - y1[i] + extra);
  }
  std::vector<Kept> kept;
  while (static_cast<int>(kept.size()) < o.max_output_size && n > 0) {
    const int best = static_cast<int>(std::max_element(scores.begin(), scores.end()) - scores.begin());
    if (scores[best] <= o.confidence_threshold) break;
    kept.push_back(Kept{best, scores[best], {coord(best, 0), coord(best, 1), coord(best, 2), coord(best, 3)}});
    scores[best] = 0;
    for (int i = 0; i < n; ++i) {
      const float w = std::max(std::min(x2[i], x2[best]) - std::max(x1[i], x1[best]) + extra, 0.0f);
      const float h = std::max(std::min(y2[i], y2[best]) - std::max(y1[i], y1[best]) + extra, 0.0f);
      const float inter = w * h, uni = area[i] + area[best] - inter;
      const float iou = uni == 0 ? 0.0f : inter / uni;
      if (o.method == CNNL_NMS_SOFT_NMS_GAUSSIAN && o.sigma > 0)
        scores[i] *= std::exp(-iou * iou / (2 * o.sigma));
      else if (o.method == CNNL_NMS_SOFT_NMS_LINEAR && iou > o.iou_threshold)
        scores[i] *= 1 - iou;
      else if (iou > o.iou_threshold && o.method != CNNL_NMS_SOFT_NMS_LINEAR)
        scores[i] = 0;
    }
  }
  return kept;
}

// Boxes in clusters, so that many overlap, as corners (possibly swapped) or
// centers; well-separated scores.
struct Problem {
  std::vector<float> boxes, scores;
};
Problem random_problem(int n, const Options &o, uint32_t seed) {
  Random random(seed);
  std::vector<float> rows;
  for (int i = 0; i < n; ++i) {
    const float cx = 10.0f * random.integer(0, 4) + random.uniform(-3, 3);
    const float cy = 10.0f * random.integer(0, 4) + random.uniform(-3, 3);
    const float w = random.uniform(2, 9), h = random.uniform(2, 9);
    if (o.box_mode == CNNL_NMS_BOX_CENTER)
      rows.insert(rows.end(), {cx, cy, w, h});
    else if (i % 3 == 0)  // corners given the other way round
      rows.insert(rows.end(), {cx + w / 2, cy + h / 2, cx - w / 2, cy - h / 2});
    else
      rows.insert(rows.end(), {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2});
  }
  Problem p;
  for (float &v : rows) v = o.dtype == CNNL_DTYPE_HALF ? mlusim::harness::round_to_half(v) : v;
  p.boxes = rows;
  if (o.input_layout == 1)  // [4, n]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 4; ++j) p.boxes[j * n + i] = rows[i * 4 + j];
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  for (int i = 0; i < n; ++i) {
    const float s = 0.02f + 0.96f * order[i] / n;
    p.scores.push_back(o.dtype == CNNL_DTYPE_HALF ? mlusim::harness::round_to_half(s) : s);
  }
  return p;
}

struct Result {
  cnnlStatus_t status;
  std::vector<float> output;  // int32 outputs as floats
  int32_t size;
};

Result run_nms(const Handle &handle, const Options &o, const std::vector<float> &boxes,
               const std::vector<float> *scores, int box_dim, int64_t output_elements) {
  const int64_t n = static_cast<int64_t>(boxes.size()) / box_dim;
  cnnlNmsDescriptor_t desc = nullptr;
  cnnlCreateNmsDescriptor(&desc);
  if (o.attributes)
    set_by_attributes(desc, o);
  else
    EXPECT_EQ(cnnlSetNmsDescriptor_v5(desc, o.box_mode, o.output_mode, o.algo, o.method,
                                      o.iou_threshold, o.sigma, o.max_output_size,
                                      o.confidence_threshold, o.offset, o.input_layout, o.pad),
              CNNL_STATUS_SUCCESS);
  const std::vector<int64_t> box_dims =
      o.input_layout == 0 ? std::vector<int64_t>{n, box_dim} : std::vector<int64_t>{box_dim, n};
  DeviceTensor boxes_t(CNNL_LAYOUT_ARRAY, o.dtype, box_dims, boxes);
  std::optional<DeviceTensor> scores_t;
  if (scores != nullptr) scores_t.emplace(CNNL_LAYOUT_ARRAY, o.dtype, std::vector<int64_t>{n}, *scores);
  const bool ints = o.output_mode == 0 || o.output_mode == 3;
  DeviceTensor out_f(CNNL_LAYOUT_ARRAY, o.dtype, {output_elements},
                     std::vector<float>(output_elements, -7.0f));
  Desc out_i_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {output_elements});
  DeviceBuffer<int32_t> out_i(std::vector<int32_t>(output_elements, -7));
  DeviceBuffer<int32_t> size(std::vector<int32_t>{-1});
  size_t workspace_size = 1;
  const cnnlTensorDescriptor_t scores_desc = scores_t ? scores_t->desc() : nullptr;
  EXPECT_EQ(o.attributes
                ? cnnlGetNmsWorkspaceSize_v4(handle, desc, boxes_t.desc(), scores_desc, &workspace_size)
                : cnnlGetNmsWorkspaceSize_v3(handle, boxes_t.desc(), scores_desc, &workspace_size),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace_size, 0u);
  Result r;
  r.status = cnnlNms_v2(handle, desc, boxes_t.desc(), boxes_t.ptr(),
                        scores_t ? scores_t->desc() : nullptr, scores_t ? scores_t->ptr() : nullptr,
                        nullptr, 0, ints ? static_cast<cnnlTensorDescriptor_t>(out_i_desc) : out_f.desc(),
                        ints ? static_cast<void *>(out_i.get()) : out_f.ptr(), size.get());
  cnnlDestroyNmsDescriptor(desc);
  if (ints) {
    const auto v = out_i.download();
    r.output.assign(v.begin(), v.end());
  } else {
    r.output = out_f.download();
  }
  r.size = size.download()[0];
  return r;
}

// The expected output of `kept` in output mode o.output_mode; entries past
// the kept ones keep the start value -7, or 0 up to max_output_size when padding.
std::vector<float> expected_output(const std::vector<Kept> &kept, const Options &o,
                                   int64_t elements) {
  std::vector<float> out(elements, -7.0f);
  const int64_t slots = o.pad ? o.max_output_size : static_cast<int64_t>(kept.size());
  for (int64_t s = 0; s < slots; ++s) {
    const bool real = s < static_cast<int64_t>(kept.size());
    const float record[5] = {real ? kept[s].score : 0, real ? kept[s].box[0] : 0,
                             real ? kept[s].box[1] : 0, real ? kept[s].box[2] : 0,
                             real ? kept[s].box[3] : 0};
    switch (o.output_mode) {
      case 0: out[s] = real ? kept[s].index : 0; break;
      case 3:
        out[s * 3] = 0, out[s * 3 + 1] = 0, out[s * 3 + 2] = real ? kept[s].index : 0;
        break;
      case 1:
        for (int j = 0; j < 5; ++j) out[s * 5 + j] = record[j];
        break;
      default:
        for (int j = 0; j < 5; ++j) out[j * o.max_output_size + s] = record[j];
    }
  }
  return out;
}

void expect_nms(int n, const Options &o, uint32_t seed, int64_t output_elements = 0) {
  SCOPED_TRACE("n " + std::to_string(n) + " mode " + std::to_string(o.output_mode) + " method " +
               std::to_string(o.method) + " layout " + std::to_string(o.input_layout) +
               " box_mode " + std::to_string(o.box_mode) + (o.pad ? " pad" : "") +
               (o.dtype == CNNL_DTYPE_HALF ? " half" : ""));
  const Problem p = random_problem(n, o, seed);
  if (output_elements == 0)
    output_elements = o.output_mode == 0 ? n : o.output_mode == 3 ? 3 * n : 5 * o.max_output_size;
  Handle handle;
  const Result r = run_nms(handle, o, p.boxes, &p.scores, 4, output_elements);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  Options limited = o;
  const int64_t room = o.output_mode == 2 ? o.max_output_size
                                          : output_elements / (o.output_mode == 1 ? 5 : o.output_mode == 3 ? 3 : 1);
  limited.max_output_size = static_cast<int>(std::min<int64_t>(o.max_output_size, room));
  const std::vector<Kept> kept = nms_reference(p.boxes, p.scores, limited);
  EXPECT_EQ(r.size, static_cast<int32_t>(kept.size()));
  const std::vector<float> want = expected_output(kept, limited.pad ? limited : o, output_elements);
  if (o.output_mode == 0 || o.output_mode == 3)
    EXPECT_EQ(r.output, want);
  else
    expect_close(r.output, mlusim::harness::to_double(want), 1e-5);
}

TEST(CnnlNms, HardSelectionByScore) {
  Options o;
  expect_nms(30, o, 1);       // mlu-ops' case_0 shape: 30 boxes, threshold 0.45
  expect_nms(1000, o, 2);
  o.input_layout = 1;
  expect_nms(200, o, 3);
  o.iou_threshold = 0.1f;
  o.max_output_size = 7;
  expect_nms(200, o, 4);
}

// mlu-ops v1.11.1 sets its descriptors one attribute at a time; the
// defaults (hard NMS, boundary excluded) stand for what it does not set.
TEST(CnnlNms, DescriptorSetByAttributes) {
  Options o;
  o.attributes = true;
  expect_nms(30, o, 1);  // mlu-ops v1.11.1's case_0 shape
  o.input_layout = 1;
  o.box_mode = CNNL_NMS_BOX_CENTER;
  o.max_output_size = 9;
  o.confidence_threshold = 0.3f;
  expect_nms(300, o, 5);
  o.input_layout = 0;
  o.pad = true;
  for (int mode = 1; mode < 4; ++mode) {
    o.output_mode = static_cast<cnnlNmsOutputMode_t>(mode);
    expect_nms(120, o, 6 + mode);
  }
}

TEST(CnnlNms, RefusesBadAttributes) {
  Handle handle;
  cnnlNmsDescriptor_t desc = nullptr;
  ASSERT_EQ(cnnlCreateNmsDescriptor(&desc), CNNL_STATUS_SUCCESS);
  const char *api = "cnnlSetNmsDescAttr";
  const int layout = 2, size = -3, fine = 1;
  const cnnlNmsOutputMode_t mode = static_cast<cnnlNmsOutputMode_t>(4);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "input_layout is 2",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_INPUT_LAYOUT, &layout, sizeof layout));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "max_output_size = -3",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_MAX_OUTPUT_SIZE, &size, sizeof size));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "output_mode is 4",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_OUTPUT_MODE, &mode, sizeof mode));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "size_in_bytes is 8",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_INPUT_LAYOUT, &fine, 8));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a cnnlNmsDescAttribute_t",
                 cnnlSetNmsDescAttr(desc, static_cast<cnnlNmsDescAttribute_t>(8), &fine,
                                    sizeof fine));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "buf is NULL",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_INPUT_LAYOUT, nullptr, sizeof fine));
  // A refused attribute leaves the descriptor as it was: still never set.
  DeviceTensor boxes(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 4}, std::vector<float>(32, 1));
  DeviceTensor scores(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8}, std::vector<float>(8, 1));
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {8});
  DeviceBuffer<int32_t> out(8), count(1);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlNms_v2", "never set",
                 cnnlNms_v2(handle, desc, boxes.desc(), boxes.ptr(), scores.desc(), scores.ptr(),
                            nullptr, 0, out_desc, out.get(), count.get()));
  size_t workspace = 1;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetNmsWorkspaceSize_v4", "not a live Nms descriptor",
                 cnnlGetNmsWorkspaceSize_v4(handle, nullptr, boxes.desc(), scores.desc(),
                                            &workspace));
  ASSERT_EQ(cnnlDestroyNmsDescriptor(desc), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live Nms descriptor",
                 cnnlSetNmsDescAttr(desc, CNNL_NMS_DESC_INPUT_LAYOUT, &fine, sizeof fine));
}

TEST(CnnlNms, OutputModes) {
  for (int mode = 0; mode < 4; ++mode) {
    Options o;
    o.output_mode = static_cast<cnnlNmsOutputMode_t>(mode);
    o.max_output_size = 20;
    expect_nms(150, o, 10 + mode);
    o.pad = true;
    expect_nms(150, o, 20 + mode);
  }
}

TEST(CnnlNms, BoxModesBoundaryAndConfidence) {
  Options o;
  o.box_mode = CNNL_NMS_BOX_CENTER;
  expect_nms(120, o, 30);
  o = Options{};
  o.algo = CNNL_NMS_ALGO_INCLUDE_BOUNDARY;
  o.offset = 1.0f;
  expect_nms(120, o, 31);
  o = Options{};
  o.confidence_threshold = 0.5f;
  expect_nms(120, o, 32);
}

TEST(CnnlNms, SoftSuppression) {
  Options o;
  o.output_mode = CNNL_NMS_OUTPUT_TARGET_CONFIDENCE_AND_POS_1;
  o.max_output_size = 40;
  o.method = CNNL_NMS_SOFT_NMS_LINEAR;
  o.iou_threshold = 0.3f;
  expect_nms(100, o, 40);
  o.method = CNNL_NMS_SOFT_NMS_GAUSSIAN;
  o.sigma = 0.5f;
  o.confidence_threshold = 0.05f;
  expect_nms(100, o, 41);
}

TEST(CnnlNms, HalfBoxes) {
  Options o;
  o.dtype = CNNL_DTYPE_HALF;
  expect_nms(300, o, 50);
  o.output_mode = CNNL_NMS_OUTPUT_TARGET_CONFIDENCE_AND_POS_2;
  o.max_output_size = 16;
  expect_nms(300, o, 51);
}

TEST(CnnlNms, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    DevicePreset device(name);
    expect_nms(1000, Options{}, 16);
  }
}

// An output too small for max_output_size keeps as many boxes as it holds.
TEST(CnnlNms, OutputRoomBoundsTheKeptBoxes) {
  Options o;
  expect_nms(200, o, 60, 5);
}

// By hand: box 1 overlaps box 0 (IoU 0.68) and goes; box 2 is apart.
TEST(CnnlNms, ThreeBoxesByHand) {
  const std::vector<float> boxes = {0, 0, 10, 10, 1, 1, 11, 10, 20, 20, 25, 25};
  const std::vector<float> scores = {0.9f, 0.95f, 0.5f};
  Handle handle;
  Options o;
  const Result r = run_nms(handle, o, boxes, &scores, 4, 3);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  EXPECT_EQ(r.size, 2);
  EXPECT_EQ(r.output, (std::vector<float>{1, 2, -7}));
}

// ---- Rotated 3-D boxes --------------------------------------------------------

struct P {
  double x, y;
};

// The ground-plane corners of box (x, y, z, dx, dy, dz, heading).
std::vector<P> ground_corners(const float *b) {
  const double c = std::cos(b[6]), s = std::sin(b[6]), hx = b[3] / 2.0, hy = b[4] / 2.0;
  std::vector<P> out;
  for (auto [u, v] : {std::pair{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}})
    out.push_back(P{b[0] + u * c - v * s, b[1] + u * s + v * c});
  return out;
}

bool inside(const std::vector<P> &quad, P p) {  // convex, counter-clockwise
  for (size_t i = 0; i < 4; ++i) {
    const P a = quad[i], b = quad[(i + 1) % 4];
    if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < -1e-9) return false;
  }
  return true;
}

// The overlap polygon's vertices: corners of each quad inside the other and
// the crossings of their edges, sorted by angle about their mean.
double overlap_area(const float *a, const float *b) {
  const auto qa = ground_corners(a), qb = ground_corners(b);
  std::vector<P> pts;
  for (const P &p : qa)
    if (inside(qb, p)) pts.push_back(p);
  for (const P &p : qb)
    if (inside(qa, p)) pts.push_back(p);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const P p = qa[i], r{qa[(i + 1) % 4].x - p.x, qa[(i + 1) % 4].y - p.y};
      const P q = qb[j], s{qb[(j + 1) % 4].x - q.x, qb[(j + 1) % 4].y - q.y};
      const double denom = r.x * s.y - r.y * s.x;
      if (std::fabs(denom) < 1e-12) continue;
      const double t = ((q.x - p.x) * s.y - (q.y - p.y) * s.x) / denom;
      const double u = ((q.x - p.x) * r.y - (q.y - p.y) * r.x) / denom;
      if (t >= 0 && t <= 1 && u >= 0 && u <= 1) pts.push_back(P{p.x + t * r.x, p.y + t * r.y});
    }
  if (pts.size() < 3) return 0;
  P mean{0, 0};
  for (const P &p : pts) mean.x += p.x / pts.size(), mean.y += p.y / pts.size();
  std::sort(pts.begin(), pts.end(), [&](const P &l, const P &r) {
    return std::atan2(l.y - mean.y, l.x - mean.x) < std::atan2(r.y - mean.y, r.x - mean.x);
  });
  double twice = 0;
  for (size_t i = 0; i < pts.size(); ++i)
    twice += pts[i].x * pts[(i + 1) % pts.size()].y - pts[(i + 1) % pts.size()].x * pts[i].y;
  return std::fabs(twice) / 2;
}

std::vector<float> nms3d_reference(const std::vector<float> &boxes, float threshold, int limit) {
  const int n = static_cast<int>(boxes.size() / 7);
  std::vector<bool> gone(n, false);
  std::vector<float> kept;
  for (int i = 0; i < n && static_cast<int>(kept.size()) < limit; ++i) {
    if (gone[i]) continue;
    kept.push_back(static_cast<float>(i));
    for (int j = i + 1; j < n; ++j) {
      const float *a = &boxes[i * 7], *b = &boxes[j * 7];
      const double inter = overlap_area(a, b);
      if (inter / std::max(a[3] * a[4] + b[3] * b[4] - inter, 1e-8) > threshold) gone[j] = true;
    }
  }
  return kept;
}

TEST(CnnlNms, RotatedBoxesInInputOrder) {
  // mlu-ops' nms3d case_0 kind: unit boxes, two rotated copies of a third.
  const std::vector<float> hand = {2, 2, 2, 2, 2, 2, 0,   1, 1, 1, 2, 2, 2, 0,
                                   3, 3, 3, 3, 2, 2, 0,   3, 3.2f, 3.2f, 3, 2, 2, 0.3f,
                                   3, 3, 3, 3, 2, 2, 0.3f};
  Random random(70);
  std::vector<float> many;
  for (int i = 0; i < 80; ++i)
    for (float v : {random.uniform(0, 20), random.uniform(0, 20), random.uniform(-1, 1),
                    random.uniform(1, 5), random.uniform(1, 5), random.uniform(1, 2),
                    random.uniform(-3.14f, 3.14f)})
      many.push_back(v);
  for (const auto &[boxes, threshold] : {std::pair{hand, 0.3f}, std::pair{many, 0.1f}}) {
    const int n = static_cast<int>(boxes.size() / 7);
    Options o;
    o.iou_threshold = threshold;
    o.max_output_size = n;
    Handle handle;
    const Result r = run_nms(handle, o, boxes, nullptr, 7, n);
    ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
    const std::vector<float> want = nms3d_reference(boxes, threshold, n);
    EXPECT_EQ(r.size, static_cast<int32_t>(want.size()));
    EXPECT_EQ(std::vector<float>(r.output.begin(), r.output.begin() + want.size()), want);
  }
}

// ---- Zero boxes and bad arguments -------------------------------------------------

TEST(CnnlNms, ZeroBoxesKeepNone) {
  Handle handle;
  Options o;
  const std::vector<float> none;
  const Result r = run_nms(handle, o, none, &none, 4, 1);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  EXPECT_EQ(r.size, 0);
}

TEST(CnnlNms, RefusesBadArguments) {
  Handle handle;
  cnnlNmsDescriptor_t desc = nullptr;
  ASSERT_EQ(cnnlCreateNmsDescriptor(&desc), CNNL_STATUS_SUCCESS);
  const char *set = "cnnlSetNmsDescriptor_v5";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, set, "output_mode is 4",
                 cnnlSetNmsDescriptor_v5(desc, CNNL_NMS_BOX_DIAGONAL,
                                         static_cast<cnnlNmsOutputMode_t>(4),
                                         CNNL_NMS_ALGO_EXCLUDE_BOUNDARY, CNNL_NMS_HARD_NMS, 0.5f,
                                         0, 10, 0, 0, 0, false));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, set, "max_output_size",
                 cnnlSetNmsDescriptor_v5(desc, CNNL_NMS_BOX_DIAGONAL,
                                         CNNL_NMS_OUTPUT_TARGET_INDICES,
                                         CNNL_NMS_ALGO_EXCLUDE_BOUNDARY, CNNL_NMS_HARD_NMS, 0.5f,
                                         0, -1, 0, 0, 0, false));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, set, "input_layout",
                 cnnlSetNmsDescriptor_v5(desc, CNNL_NMS_BOX_DIAGONAL,
                                         CNNL_NMS_OUTPUT_TARGET_INDICES,
                                         CNNL_NMS_ALGO_EXCLUDE_BOUNDARY, CNNL_NMS_HARD_NMS, 0.5f,
                                         0, 10, 0, 0, 2, false));
  DeviceTensor boxes(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 4}, std::vector<float>(32, 1));
  DeviceTensor five(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 5}, std::vector<float>(40, 1));
  DeviceTensor batched(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 8, 4}, std::vector<float>(64, 1));
  DeviceTensor scores(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8}, std::vector<float>(8, 1));
  DeviceTensor float_out(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8}, std::vector<float>(8));
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {8});
  DeviceBuffer<int32_t> out(8), size(1);
  const char *api = "cnnlNms_v2";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "never set",
                 cnnlNms_v2(handle, desc, boxes.desc(), boxes.ptr(), scores.desc(), scores.ptr(),
                            nullptr, 0, out_desc, out.get(), size.get()));
  ASSERT_EQ(cnnlSetNmsDescriptor_v5(desc, CNNL_NMS_BOX_DIAGONAL, CNNL_NMS_OUTPUT_TARGET_INDICES,
                                    CNNL_NMS_ALGO_EXCLUDE_BOUNDARY, CNNL_NMS_HARD_NMS, 0.5f, 0, 8,
                                    0, 0, 0, false),
            CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "4 coordinates",
                 cnnlNms_v2(handle, desc, five.desc(), five.ptr(), scores.desc(), scores.ptr(),
                            nullptr, 0, out_desc, out.get(), size.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "2-D boxes",
                 cnnlNms_v2(handle, desc, batched.desc(), batched.ptr(), scores.desc(),
                            scores.ptr(), nullptr, 0, out_desc, out.get(), size.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "one score per box",
                 cnnlNms_v2(handle, desc, boxes.desc(), boxes.ptr(), nullptr, nullptr, nullptr, 0,
                            out_desc, out.get(), size.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "writes int32",
                 cnnlNms_v2(handle, desc, boxes.desc(), boxes.ptr(), scores.desc(), scores.ptr(),
                            nullptr, 0, float_out.desc(), float_out.ptr(), size.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "output_size",
                 cnnlNms_v2(handle, desc, boxes.desc(), boxes.ptr(), scores.desc(), scores.ptr(),
                            nullptr, 0, out_desc, out.get(), nullptr));
  ASSERT_EQ(cnnlDestroyNmsDescriptor(desc), CNNL_STATUS_SUCCESS);
}

}  // namespace
}  // namespace cnnl_test
