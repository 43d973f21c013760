// Exact overlap of strided ranges against the obvious reference: every
// segment of one run tried against every segment of the other.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <utility>

#include "runtime/segments.h"

namespace {

using mlusim::Segments;

// The lowest bytes two segments share, over all pairs of segments.
std::optional<std::pair<uintptr_t, uintptr_t>> overlap_by_every_pair(const Segments &a,
                                                                     const Segments &b) {
  std::optional<std::pair<uintptr_t, uintptr_t>> first;
  for (size_t i = 0; i < a.count; ++i)
    for (size_t j = 0; j < b.count; ++j) {
      const uintptr_t a_lo = a.lo + i * a.stride, b_lo = b.lo + j * b.stride;
      const uintptr_t lo = std::max(a_lo, b_lo), hi = std::min(a_lo + a.bytes, b_lo + b.bytes);
      if (lo < hi && (!first || lo < first->first)) first = std::make_pair(lo, hi);
    }
  return first;
}

void expect_as_every_pair(const Segments &a, const Segments &b) {
  uintptr_t lo = 0, hi = 0;
  const bool met = mlusim::detail::first_overlap(a, b, &lo, &hi);
  const auto expected = overlap_by_every_pair(a, b);
  ASSERT_EQ(met, expected.has_value()) << a.lo << "+" << a.bytes << "x" << a.count << " vs "
                                       << b.lo << "+" << b.bytes << "x" << b.count;
  if (met) {
    EXPECT_EQ(lo, expected->first);
    EXPECT_EQ(hi, expected->second);
  }
}

// Cores writing interleaved rows of one output: the same stride, other offsets.
TEST(Segments, RunsOfOneStrideMeetExactlyWhereTheirRowsDo) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t stride = 4 + random() % 256;
    const Segments a{4096 + random() % 1024, 1 + random() % stride, stride, 1 + random() % 40};
    const Segments b{4096 + random() % 1024, 1 + random() % stride, stride, 1 + random() % 40};
    expect_as_every_pair(a, b);
  }
}

TEST(Segments, RunsOfOtherStridesMeetExactlyWhereTheirRowsDo) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t sa = 4 + random() % 128, sb = 4 + random() % 128;
    const Segments a{4096 + random() % 1024, 1 + random() % sa, sa, 1 + random() % 30};
    const Segments b{4096 + random() % 1024, 1 + random() % sb, sb, 1 + random() % 30};
    expect_as_every_pair(a, b);
  }
}

// Disjoint interleaved rows never meet, however many there are.
TEST(Segments, AlternateRowsOfAMillionNeverMeet) {
  const Segments even{0x100000, 64, 128, 1 << 20}, odd{0x100040, 64, 128, 1 << 20};
  uintptr_t lo = 0, hi = 0;
  EXPECT_FALSE(mlusim::detail::first_overlap(even, odd, &lo, &hi));
  const Segments shifted{0x100030, 64, 128, 1 << 20};  // 16 bytes into each even row
  ASSERT_TRUE(mlusim::detail::first_overlap(even, shifted, &lo, &hi));
  EXPECT_EQ(lo, 0x100030u);
  EXPECT_EQ(hi, 0x100040u);
}

}  // namespace
