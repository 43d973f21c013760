// mluOpThreeInterpolateBackward against the CPU reference (mlu-ops' diff1 and
// diff2), on the design doc's example and boundary cases (3.6, 11-20), random
// shapes and shapes that force every branch of the tiling, in float and half.
// grad_features sits between guard bands filled with a sentinel, as do its
// unwritten elements: a missed element or a stray write fails the comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <sstream>
#include <string>
#include <type_traits>

#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_reference.h"
#include "runtime/device_spec.h"
#include "runtime/logging.h"
#include "harness/harness.h"
#include "tests/common/op_log_capture.h"

namespace {

using namespace mlusim::harness;
namespace tib = three_interpolate_backward;

struct Problem {
  int b, c, n, m;
};

std::string describe(const Problem &p) {
  return "B=" + std::to_string(p.b) + " C=" + std::to_string(p.c) + " N=" + std::to_string(p.n) +
         " M=" + std::to_string(p.m);
}

template <typename T>
constexpr mluOpDataType_t kDtype = std::is_same_v<T, float> ? MLUOP_DTYPE_FLOAT : MLUOP_DTYPE_HALF;
// The thresholds for diff1 and diff2: float 1e-5, half the doc's 3e-3.
template <typename T>
constexpr double kThreshold = std::is_same_v<T, float> ? 1e-5 : 3e-3;

template <typename T>
struct Inputs {
  std::vector<T> grad_output, weights;
  std::vector<int32_t> indices;
};

// Half data is drawn in float and rounded, so the reference sees the device's values.
template <typename T>
std::vector<T> values(Random &rng, size_t count, float lo, float hi) {
  const std::vector<float> v = rng.floats(count, lo, hi);
  return std::vector<T>(v.begin(), v.end());
}

// grad_output in [-1, 1), weights in [0, 1), indices in [index_lo, index_hi].
template <typename T>
Inputs<T> make_inputs(const Problem &p, uint32_t seed, int index_lo, int index_hi) {
  Random rng(seed);
  Inputs<T> in;
  in.grad_output = values<T>(rng, size_t(p.b) * p.c * p.n, -1.0f, 1.0f);
  in.weights = values<T>(rng, size_t(p.b) * p.n * 3, 0.0f, 1.0f);
  in.indices = rng.ints(size_t(p.b) * p.n * 3, index_lo, index_hi);
  return in;
}

// One call of the operator whose grad_features lies between guard bands. The
// whole buffer starts as 0xFF bytes (NaN in half and float): an element the
// kernel misses stays NaN and fails the comparison, a stray write changes a guard.
template <typename T>
class Call {
 public:
  static constexpr size_t kGuard = 1024;  // elements on each side

  Call(const Problem &p, const Inputs<T> &in)
      : p_(p), guarded_(size_t(p.b) * p.c * p.m + 2 * kGuard) {
    TensorDesc grad_output_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {p.b, p.c, p.n});
    TensorDesc indices_desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {p.b, p.n, 3});
    TensorDesc weights_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {p.b, p.n, 3});
    TensorDesc grad_features_desc(MLUOP_LAYOUT_ARRAY, kDtype<T>, {p.b, p.c, p.m});
    DeviceBuffer<T> grad_output(in.grad_output), weights(in.weights);
    DeviceBuffer<int32_t> indices(in.indices);
    check_cnrt(cnrtMemset(guarded_.get(), 0xFF, guarded_.bytes()), "cnrtMemset");
    status = mluOpThreeInterpolateBackward(handle_, grad_output_desc, grad_output.get(),
                                           indices_desc, indices.get(), weights_desc, weights.get(),
                                           grad_features_desc, guarded_.get() + kGuard);
    if (status == MLUOP_STATUS_SUCCESS) report = handle_.last_op_report();
  }

  bool guards_intact() const {
    const size_t tail = guarded_.size() - kGuard;
    auto intact = [](const std::vector<T> &v) {
      const auto *bytes = reinterpret_cast<const unsigned char *>(v.data());
      return std::all_of(bytes, bytes + v.size() * sizeof(T),
                         [](unsigned char x) { return x == 0xFF; });
    };
    return intact(download(0, kGuard)) && intact(download(tail, kGuard));
  }
  // grad_features[batch], [C, M].
  std::vector<T> batch(int b) const {
    const size_t count = size_t(p_.c) * p_.m;
    return download(kGuard + b * count, count);
  }

  mluOpStatus_t status;
  mlusimReport_t report{};

 private:
  std::vector<T> download(size_t first, size_t count) const {
    std::vector<T> host(count);
    check_cnrt(
        cnrtMemcpy(host.data(), guarded_.get() + first, count * sizeof(T), cnrtMemcpyDevToHost),
        "cnrtMemcpy D2H");
    return host;
  }

  Problem p_;
  Handle handle_;
  DeviceBuffer<T> guarded_;
};

