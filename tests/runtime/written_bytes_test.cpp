// What a write stored, as the race check grades races by it
// (detail/core.h's WrittenBytes), against the bytes themselves: writes laid
// out byte by byte in a small stretch of memory. Two writes the type calls the
// same must store the same bytes wherever both store (never a fault taken for
// benign); two that store at the same addresses are the same exactly when
// their bytes are.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "mlusim/bang/detail/core.h"

namespace {

using mlusim::WrittenBytes;

constexpr uintptr_t kBase = 0x1000;  // 8-aligned, as allocations are
constexpr int kSpan = 24;            // bytes the writes fall in

// The bytes one write (or a run of them) stored, by address; an address
// stored twice keeps every byte stored there.
using Stored = std::multimap<uintptr_t, uint8_t>;

struct Write {
  WrittenBytes written;
  Stored stored;
};

Write element(uintptr_t at, uint64_t value, size_t n) {
  Write w{WrittenBytes::element(kBase + at, &value, n), {}};
  for (size_t k = 0; k < n; ++k) w.stored.insert({at + k, static_cast<uint8_t>(value >> (8 * k))});
  return w;
}

// `length` bytes from `at`, the n bytes of `value` over and over.
Write fill(uintptr_t at, uint64_t value, size_t n, size_t length) {
  Write w{WrittenBytes::repeated(kBase + at, &value, n), {}};
  for (size_t k = 0; k < length; ++k)
    w.stored.insert({at + k, static_cast<uint8_t>(value >> (8 * (k % n)))});
  return w;
}

// Every byte one stored at an address the other stored at too is that one's.
bool same_bytes_where_both_store(const Write &a, const Write &b) {
  for (const auto &[at, byte] : a.stored) {
    const auto [first, last] = b.stored.equal_range(at);
    for (auto it = first; it != last; ++it)
      if (it->second != byte) return false;
  }
  return true;
}

TEST(WrittenBytes, OneValueOverAndOverIsKnownInItsPhase) {
  // An int16 fill and the same value one byte on store other bytes there.
  EXPECT_FALSE(fill(0, 0x0102, 2, 8).written.same_as(fill(1, 0x0102, 2, 8).written));
  EXPECT_TRUE(fill(0, 0x0101, 2, 8).written.same_as(fill(1, 0x0101, 2, 8).written));
  // A fill of an int and a store of the same int into it.
  EXPECT_TRUE(fill(0, 7, 4, 64).written.same_as(element(12, 7, 4).written));
  EXPECT_FALSE(fill(0, 7, 4, 64).written.same_as(element(14, 7, 4).written));
  // Not known: never the same, not even as itself.
  EXPECT_FALSE(WrittenBytes{}.same_as(WrittenBytes{}));
  const uint64_t wide[2] = {1, 1};  // wider than 8 bytes
  EXPECT_EQ(WrittenBytes::element(kBase, wide, sizeof(wide)).known, 0u);
}

TEST(WrittenBytes, ARunOfStoresIsKnownWhileTheyAgree) {
  Write run = element(0, 5, 4);
  for (uintptr_t at : {4, 8, 12}) run.written.add(element(at, 5, 4).written);
  EXPECT_TRUE(run.written.same_as(fill(0, 5, 4, 16).written));
  run.written.add(element(16, 6, 4).written);  // position 0 again, another value
  EXPECT_EQ(run.written.known, 0u);
  run.written.add(element(20, 5, 4).written);  // not known stays so
  EXPECT_EQ(run.written.known, 0u);
}

// A copy's digest (of its range and bytes) is the same only as the same
// digest: never as bytes a fill or store keeps, nor as not known. A run of
// copies keeps one digest while it repeats and chains them, in order, after.
TEST(WrittenBytes, ACopysDigestIsTheSameOnlyAsItself) {
  const WrittenBytes a = WrittenBytes::digest(0x1234), b = WrittenBytes::digest(0x5678);
  const WrittenBytes filled = fill(0, 0x1234, 8, 8).written;
  EXPECT_TRUE(a.same_as(a));
  EXPECT_FALSE(a.same_as(b));
  EXPECT_FALSE(a.same_as(filled));
  EXPECT_FALSE(filled.same_as(a));
  EXPECT_FALSE(a.same_as(WrittenBytes{}));
  EXPECT_TRUE(WrittenBytes::digest(0).is_digest());
  WrittenBytes again = a;
  again.add(a);
  EXPECT_TRUE(again.same_as(a));
  WrittenBytes ab = a, ab_too = a, ba = b;
  ab.add(b);
  ab_too.add(b);
  ba.add(a);
  EXPECT_TRUE(ab.is_digest());
  EXPECT_TRUE(ab.same_as(ab_too));
  EXPECT_FALSE(ab.same_as(a));
  EXPECT_FALSE(ab.same_as(b));
  EXPECT_FALSE(ab.same_as(ba));
  WrittenBytes then_fill = a, then_copy = filled;
  then_fill.add(filled);
  then_copy.add(a);
  for (const WrittenBytes &w : {then_fill, then_copy}) {
    EXPECT_FALSE(w.is_digest());
    EXPECT_EQ(w.known, 0u);
  }
}

const uint64_t kValues[] = {0, 0x0101010101010101, 0x0102030401020304, 0x7fc00000,
                            0x7fc000007fc00000};

// Random writes and runs of element stores in kSpan bytes, of values that
// share bytes: the type never calls two the same that store different bytes
// at one address.
TEST(WrittenBytes, SameOnlyWhereTheBytesAreTheSame) {
  std::mt19937 rng(20240818);
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const auto random_write = [&] {
    const size_t n = size_t{1} << pick(0, 3);
    const uint64_t value = kValues[pick(0, 4)];
    if (pick(0, 2) == 0) {
      const size_t length = n * pick(1, 3);
      return fill(pick(0, static_cast<int>(kSpan - length)), value, n, length);
    }
    Write w = element(pick(0, static_cast<int>(kSpan - n)), value, n);
    for (int more = pick(0, 3); more > 0; --more) {  // a run of stores
      const Write e = element(pick(0, static_cast<int>(kSpan - n)),
                              pick(0, 3) == 0 ? kValues[pick(0, 4)] : value, n);
      w.written.add(e.written);
      w.stored.insert(e.stored.begin(), e.stored.end());
    }
    return w;
  };
  int same = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const Write a = random_write(), b = random_write();
    if (!a.written.same_as(b.written)) continue;
    ++same;
    ASSERT_TRUE(same_bytes_where_both_store(a, b) && same_bytes_where_both_store(b, a))
        << "trial " << trial;
  }
  EXPECT_GT(same, 5000) << same;  // common enough to be tested
}

// Two writes of the same bytes [at, at + n), each an element or a fill of
// n / m elements of m bytes: the type calls them the same exactly when their
// bytes are.
TEST(WrittenBytes, WritesOfTheSameAddressesAreTheSameExactlyWhenTheirBytesAre) {
  std::mt19937 rng(20240819);
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int outcomes[2] = {0, 0};
  for (int trial = 0; trial < 100000; ++trial) {
    const int log_n = pick(0, 3);
    const size_t n = size_t{1} << log_n;
    const auto at = static_cast<uintptr_t>(pick(0, static_cast<int>(kSpan - n)));
    const auto random_write = [&] {
      const uint64_t value = kValues[pick(0, 4)];
      return pick(0, 1) == 0 ? element(at, value, n) : fill(at, value, size_t{1} << pick(0, log_n), n);
    };
    const Write a = random_write(), b = random_write();
    const bool same = a.written.same_as(b.written);
    ASSERT_EQ(same, same_bytes_where_both_store(a, b)) << "trial " << trial;
    ++outcomes[same];
  }
  EXPECT_GT(outcomes[0], 10000);  // both common enough to be tested
  EXPECT_GT(outcomes[1], 10000);
}

}  // namespace
