// The device permute of ops/common against a plain index loop, bit for bit:
// masked_im2col_forward's two permutes, random ranks, shapes, permutations and
// element widths, both kernels and both task splits, NRAM splits, bad arguments.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>

#include "ops/common/permute_kernel.h"
#include "tests/masked_im2col_forward/masked_im2col_forward_test.h"

namespace mluop::masked_im2col_forward::test {
namespace {

size_t product(const std::vector<int> &dims) {
  return std::accumulate(dims.begin(), dims.end(), size_t{1},
                         [](size_t a, int d) { return a * static_cast<size_t>(d); });
}

std::string describe(const std::vector<int> &dims, const std::vector<int> &perm, size_t bytes) {
  std::string s = "dims";
  for (int d : dims) s += " " + std::to_string(d);
  s += ", perm";
  for (int p : perm) s += " " + std::to_string(p);
  return s + ", " + std::to_string(bytes) + "-byte elements";
}

// out[o] = in[the input index of output coordinate o], coordinates last-fastest.
template <typename T>
std::vector<T> permute_reference(const std::vector<T> &in, const std::vector<int> &dims,
                                 const std::vector<int> &perm) {
  const size_t rank = dims.size();
  std::vector<size_t> in_stride(rank);
  size_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    in_stride[k] = stride;
    stride *= static_cast<size_t>(dims[k]);
  }
  std::vector<T> out(in.size());
  for (size_t o = 0; o < out.size(); ++o) {
    size_t rest = o, index = 0;
    for (size_t d = rank; d-- > 0;) {
      const size_t extent = static_cast<size_t>(dims[perm[d]]);
      index += (rest % extent) * in_stride[perm[d]];
      rest /= extent;
    }
    out[o] = in[index];
  }
  return out;
}

template <typename T>
void expect_permute(const std::vector<int> &dims, const std::vector<int> &perm, Random &rng) {
  SCOPED_TRACE(describe(dims, perm, sizeof(T)));
  std::vector<T> in(product(dims));
  for (T &x : in) {
    const int64_t bits = (int64_t{rng.integer(0, INT32_MAX)} << 31) ^ rng.integer(0, INT32_MAX);
    std::memcpy(&x, &bits, sizeof(T));
  }
  Handle handle;
  DeviceBuffer<T> in_dev(in);
  GuardedBuffer<T> out(in.size());
  ASSERT_EQ(
      mluop::launch_permute(handle, "permute_test", in_dev.get(), out.get(), dims, perm, sizeof(T)),
      MLUOP_STATUS_SUCCESS)
      << mlusimGetLastError();
  EXPECT_EQ(first_bit_difference(out.download(), permute_reference(in, dims, perm)), -1);
  EXPECT_TRUE(out.guards_intact());
}

void expect_permute_sized(size_t bytes, const std::vector<int> &dims, const std::vector<int> &perm,
                          Random &rng) {
  switch (bytes) {
    case 1: return expect_permute<int8_t>(dims, perm, rng);
    case 2: return expect_permute<int16_t>(dims, perm, rng);
    case 4: return expect_permute<int32_t>(dims, perm, rng);
    default: return expect_permute<int64_t>(dims, perm, rng);
  }
}

TEST(Permute, MaskedIm2colForwardPermutes) {
  Random rng(11);
  for (size_t bytes : {2, 4}) {
    expect_permute_sized(bytes, {1, 256, 20, 20}, {0, 2, 3, 1}, rng);  // NCHW -> NHWC
    expect_permute_sized(bytes, {200, 9, 256}, {2, 1, 0}, rng);        // staging -> data_col
  }
}

TEST(Permute, RandomRanksShapesAndPermutations) {
  Random rng(12);
  for (int trial = 0; trial < 40; ++trial) {
    const int rank = rng.integer(1, 5);
    std::vector<int> dims(rank), perm(rank);
    for (int &d : dims) d = rng.integer(1, rank <= 2 ? 90 : 9);
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = rank - 1; i > 0; --i) std::swap(perm[i], perm[rng.integer(0, i)]);
    const size_t bytes = size_t{1} << rng.integer(0, 3);
    expect_permute_sized(bytes, dims, perm, rng);
  }
}