// Every batch against the reference; each must pass mlu-ops' diff1 and diff2
// (which bounds the whole tensor's too) and be free of NaN.
template <typename T>
void expect_matches_reference(const Problem &p, const Inputs<T> &in) {
  const Call<T> call(p, in);
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS) << describe(p);
  EXPECT_TRUE(call.guards_intact()) << describe(p) << ": a write outside grad_features";
  std::vector<Diffs> diffs(p.b);
#pragma omp parallel for schedule(dynamic)  // the large doc cases: batches side by side
  for (int b = 0; b < p.b; ++b)
    diffs[b] =
        compare(to_double(call.batch(b)),
                tib::reference_batch(in.grad_output, in.indices, in.weights, b, p.c, p.n, p.m),
                diff3_eps(kDtype<T>));
  for (int b = 0; b < p.b; ++b) {
    ASSERT_LE(diffs[b].diff1, kThreshold<T>) << describe(p) << ", batch " << b;
    ASSERT_LE(diffs[b].diff2, kThreshold<T>) << describe(p) << ", batch " << b;
  }
}

// Indices in [0, M - 1], as the doc requires.
template <typename T>
void expect_matches_reference(const Problem &p, uint32_t seed) {
  expect_matches_reference(p, make_inputs<T>(p, seed, 0, p.m - 1));
}

template <typename T>
tib::Tiles tiles_of(const Problem &p) {
  return tib::choose_tiles<T>(tib::Shape{p.b, p.c, p.n, p.m},
                              static_cast<int64_t>(mlusim::nram_usable(mlusim::current_device())));
}

using Float = mlusim::harness::FloatTag;
using Half = mlusim::harness::HalfTag;
template <typename Tag>
class ThreeInterpolateBackward : public ::testing::Test {};
using Dtypes = ::testing::Types<Float, Half>;
TYPED_TEST_SUITE(ThreeInterpolateBackward, Dtypes);

// The doc's mmcv example: indices from np.random.randint(0, M - 1), i.e. 0..M-2.
TYPED_TEST(ThreeInterpolateBackward, DocExample) {
  using T = typename TypeParam::T;
  const Problem p{2, 128, 256, 64};
  expect_matches_reference(p, make_inputs<T>(p, 1, 0, p.m - 2));
}

TYPED_TEST(ThreeInterpolateBackward, RandomShapes) {
  using T = typename TypeParam::T;
  Random shapes(2024);
  for (int i = 0; i < 6; ++i) {
    const Problem p{shapes.integer(1, 4), shapes.integer(1, 300), shapes.integer(1, 600),
                    shapes.integer(1, 400)};
    expect_matches_reference<T>(p, 100 + i);
  }
}

// Every axis split into chunks with a short last one (channel, N and M tails).
TYPED_TEST(ThreeInterpolateBackward, EveryAxisSplitWithTails) {
  using T = typename TypeParam::T;
  const Problem p{2, 700, 900, 300};
  const tib::Tiles t = tiles_of<T>(p);
  ASSERT_LT(t.n, p.n);
  ASSERT_LT(t.c, p.c);
  ASSERT_LT(t.m, p.m);
  ASSERT_NE(p.n % t.n, 0);
  ASSERT_NE(p.c % t.c, 0);
  ASSERT_NE(p.m % t.m, 0);
  expect_matches_reference<T>(p, 7);
}

