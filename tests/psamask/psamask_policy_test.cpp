// The split (design doc 3.3) and findlimit (3.2.3) that host and kernel share,
// against values worked out by hand and mlu-ops' own numbers for its repo cases.
#include <gtest/gtest.h>

#include "tests/psamask/psamask_test.h"

namespace mluop::psamask::test {
namespace {

constexpr int64_t kMlu370NramFloats = 655360 / 4;

TEST(PsamaskPolicy, RemaindersGoToTheFirstParts) {
  const Box all{{0, 10}, {0, 1}, {0, 1}};
  const int starts[] = {0, 3, 6, 8}, sizes[] = {3, 3, 2, 2};
  for (int i = 0; i < 4; ++i) {
    const Box b = part_of(all, 4, i);
    EXPECT_EQ(b.n.start, starts[i]);
    EXPECT_EQ(b.n.size, sizes[i]);
  }
  // More parts than points: the last parts are empty.
  EXPECT_EQ(part_of(Box{{0, 2}, {0, 1}, {0, 1}}, 4, 3).points(), 0);
}

TEST(PsamaskPolicy, SplitAxisIsNThenHThenWElseTheLongest) {
  EXPECT_EQ(split_axis(Box{{0, 8}, {0, 100}, {0, 100}}, 8), 0);
  EXPECT_EQ(split_axis(Box{{0, 7}, {0, 8}, {0, 100}}, 8), 1);
  EXPECT_EQ(split_axis(Box{{0, 7}, {0, 7}, {0, 8}}, 8), 2);
  EXPECT_EQ(split_axis(Box{{0, 2}, {0, 5}, {0, 3}}, 8), 1);
  EXPECT_EQ(split_axis(Box{{0, 5}, {0, 5}, {0, 5}}, 8), 0);  // equals: the first
  EXPECT_EQ(clusters_needed(make_shape(2, 3, 5, 3, 3, 0), 8), 5);
  EXPECT_EQ(clusters_needed(shape_of(cases::kPsfCase0, kCollect), 8), 8);
}

// mlu-ops' host code on its PSF case_0 (facts survey 2.5): N split over
// clusters and cores, dim (4, 8, 1), limits (n 4, h 3, w 12).
TEST(PsamaskPolicy, MatchesMluOpsOnPsfCase0) {
  const Shape s = shape_of(cases::kPsfCase0, kCollect);
  const Box box = task_box(s, 0, 8, 0, 4);
  EXPECT_EQ(box.n.size, 4);
  EXPECT_EQ(box.h.size, 3);
  EXPECT_EQ(box.w.size, 12);
  const Limits lim = find_limit<float>(s, box, kMlu370NramFloats);
  EXPECT_EQ(lim.n, 4);
  EXPECT_EQ(lim.h, 3);
  EXPECT_EQ(lim.w, 12);
}

// And on its PSB case_0 (dy [16, 128, 32, 4096], 32 x 32 mask): N over
// clusters, H over cores, limits (1, 1, 32). A point needs 1024 + 4096 floats,
// so exactly 32 points fill the 160 K floats of NRAM.
TEST(PsamaskPolicy, MatchesMluOpsOnPsbCase0) {
  const Shape s = shape_of(cases::kPsbCase0, kCollect);
  const Box box = task_box(s, 0, 8, 0, 4);
  EXPECT_EQ(box.n.size, 2);
  EXPECT_EQ(box.h.size, 32);
  EXPECT_EQ(box.w.size, 32);
  const Limits lim = find_limit<float>(s, box, kMlu370NramFloats);
  EXPECT_EQ(lim.n, 1);
  EXPECT_EQ(lim.h, 1);
  EXPECT_EQ(lim.w, 32);
}

// DISTRIBUTE's tiles: Ci = 9, Co = 20 padded to 32; m points take
// pad32(9 m) + 2 * pad16(m) * 32 floats.
TEST(PsamaskPolicy, DistributeSizing) {
  const auto s = make_shape(1, 4, 5, 3, 3, 1);
  const NramPlan p = plan_nram<float>(s, 17);
  EXPECT_EQ(p.mask, 160);  // 153 padded to 32
  EXPECT_EQ(p.row, 32);
  EXPECT_EQ(p.rows, 32);
  EXPECT_EQ(p.feature, 32 * 32);
  EXPECT_EQ(p.total(), 160 + 2 * 1024);
  // Segments of one row's points: 2208 floats hold 17 (18 would pad the mask
  // region to 192); one float less, 16 (160 + 2 * 16 * 32 = 1184).
  const Box row{{0, 1}, {0, 1}, {0, 40}};
  EXPECT_EQ(find_limit<float>(s, row, 2208).w, 17);
  EXPECT_EQ(find_limit<float>(s, row, 2207).w, 16);
  // Up to 3 points (27 mask floats) take 32 + 2 * 16 * 32 = 1056; below that
  // not even one fits (the host's NOT_SUPPORTED).
  EXPECT_EQ(find_limit<float>(s, row, 1056).w, 3);
  EXPECT_EQ(find_limit<float>(s, row, 1055).w, 0);
}

}  // namespace
}  // namespace mluop::psamask::test
