// __bang_reduce_sum, __bang_sum, __bang_count, __bang_max and __bang_min
// against double references, in float and half.
#include <algorithm>
#include <cstring>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

template <typename T>
__mlu_global__ void reductions(T *sums, T *total, T *extremes, unsigned *nonzero, const T *in,
                               int n) {
  __nram_buffer__(T, x, n);
  __nram_buffer__(T, y, n);
  __nram_buffer__(T, e, 128 / sizeof(T));
  __memcpy(x, in, n * sizeof(T), GDRAM2NRAM);
  __bang_reduce_sum(y, x, n);
  __memcpy(sums, y, n * sizeof(T), NRAM2GDRAM);
  *total = __bang_sum(x, n);
  *nonzero = __bang_count(x, n);
  __bang_max(e, x, n);
  __memcpy(extremes, e, 2 * sizeof(T), NRAM2GDRAM);
  __bang_min(e, x, n);
  __memcpy(extremes + 2, e, 2 * sizeof(T), NRAM2GDRAM);
}

template <typename Tag>
class Reductions : public ::testing::Test {};
TYPED_TEST_SUITE(Reductions, FloatAndHalf);

TYPED_TEST(Reductions, MatchTheReference) {
  using T = typename TypeParam::T;
  using Index = mlusim::detail::Bits<T>;
  constexpr int n = 1024, block = 128 / sizeof(T);
  auto in = sample<T>(n, -1, 1, 5);
  in.values[300] = T(3);  // unique extremes at known places
  in.values[700] = T(-3);
  in.exact[300] = 3;
  in.exact[700] = -3;
  for (int i = 2; i < n; i += 3) in.values[i] = T(0), in.exact[i] = 0;  // spares 300 and 700
  DeviceBuffer<T> x(in.values), sums(n), total(1), extremes(4);
  DeviceBuffer<unsigned> nonzero(1);
  run_on_one_core(reductions<T>, sums.get(), total.get(), extremes.get(), nonzero.get(),
                  static_cast<const T *>(x.get()), n);
  EXPECT_EQ(nonzero.download()[0], static_cast<unsigned>(std::count_if(
                                       in.exact.begin(), in.exact.end(),
                                       [](double v) { return v != 0; })));

  std::vector<double> block_sums(n, 0.0);
  double all = 0;
  for (int i = 0; i < n; ++i) {
    block_sums[i / block * block] += in.exact[i];
    all += in.exact[i];
  }
  expect_close(sums.download(), block_sums);
  EXPECT_NEAR(static_cast<double>(total.download()[0]), all, 0.02 + 2e-3 * std::fabs(all));

  auto e = extremes.download();
  Index max_at, min_at;
  std::memcpy(&max_at, &e[1], sizeof(T));
  std::memcpy(&min_at, &e[3], sizeof(T));
  EXPECT_EQ(static_cast<double>(e[0]), 3.0);
  EXPECT_EQ(max_at, 300);
  EXPECT_EQ(static_cast<double>(e[2]), -3.0);
  EXPECT_EQ(min_at, 700);
}

__mlu_global__ void reduce_sum_partial_block() {
  __nram_buffer__(float, x, 64);
  __bang_reduce_sum(x, x, 40);  // 160 bytes: not whole 128-byte blocks
}

__mlu_global__ void max_in_wram() {
  __nram_buffer__(float, d, 32);
  __wram_buffer__(float, w, 32);
  __bang_max(d, w, 32);
}

TEST(ReductionFaults, OperandRules) {
  expect_mentions(fault_of(reduce_sum_partial_block), {"__bang_reduce_sum", "alignment"});
  expect_mentions(fault_of(max_in_wram), {"__bang_max", "src", "NRAM"});
}

}  // namespace
}  // namespace intrinsics_test