// More tasks (batches x M chunks) than the device has cores: cores loop over several.
TYPED_TEST(ThreeInterpolateBackward, MoreTasksThanCores) {
  using T = typename TypeParam::T;
  const int cores = mlusim::core_count(mlusim::current_device());
  const Problem p{cores + cores / 4 + 1, 33, 70, 45};  // a partial second wave
  ASSERT_GT(tib::task_count(tib::Shape{p.b, p.c, p.n, p.m}, tiles_of<T>(p)), cores);
  expect_matches_reference<T>(p, 8);
}

// Negative indices and indices >= M (mmcv leaves them undefined) add nothing
// and write nothing outside grad_features; in-range ones still count.
TYPED_TEST(ThreeInterpolateBackward, OutOfRangeIndicesContributeNothing) {
  using T = typename TypeParam::T;
  const Problem p{3, 70, 200, 50};
  Inputs<T> in = make_inputs<T>(p, 9, -60, 110);
  in.indices[0] = INT_MIN;
  in.indices[1] = INT_MAX;
  in.indices[2] = p.m;
  in.indices[3] = -1;
  expect_matches_reference(p, in);
}

// Every index at or past M: grad_features is all zeros (written, not left as it was).
TYPED_TEST(ThreeInterpolateBackward, OnlyOutOfRangeIndicesGiveZeros) {
  using T = typename TypeParam::T;
  const Problem p{2, 40, 100, 30};
  const Call<T> call(p, make_inputs<T>(p, 10, p.m, p.m + 100));
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(call.guards_intact());
  for (int b = 0; b < p.b; ++b) {
    const std::vector<T> batch = call.batch(b);
    EXPECT_TRUE(std::all_of(batch.begin(), batch.end(), [](T x) { return x == T(0); }));
  }
}

// Boundary cases 16 and 17 of the doc's 3.6 table.
TYPED_TEST(ThreeInterpolateBackward, DocCase16) {
  using T = typename TypeParam::T;
  expect_matches_reference<T>({1, 1, 1, 1}, 16);
}
TYPED_TEST(ThreeInterpolateBackward, DocCase17) {
  using T = typename TypeParam::T;
  expect_matches_reference<T>({7, 63, 129, 127}, 17);
}

// Boundary cases 18-20 are large (each M chunk re-runs its batch's whole
// [C, N] tile): one dtype each keeps the suite fast, half at case 18.
TEST(ThreeInterpolateBackwardDoc, Case18Half) {
  expect_matches_reference<_Float16>({15, 1025, 1023, 1023}, 18);
}
TEST(ThreeInterpolateBackwardDoc, Case19Float) {
  expect_matches_reference<float>({25, 1029, 1025, 1027}, 19);
}
TEST(ThreeInterpolateBackwardDoc, Case20Float) {
  expect_matches_reference<float>({29, 2047, 999, 2033}, 20);
}

// The op report carries mlu-ops' theory: every tensor's bytes, 9 * B * C * N ops.
TEST(ThreeInterpolateBackwardReport, TheoryFiguresAndOneLaunch) {
  const Problem p{2, 128, 256, 64};
  const Call<float> call(p, make_inputs<float>(p, 11, 0, p.m - 1));
  ASSERT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  const double bytes = 4.0 * (2 * 128 * 256 + 2 * 256 * 3 + 2 * 256 * 3 + 2 * 128 * 64);
  EXPECT_EQ(call.report.theory_io_bytes, bytes);
  EXPECT_EQ(call.report.theory_ops, 9.0 * 2 * 128 * 256);
  EXPECT_EQ(call.report.launches, 1);
  EXPECT_EQ(call.report.atomic_elements, 0);  // each core owns its M range
  EXPECT_GT(call.report.io_efficiency, 0);
  EXPECT_GT(call.report.compute_efficiency, 0);
}

// ---- Bad parameters: the status and one log line naming the operator -------


