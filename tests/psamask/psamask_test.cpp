// psamask against the CPU reference: the design doc's example by hand, random
// shapes, the seed's network case, other devices, and shapes that drive every
// branch of the split (3.3) and of findlimit (3.2.3).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "ops/psamask/psamask_kernel.h"
#include "tests/psamask/psamask_test.h"

namespace mluop::psamask::test {
namespace {

// The doc's figure: H = W = 2, a 3 x 3 mask, so every point's window covers
// the whole feature map. x[p, k] = 10 p + k (point p, mask cell k).
TEST(PsamaskExample, DocFigureByHand) {
  Handle handle;
  const Dims d{1, 2, 2, 3, 3};
  std::vector<float> x(36);
  for (int p = 0; p < 4; ++p)
    for (int k = 0; k < 9; ++k) x[p * 9 + k] = 10.0f * p + k;
  // COLLECT: y[p, t] = x[p, cell of t in p's window]; DISTRIBUTE is its transpose.
  const std::vector<float> collect = {4, 5, 7, 8, 13, 14, 16, 17, 21, 22, 24, 25, 30, 31, 33, 34};
  const std::vector<float> distribute = {4, 13, 21, 30, 5, 14, 22, 31,
                                         7, 16, 24, 33, 8, 17, 25, 34};
  EXPECT_EQ(run(handle, {false, 0, d, x}).out, collect);
  EXPECT_EQ(run(handle, {false, 1, d, x}).out, distribute);
  // Backward sends each value back to its cell; the cells no window uses are 0.
  std::vector<float> dx(36, 0.0f);
  for (int p = 0; p < 4; ++p) {
    const int h = p / 2, w = p % 2;
    for (int i = 1 - h; i < 3 - h; ++i)
      for (int j = 1 - w; j < 3 - w; ++j) dx[p * 9 + i * 3 + j] = x[p * 9 + i * 3 + j];
  }
  EXPECT_EQ(run(handle, {true, 0, d, collect}).out, dx);
  EXPECT_EQ(run(handle, {true, 1, d, distribute}).out, dx);
}

// The reference itself on a case small enough to write down: one row, a 1 x 3 mask.
TEST(PsamaskExample, ReferenceOneRow) {
  const Dims d{1, 1, 2, 1, 3};
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(reference::psamask_forward(0, x, d), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(reference::psamask_forward(1, x, d), (std::vector<float>{2, 4, 3, 5}));
}

TEST(PsamaskAccuracy, RandomShapes) {
  Handle handle;
  const std::vector<Dims> shapes = {
      {1, 1, 1, 1, 1},   {1, 4, 4, 3, 3},   {2, 5, 7, 3, 5},    {3, 6, 5, 4, 6},
      {1, 9, 11, 17, 21}, {2, 3, 12, 29, 22}, {1, 8, 8, 15, 15}, {5, 7, 3, 2, 8},
      {1, 13, 1, 25, 1},  {1, 1, 17, 1, 33}, {64, 2, 3, 3, 5},  {2, 16, 16, 31, 31},
      {9, 10, 10, 7, 7},  {1, 20, 24, 39, 47}};
  uint32_t seed = 1;
  for (const Dims &d : shapes) expect_exact_all(handle, d, seed += 4);
}

// Random shapes drawn from a generator: odd and even masks, masks smaller and
// larger than the feature map.
TEST(PsamaskAccuracy, GeneratedShapes) {
  Handle handle;
  Random random(2024);
  for (int i = 0; i < 12; ++i) {
    const Dims d{random.integer(1, 12), random.integer(1, 12), random.integer(1, 12),
                 random.integer(1, 25), random.integer(1, 25)};
    expect_exact_all(handle, d, 100 + 4 * i);
  }
}

// The repo's PSF case_0 ([123, 3, 12, 638], 29 x 22 mask), both modes.
TEST(PsamaskAccuracy, SeedNetworkCase) {
  Handle handle;
  expect_exact_all(handle, cases::kPsfCase0, 7);
}

TEST(PsamaskAccuracy, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    mlusimDeviceSpec_t spec{};
    for (int i = 0; i < mlusimGetPresetCount(); ++i) {
      mlusimGetPreset(i, &spec);
      if (std::string(spec.name) == name) break;
    }
    ScopedDevice device(spec);
    Handle handle;
    expect_exact_all(handle, Dims{3, 17, 9, 9, 13}, 11);
    expect_exact_all(handle, Dims{1, 2, 40, 3, 7}, 15);
  }
}

// ---- Tiling coverage -------------------------------------------------------

// What the kernel's policy does with one shape on the current device, worked
// out with the same functions the kernel uses.
struct Tiling {
  std::set<std::string> seen;
};

void note_tiling(const Shape &s, Tiling &t) {
  mlusimDeviceSpec_t spec{};
  mlusimGetDeviceSpec(&spec);
  const int64_t nram = static_cast<int64_t>((spec.nram_bytes - spec.stack_reserve_bytes) / 4);
  const std::string type = s.type == 0 ? " COLLECT" : " DISTRIBUTE";
  const char *axes[] = {"N", "H", "W"};
  const int clusters = clusters_needed(s, spec.clusters);
  const Box all = whole(s);
  const int cluster_axis = split_axis(all, clusters);
  t.seen.insert(std::string("cluster split ") + axes[cluster_axis]);
  if (all.axis(cluster_axis).size < spec.clusters) t.seen.insert("cluster split: fewer than clusters");
  for (int cl = 0; cl < clusters; ++cl) {
    const Box cb = part_of(all, clusters, cl);
    const int core_axis = split_axis(cb, spec.cores_per_cluster);
    t.seen.insert(std::string("core split ") + axes[core_axis]);
    if (cb.axis(core_axis).size < spec.cores_per_cluster) t.seen.insert("core split: idle cores");
    for (int core = 0; core < spec.cores_per_cluster; ++core) {
      const Box b = part_of(cb, spec.cores_per_cluster, core);
      if (b.points() == 0) continue;
      const Limits lim = find_limit<float>(s, b, nram);
      if (lim.n < b.n.size) t.seen.insert("segments over n" + type);
      if (lim.h < b.h.size) t.seen.insert("segments over h" + type);
      if (lim.w < b.w.size) t.seen.insert("segments over w" + type);
      if (b.w.size < s.w && lim.h > 1) t.seen.insert("row runs" + type);
    }
  }
}

// Shapes on small devices (few clusters, little NRAM) so that every branch
// shows up on small tensors; each must match the reference exactly, and
// together they must cover every branch.
TEST(PsamaskTiling, EveryBranchMatchesReference) {
  struct Case {
    int clusters;
    size_t nram_kb;
    Dims d;
  };
  const std::vector<Case> cases = {
      {2, 16, {40, 4, 5, 3, 3}},     // N over clusters and cores
      {2, 8, {9, 9, 3, 12, 1}},      // segments of several n
      {2, 8, {5, 3, 3, 10, 25}},     // segments of rows
      {2, 8, {1, 1, 25, 25, 21}},    // W over clusters and cores, segments of a row's points
      {2, 64, {1, 37, 6, 5, 3}},     // H over clusters and cores
      {2, 64, {1, 3, 50, 3, 4}},     // W split, segments of several rows: one run per row
      {3, 24, {2, 2, 3, 1, 1}},      // the same with 1 x 1 masks
      {8, 640, {2, 3, 5, 3, 3}},     // no axis as long as the parts: the longest, idle cores
      {3, 24, {13, 6, 3, 9, 11}},    // uneven shares: remainders to the first parts
      {2, 64, {4, 12, 12, 23, 23}},  // wide DISTRIBUTE rows, segments of n and of rows
  };
  Tiling tiling;
  uint32_t seed = 300;
  for (const Case &c : cases) {
    ScopedDevice device(small_device(c.clusters, c.nram_kb));
    Handle handle;
    for (int type : {0, 1}) {
      note_tiling(shape_of(c.d, type), tiling);
    }
    expect_exact_all(handle, c.d, seed += 4);
  }
  const std::vector<std::string> branches = {
      "cluster split N", "cluster split H", "cluster split W", "cluster split: fewer than clusters",
      "core split N", "core split H", "core split W", "core split: idle cores",
      "segments over n COLLECT", "segments over h COLLECT", "segments over w COLLECT",
      "segments over n DISTRIBUTE", "segments over h DISTRIBUTE", "segments over w DISTRIBUTE",
      "row runs COLLECT", "row runs DISTRIBUTE"};
  for (const std::string &b : branches) EXPECT_TRUE(tiling.seen.count(b)) << "not covered: " << b;
}

}  // namespace
}  // namespace mluop::psamask::test
