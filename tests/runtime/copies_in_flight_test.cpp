// The bounds of the async copies in flight, against the obvious reference:
// a read tried against what every queued copy writes, a write against both
// its sides. A bound may answer "may meet" where no copy is met (the exact
// check then looks), never "meets none" where one is.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "mlusim/bang/detail/core.h"

namespace {

using mlusim::CopiesInFlight;
using mlusim::PendingCopy;
using mlusim::Segments;

constexpr uintptr_t kNram = 0x200000, kNramBytes = 0x80000;  // 512 KB
constexpr uintptr_t kGdram = 0x7f0000000000;

PendingCopy copy_of(const Segments &dst, const Segments &src) {
  return PendingCopy{dst, src, mlusim::kIoPipe, "__memcpy_async", nullptr, 1};
}

bool meets_a_side(const std::vector<PendingCopy> &queued, uintptr_t lo, uintptr_t hi,
                  bool write) {
  const auto meets = [&](const Segments &s) { return lo < s.hi() && s.lo < hi; };
  for (const PendingCopy &p : queued)
    if (meets(p.dst) || (write && meets(p.src))) return true;
  return false;
}

// A ping-pong: the next tile's load and the last tile's store in flight
// while the vector unit works on the tile between them.
TEST(CopiesInFlight, AnAccessBetweenALoadAndAStoreMeetsNeither) {
  CopiesInFlight copies;
  copies.watch_nram(reinterpret_cast<void *>(kNram), kNramBytes);
  copies.push(copy_of(Segments{kNram, 4096, 4096, 1}, Segments{kGdram, 4096, 4096, 1}));
  copies.push(copy_of(Segments{kGdram + 0x100000, 4096, 4096, 1},
                      Segments{kNram + 0x4000, 4096, 4096, 1}));
  EXPECT_TRUE(copies.may_meet(kNram + 4000, kNram + 4200, false));  // the load's tile
  EXPECT_FALSE(copies.may_meet(kNram + 0x1000, kNram + 0x4000, true));  // between them
  EXPECT_FALSE(copies.may_meet(kNram + 0x4ff0, kNram + 0x5010, false))
      << "reading what a copy reads meets nothing";
  EXPECT_TRUE(copies.may_meet(kNram + 0x4ff0, kNram + 0x5010, true));  // overwriting it does
  EXPECT_FALSE(copies.may_meet(kNram + 0x5000, kNram + 0x6000, true));  // above both
  EXPECT_TRUE(copies.may_meet(kGdram + 100, kGdram + 200, true));  // the load's source
  EXPECT_TRUE(copies.may_meet(kGdram + 0x100000, kGdram + 0x100100, false));  // the store's target
  EXPECT_FALSE(copies.may_meet(kGdram + 0x200000, kGdram + 0x200100, true));
}

TEST(CopiesInFlight, AnEmptiedQueueMeetsNothing) {
  CopiesInFlight copies;
  copies.watch_nram(reinterpret_cast<void *>(kNram), kNramBytes);
  copies.push(copy_of(Segments{kNram, 64, 64, 1}, Segments{kGdram, 64, 64, 1}));
  std::vector<PendingCopy> landed;
  copies.take([](const PendingCopy &) { return true; }, landed);
  EXPECT_EQ(landed.size(), 1u);
  EXPECT_TRUE(copies.empty());
  EXPECT_FALSE(copies.may_meet(kNram, kNram + 64, true));
  EXPECT_FALSE(copies.may_meet(kGdram, kGdram + 64, true));
}

// Random copies, some with a side across NRAM's end, some not watched
// into NRAM at all: the bound never misses a side the access meets.
TEST(CopiesInFlight, TheBoundsNeverMissASideTheAccessMeets) {
  std::mt19937_64 random(5);
  const auto range = [&](uintptr_t base, uintptr_t span) {
    const uintptr_t lo = base + random() % span;
    return Segments{lo, 1 + random() % 8192, 0, 1};
  };
  for (int trial = 0; trial < 2000; ++trial) {
    CopiesInFlight copies;
    if (trial % 4 != 0) copies.watch_nram(reinterpret_cast<void *>(kNram), kNramBytes);
    std::vector<PendingCopy> queued;
    const int n = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < n; ++i) {
      // Around NRAM (some straddle its end) or in GDRAM.
      const Segments a = range(kNram - 0x1000, kNramBytes + 0x2000);
      const Segments b = range(kGdram, 0x100000);
      queued.push_back(random() % 2 ? copy_of(a, b) : copy_of(b, a));
      copies.push(queued.back());
    }
    for (int q = 0; q < 20; ++q) {
      const Segments x =
          q % 2 ? range(kNram - 0x1000, kNramBytes + 0x2000) : range(kGdram, 0x100000);
      const bool write = q % 4 < 2;
      if (meets_a_side(queued, x.lo, x.hi(), write))
        ASSERT_TRUE(copies.may_meet(x.lo, x.hi(), write)) << "trial " << trial << " query " << q;
    }
  }
}

}  // namespace