// A valid float call on small shapes; each test breaks one thing.
struct Args {
  mluOpHandle_t handle = nullptr;
  std::vector<int> grad_output_dims{2, 8, 16}, indices_dims{2, 16, 3}, weights_dims{2, 16, 3},
      grad_features_dims{2, 8, 5};
  mluOpDataType_t grad_output_dtype = MLUOP_DTYPE_FLOAT, indices_dtype = MLUOP_DTYPE_INT32,
                  weights_dtype = MLUOP_DTYPE_FLOAT, grad_features_dtype = MLUOP_DTYPE_FLOAT;
  mluOpTensorLayout_t grad_output_layout = MLUOP_LAYOUT_ARRAY;
  bool null_desc[4] = {false, false, false, false};
  const void *grad_output = nullptr, *indices = nullptr, *weights = nullptr;
  void *grad_features = nullptr;
};

class ThreeInterpolateBackwardBadParam : public ::testing::Test {
 protected:
  // Runs `call` (unset pointers point at valid device buffers) and checks the
  // status and that exactly one line naming the operator and `what` was logged.
  void expect(Args call, mluOpStatus_t status, const std::string &what) {
    TensorDesc go(call.grad_output_layout, call.grad_output_dtype, call.grad_output_dims);
    TensorDesc idx(MLUOP_LAYOUT_ARRAY, call.indices_dtype, call.indices_dims);
    TensorDesc w(MLUOP_LAYOUT_ARRAY, call.weights_dtype, call.weights_dims);
    TensorDesc gf(MLUOP_LAYOUT_ARRAY, call.grad_features_dtype, call.grad_features_dims);
    const mluOpTensorDescriptor_t descs[4] = {go, idx, w, gf};
    auto desc = [&](int i) { return call.null_desc[i] ? nullptr : descs[i]; };
    auto or_buffer = [](auto p, auto &buffer) { return p != nullptr ? p : buffer.get(); };
    mlusim::testing::OpLogCapture log;
    const mluOpStatus_t got = mluOpThreeInterpolateBackward(
        call.handle, desc(0), or_buffer(call.grad_output, grad_output_), desc(1),
        or_buffer(call.indices, indices_), desc(2), or_buffer(call.weights, weights_), desc(3),
        or_buffer(call.grad_features, grad_features_));
    EXPECT_EQ(got, status) << mluOpGetErrorString(got);
    const std::string text = log.text();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_NE(text.find("mluOpThreeInterpolateBackward"), std::string::npos) << text;
    EXPECT_NE(text.find(what), std::string::npos) << "expected '" << what << "' in: " << text;
  }
  Args valid() {
    Args c;
    c.handle = handle_;
    return c;
  }

  Handle handle_;
  DeviceBuffer<float> grad_output_{2 * 8 * 16}, weights_{2 * 16 * 3}, grad_features_{2 * 8 * 5};
  DeviceBuffer<int32_t> indices_{2 * 16 * 3};
};

TEST_F(ThreeInterpolateBackwardBadParam, NullHandleAndDescriptors) {
  Args c = valid();
  c.handle = nullptr;
  expect(c, MLUOP_STATUS_BAD_PARAM, "handle is NULL");
  const char *names[4] = {"grad_output_desc", "indices_desc", "weights_desc", "grad_features_desc"};
  for (int i = 0; i < 4; ++i) {
    Args d = valid();
    d.null_desc[i] = true;
    expect(d, MLUOP_STATUS_BAD_PARAM, std::string(names[i]) + " is NULL");
  }
}