// The input's contiguous axis stays last: the row kernel.
TEST(Permute, RowMoves) {
  Random rng(13);
  expect_permute_sized(4, {3, 4, 5}, {1, 0, 2}, rng);
  expect_permute_sized(2, {7, 33}, {0, 1}, rng);                                     // identity
  expect_permute_sized(1, {1, 1, 1}, {2, 0, 1}, rng);                                // one element
  expect_permute_sized(8, {2, 3, 2, 2, 3, 2, 2, 5}, {6, 5, 4, 3, 2, 1, 0, 7}, rng);  // rank 8
}

// The task split follows the longer strided segments: rows here, columns there.
TEST(Permute, RowAndColumnSplits) {
  Random rng(14);
  expect_permute_sized(4, {1000, 20}, {1, 0}, rng);
  expect_permute_sized(4, {20, 1000}, {1, 0}, rng);
  expect_permute_sized(2, {2, 3, 1, 2, 3, 2, 1, 5}, {7, 3, 0, 6, 1, 5, 2, 4}, rng);
}

// 8 KB of NRAM: several tiles per matrix in both directions.
TEST(Permute, TinyNramTiles) {
  ScopedDevice device(current_device_with(tiny_nram));
  Random rng(15);
  expect_permute_sized(4, {300, 7, 130}, {2, 1, 0}, rng);
  expect_permute_sized(1, {130, 300}, {1, 0}, rng);
  expect_permute_sized(8, {50, 90}, {1, 0}, rng);
  expect_permute_sized(2, {1, 70, 9, 11}, {0, 2, 3, 1}, rng);
}

// A device whose transpose granule is narrower than the element: refused, not divided by zero.
TEST(Permute, TransposeGranuleNarrowerThanAnElementIsNotSupported) {
  ScopedDevice device(
      current_device_with([](mlusimDeviceSpec_t &s) { s.transpose_align_bytes = 4; }));
  Handle handle;
  DeviceBuffer<int64_t> in(24), out(24);
  EXPECT_EQ(mluop::launch_permute(handle, "permute_test", in.get(), out.get(), {4, 6}, {1, 0}, 8),
            MLUOP_STATUS_NOT_SUPPORTED);
  EXPECT_FALSE(anything_launched(handle.queue()));
}

TEST(Permute, ZeroElementsLaunchNothing) {
  Handle handle;
  DeviceBuffer<float> in(4), out(4);
  EXPECT_EQ(
      mluop::launch_permute(handle, "permute_test", in.get(), out.get(), {3, 0, 2}, {2, 0, 1}, 4),
      MLUOP_STATUS_SUCCESS);
  EXPECT_FALSE(anything_launched(handle.queue()));
}

TEST(Permute, BadArgumentsAreRejected) {
  Handle handle;
  DeviceBuffer<float> in(24), out(24);
  std::vector<float> host(24);
  auto permute = [&](mluOpHandle_t h, const void *src, void *dst, const std::vector<int> &dims,
                     const std::vector<int> &perm, size_t bytes) {
    return mluop::launch_permute(h, "permute_test", src, dst, dims, perm, bytes);
  };
  const mluOpStatus_t kBad = MLUOP_STATUS_BAD_PARAM;
  EXPECT_EQ(permute(nullptr, in.get(), out.get(), {4, 6}, {1, 0}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {}, {}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {1, 1, 1, 1, 1, 1, 1, 1, 24},
                    {0, 1, 2, 3, 4, 5, 6, 7, 8}, 4),
            kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {4, 6}, {1}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {4, 6}, {1, 1}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {4, 6}, {0, 2}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {-4, 6}, {1, 0}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {4, 6}, {1, 0}, 3), kBad);
  EXPECT_EQ(permute(handle, host.data(), out.get(), {4, 6}, {1, 0}, 4), kBad);
  EXPECT_EQ(permute(handle, in.get(), out.get(), {4, 7}, {1, 0}, 4), kBad);  // past the buffers
  EXPECT_EQ(permute(handle, in.get(), in.get(), {4, 6}, {1, 0}, 4), kBad);   // in place
  EXPECT_FALSE(anything_launched(handle.queue()));
}

}  // namespace
}  // namespace mluop::masked_im2col_forward::test