TEST_F(ThreeInterpolateBackwardBadParam, RankAndLayout) {
  Args c = valid();
  c.grad_output_dims = {2, 8, 16, 1};
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output is [2,8,16,1] ARRAY float: must have 3 dims");
  c = valid();
  c.indices_dims = {32, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices is [32,3] ARRAY int32: must have 3 dims");
  c = valid();
  c.weights_dims = {2, 48};
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights is [2,48] ARRAY float: must have 3 dims");
  c = valid();
  c.grad_features_dims = {80};
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_features is [80] ARRAY float: must have 3 dims");
  c = valid();
  c.grad_output_layout = MLUOP_LAYOUT_NCHW;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output layout is NCHW, must be ARRAY");
}

TEST_F(ThreeInterpolateBackwardBadParam, Dtypes) {
  Args c = valid();
  c.weights_dtype = MLUOP_DTYPE_HALF;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output dtype is float and weights dtype is half");
  c = valid();
  c.indices_dtype = MLUOP_DTYPE_INT64;
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices dtype is int64, must be int32");
  c = valid();
  c.grad_features_dtype = MLUOP_DTYPE_HALF;
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights dtype is float and grad_features dtype is half");
  c = valid();
  c.grad_output_dtype = c.weights_dtype = c.grad_features_dtype = MLUOP_DTYPE_INT32;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output dtype is int32, must be half or float");
}

TEST_F(ThreeInterpolateBackwardBadParam, Shapes) {
  Args c = valid();
  c.indices_dims = c.weights_dims = {3, 16, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "B must be equal");
  c = valid();
  c.weights_dims = {2, 16, 4};
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices is [2,16,3] ARRAY int32 and weights is [2,16,4]");
  c = valid();
  c.indices_dims = c.weights_dims = {2, 16, 2};
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights is [2,16,2] ARRAY float: last dim must be 3");
  c = valid();
  c.grad_features_dims = {2, 9, 5};
  expect(c, MLUOP_STATUS_BAD_PARAM, "B and C must be equal");
  c = valid();
  c.indices_dims = c.weights_dims = {2, 17, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "N must be equal");
}

TEST_F(ThreeInterpolateBackwardBadParam, LargeTensorIsNotSupported) {
  Args c = valid();
  c.grad_output_dims = {1024, 1024, 2048};
  c.indices_dims = c.weights_dims = {1024, 2048, 3};
  c.grad_features_dims = {1024, 1024, 5};
  expect(c, MLUOP_STATUS_NOT_SUPPORTED, "2147483648 elements, must be fewer than 2^31");
}

TEST_F(ThreeInterpolateBackwardBadParam, Pointers) {
  int host_memory[4] = {};
  Args c = valid();
  c.grad_output = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output = ");
  c = valid();
  c.indices = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices = ");
  c = valid();
  c.weights = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights = ");
  c = valid();
  c.grad_features = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_features = ");
  // Device memory too small for the tensor.
  c = valid();
  c.grad_output = grad_features_.get();
  expect(c, MLUOP_STATUS_BAD_PARAM, "holding 1024 bytes");
}

TEST_F(ThreeInterpolateBackwardBadParam, InPlaceIsNotSupported) {
  DeviceBuffer<float> shared(2 * 8 * 16);
  Args c = valid();
  c.grad_output = shared.get();
  c.grad_features = shared.get();
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output and grad_features overlap");
}

// The doc's zero-element boundary cases 11, 12, 14, 15: B, C or N zero.
TEST_F(ThreeInterpolateBackwardBadParam, ZeroElementCases) {
  struct Case {
    std::vector<int> grad_output, indices, grad_features;
    const char *what;
  };
  const Case cases[] = {
      {{0, 128, 128}, {0, 128, 3}, {0, 128, 128}, "B, C and N must be non-zero"},  // 11
      {{16, 0, 128}, {16, 128, 3}, {16, 128, 0}, "B and C must be equal"},         // 12
      {{16, 128, 0}, {16, 0, 3}, {16, 128, 128}, "B, C and N must be non-zero"},   // 14
      {{0, 0, 0}, {0, 0, 3}, {0, 0, 0}, "B, C and N must be non-zero"},            // 15
  };
  for (const Case &k : cases) {
    Args c = valid();
    c.grad_output_dims = k.grad_output;
    c.indices_dims = c.weights_dims = k.indices;
    c.grad_features_dims = k.grad_features;
    expect(c, MLUOP_STATUS_BAD_PARAM, k.what);
  }
}

// The doc's case 13, M = 0: SUCCESS and nothing written (mmcv and the released
// mlu-ops; the doc's table says BAD_PARAM).
TEST(ThreeInterpolateBackwardZeroM, Case13Succeeds) {
  const Problem p{16, 128, 128, 0};
  const Call<float> call(p, make_inputs<float>(p, 13, 0, 0));
  EXPECT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(call.guards_intact());
}

}  // namespace
