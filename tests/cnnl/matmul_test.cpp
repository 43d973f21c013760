// cnnlMatMul_v2 against a double-precision reference written from its
// definition (D = alpha op(A) op(B) + beta C): every transpose combination,
// alpha and beta (beta 0 with NaN in C, which must not be read), d == c as
// mlu-ops' fft passes them, the fft's own call sequence, shapes that take
// several k tiles and row blocks per task; the descriptor, algorithm and
// heuristic calls; and bad arguments, each refused with its log line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

// A MatMul descriptor with its transposes, an algorithm and a heuristic
// result, created with CNNL 2.x's names as mlu-ops v1.11.1 does.
class MatMul {
 public:
  MatMul(bool trans_a, bool trans_b) {
    EXPECT_EQ(cnnlCreateMatMulDescriptor(&desc_), CNNL_STATUS_SUCCESS);
    const int32_t ta = trans_a, tb = trans_b;
    EXPECT_EQ(cnnlSetMatMulDescAttr(desc_, CNNL_MATMUL_DESC_TRANSA, &ta, sizeof ta),
              CNNL_STATUS_SUCCESS);
    EXPECT_EQ(cnnlSetMatMulDescAttr(desc_, CNNL_MATMUL_DESC_TRANSB, &tb, sizeof tb),
              CNNL_STATUS_SUCCESS);
    EXPECT_EQ(cnnlCreateMatMulAlgo(&algo_), CNNL_STATUS_SUCCESS);
    EXPECT_EQ(cnnlCreateMatMulHeuristicResult(&result_), CNNL_STATUS_SUCCESS);
  }
  ~MatMul() {
    cnnlDestroyMatMulDescriptor(desc_);
    cnnlDestroyMatMulAlgo(algo_);
    cnnlDestroyMatMulHeuristicResult(result_);
  }
  MatMul(const MatMul &) = delete;
  MatMul &operator=(const MatMul &) = delete;
  cnnlMatMulDescriptor_t desc() const { return desc_; }
  cnnlMatMulAlgo_t algo() const { return algo_; }
  cnnlMatMulHeuristicResult_t *result() { return &result_; }

 private:
  cnnlMatMulDescriptor_t desc_ = nullptr;
  cnnlMatMulAlgo_t algo_ = nullptr;
  cnnlMatMulHeuristicResult_t result_ = nullptr;
};

struct Case {
  int64_t m, k, n;
  bool trans_a, trans_b;
  float alpha, beta;
};

std::vector<int64_t> a_dims(const Case &c) {
  return c.trans_a ? std::vector<int64_t>{c.k, c.m} : std::vector<int64_t>{c.m, c.k};
}
std::vector<int64_t> b_dims(const Case &c) {
  return c.trans_b ? std::vector<int64_t>{c.n, c.k} : std::vector<int64_t>{c.k, c.n};
}

// D = alpha op(A) op(B) + beta C in double; C is not read when beta is 0.
std::vector<double> reference(const Case &c, const std::vector<float> &a,
                              const std::vector<float> &b, const std::vector<float> &cm) {
  std::vector<double> d(static_cast<size_t>(c.m * c.n));
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < c.k; ++p) {
        const double x = a[c.trans_a ? p * c.m + i : i * c.k + p];
        const double y = b[c.trans_b ? j * c.k + p : p * c.n + j];
        sum += x * y;
      }
      double v = double{c.alpha} * sum;
      if (c.beta != 0.0f) v += double{c.beta} * cm[i * c.n + j];
      d[i * c.n + j] = v;
    }
  }
  return d;
}

struct Result {
  cnnlStatus_t status;
  std::vector<float> d;
};

// The fft's sequence: descriptor, heuristic, workspace query (0), MatMul_v2;
// `in_place` passes C's buffer as D too.
Result run(const Handle &handle, const Case &c, const std::vector<float> &a,
           const std::vector<float> &b, const std::vector<float> &cm, bool in_place) {
  MatMul mm(c.trans_a, c.trans_b);
  Desc a_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, a_dims(c));
  Desc b_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, b_dims(c));
  Desc c_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {c.m, c.n});
  Desc d_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {c.m, c.n});
  int returned = 0;
  EXPECT_EQ(cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a_desc, b_desc, c_desc, d_desc, nullptr,
                                       1, mm.result(), &returned),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(returned, 1);
  size_t workspace = 99;
  EXPECT_EQ(cnnlGetMatMulHeuristicResult(*mm.result(), mm.algo(), &workspace), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace, 0u);
  DeviceBuffer<float> a_dev(a), b_dev(b), c_dev(cm);
  DeviceBuffer<float> d_dev(std::vector<float>(cm.size(), -7.0f));
  float *d_ptr = in_place ? c_dev.get() : d_dev.get();
  Result r;
  r.status =
      cnnlMatMul_v2(handle, mm.desc(), mm.algo(), &c.alpha, a_desc, a_dev.get(), b_desc,
                    b_dev.get(), &c.beta, c_desc, c_dev.get(), nullptr, workspace, d_desc, d_ptr);
  r.d = in_place ? c_dev.download() : d_dev.download();
  if (!in_place) {
    // C is an input: left as it was.
    // Bytes, not floats: C may hold NaNs. An empty C has no data pointer.
    const auto c_after = c_dev.download();
    EXPECT_EQ(c_after.size(), cm.size());
    if (c_after.size() == cm.size() && !cm.empty())
      EXPECT_EQ(0, std::memcmp(c_after.data(), cm.data(), cm.size() * sizeof(float)));
  }
  return r;
}

// Float accumulation of k products against double: well within 1e-5.
void expect_matmul(const Case &c, uint32_t seed, bool in_place = false, bool nan_c = false) {
  SCOPED_TRACE(::testing::Message() << "m " << c.m << " k " << c.k << " n " << c.n << " transa "
                                    << c.trans_a << " transb " << c.trans_b << " alpha " << c.alpha
                                    << " beta " << c.beta << " in_place " << in_place);
  Handle handle;
  Random random(seed);
  const auto a = random.floats(static_cast<size_t>(c.m * c.k), -1.0f, 1.0f);
  const auto b = random.floats(static_cast<size_t>(c.k * c.n), -1.0f, 1.0f);
  auto cm = random.floats(static_cast<size_t>(c.m * c.n), -1.0f, 1.0f);
  if (nan_c) cm.assign(cm.size(), std::numeric_limits<float>::quiet_NaN());
  const Result r = run(handle, c, a, b, cm, in_place);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  for (float x : r.d) ASSERT_TRUE(std::isfinite(x)) << "an element of D is " << x;
  expect_close(r.d, reference(c, a, b, cm), 1e-5);
  const mlusimReport_t report = handle.last_op_report();
  EXPECT_EQ(report.launches, 1);
}

TEST(CnnlMatMul, EveryTransposeCombination) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) expect_matmul({37, 53, 45, ta, tb, 1.5f, -0.75f}, 1);
}

TEST(CnnlMatMul, AlphaAndBeta) {
  expect_matmul({9, 16, 33, false, false, 1.0f, 1.0f}, 2);
  expect_matmul({9, 16, 33, true, false, -2.0f, 0.5f}, 3);
  expect_matmul({1, 1, 1, false, true, 0.25f, 3.0f}, 4);
  expect_matmul({5, 7, 3, false, false, 0.0f, 2.0f}, 5);  // D = beta C
}

// beta 0: C is not read, so NaN there does not reach D.
TEST(CnnlMatMul, BetaZeroDoesNotReadC) {
  for (bool ta : {false, true}) expect_matmul({20, 31, 40, ta, true, 0.5f, 0.0f}, 6, false, true);
  expect_matmul({20, 31, 40, false, false, 1.0f, 0.0f}, 7, true, true);  // and in place
}

// d == c: D overwrites C, each element after its own C was read.
TEST(CnnlMatMul, DMayBeC) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) expect_matmul({33, 17, 70, ta, tb, 1.25f, -1.5f}, 8, true);
}

// k = 0: D = beta C (alpha times an empty sum).
TEST(CnnlMatMul, EmptyK) { expect_matmul({6, 0, 10, false, false, 2.0f, 0.5f}, 9); }

// m or n 0: nothing to compute, nothing launched.
TEST(CnnlMatMul, EmptyOutputLaunchesNothing) {
  Handle handle;
  Random random(10);
  const Case c{0, 4, 5, false, false, 1.0f, 0.0f};
  const Result r = run(handle, c, {}, random.floats(20, -1.0f, 1.0f), {}, false);
  EXPECT_EQ(r.status, CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);
}

// mlu-ops v1.11.1's fftMatMul: [batch, n] x [n, n]^T, alpha the scale, beta 0,
// c and d one buffer.
TEST(CnnlMatMul, FftCallSequence) {
  expect_matmul({8, 64, 64, false, true, 1.0f / 64, 0.0f}, 11, true);
}

// Rows of 20000 floats: the B tile holds 4 of k = 10 (three tiles) and each
// task takes its 7 rows in two blocks (MLU370-X4's 764 KiB of NRAM).
TEST(CnnlMatMul, SeveralKTilesAndRowBlocks) {
  expect_matmul({200, 10, 20000, true, false, 0.5f, 2.0f}, 12);
  expect_matmul({200, 10, 20000, false, false, 1.0f, 0.0f}, 13, true);
}

// On the MLU270 (fewer cores, less NRAM) as well.
TEST(CnnlMatMul, OnMlu270) {
  DevicePreset preset("MLU270");
  expect_matmul({50, 40, 1000, true, true, 1.0f, 1.0f}, 14);
}

TEST(CnnlMatMul, DescriptorCallsUnderBothNames) {
  cnnlMatMulDescriptor_t desc = nullptr;
  cnnlMatMulAlgo_t algo = nullptr;
  ASSERT_EQ(cnnlMatMulDescCreate(&desc), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlMatMulAlgoCreate(&algo), CNNL_STATUS_SUCCESS);
  const int32_t one = 1;
  const cnnlDataType_t fp32 = CNNL_DTYPE_FLOAT;
  const bool allow_tf32 = true;  // mlu-ops passes a bool with sizeof(int32_t)
  EXPECT_EQ(cnnlSetMatMulDescAttr(desc, CNNL_MATMUL_DESC_TRANSA, &one, 4), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(cnnlSetMatMulDescAttr(desc, CNNL_MATMUL_DESC_COMPUTE_TYPE, &fp32, sizeof fp32),
            CNNL_STATUS_SUCCESS);
  int32_t tf32_buf = 0;
  std::memcpy(&tf32_buf, &allow_tf32, sizeof allow_tf32);
  EXPECT_EQ(cnnlSetMatMulDescAttr(desc, CNNL_MATMUL_ALLOW_TF32, &tf32_buf, 4), CNNL_STATUS_SUCCESS);
  // One object whichever name destroys it: the other name then refuses it.
  EXPECT_EQ(cnnlDestroyMatMulDescriptor(desc), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlMatMulDescDestroy", "not a live",
                 cnnlMatMulDescDestroy(desc));
  EXPECT_EQ(cnnlDestroyMatMulAlgo(algo), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlMatMulAlgoDestroy", "not a live",
                 cnnlMatMulAlgoDestroy(algo));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlCreateMatMulDescriptor", "null output pointer",
                 cnnlCreateMatMulDescriptor(nullptr));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlCreateMatMulHeuristicResult", "null output pointer",
                 cnnlCreateMatMulHeuristicResult(nullptr));
  int garbage = 0;
  EXPECT_REFUSED(
      CNNL_STATUS_BAD_PARAM, "cnnlDestroyMatMulHeuristicResult", "not a live",
      cnnlDestroyMatMulHeuristicResult(reinterpret_cast<cnnlMatMulHeuristicResult_t>(&garbage)));
}

TEST(CnnlMatMul, SetDescAttrRefusesBadValues) {
  MatMul mm(false, false);
  const char *api = "cnnlSetMatMulDescAttr";
  const int32_t two = 2, one = 1;
  const int64_t wide = 1;
  const cnnlDataType_t half = CNNL_DTYPE_HALF;
  const auto bogus_type = static_cast<cnnlDataType_t>(99);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "buf is NULL",
                 cnnlSetMatMulDescAttr(mm.desc(), CNNL_MATMUL_DESC_TRANSA, nullptr, 4));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "size_in_bytes is 8",
                 cnnlSetMatMulDescAttr(mm.desc(), CNNL_MATMUL_DESC_TRANSB, &wide, sizeof wide));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "transa is 2",
                 cnnlSetMatMulDescAttr(mm.desc(), CNNL_MATMUL_DESC_TRANSA, &two, 4));
  EXPECT_REFUSED(
      CNNL_STATUS_BAD_PARAM, api, "not a cnnlMatMulDescAttribute_t",
      cnnlSetMatMulDescAttr(mm.desc(), static_cast<cnnlMatMulDescAttribute_t>(42), &one, 4));
  EXPECT_REFUSED(
      CNNL_STATUS_NOT_SUPPORTED, api, "compute type half",
      cnnlSetMatMulDescAttr(mm.desc(), CNNL_MATMUL_DESC_COMPUTE_TYPE, &half, sizeof half));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a cnnlDataType_t",
                 cnnlSetMatMulDescAttr(mm.desc(), CNNL_MATMUL_DESC_COMPUTE_TYPE, &bogus_type,
                                       sizeof bogus_type));
  cnnlMatMulDescriptor_t dead = nullptr;
  ASSERT_EQ(cnnlCreateMatMulDescriptor(&dead), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlDestroyMatMulDescriptor(dead), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live MatMul descriptor",
                 cnnlSetMatMulDescAttr(dead, CNNL_MATMUL_DESC_TRANSA, &one, 4));
  // A refused value leaves the descriptor as it was: still no transposes, so
  // a [2, 3] x [3, 4] product is accepted.
  Handle handle;
  Desc a(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 3}),
      b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {3, 4});
  Desc cd(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 4});
  int returned = 0;
  EXPECT_EQ(cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 1, mm.result(),
                                       &returned),
            CNNL_STATUS_SUCCESS);
}

TEST(CnnlMatMul, HeuristicCalls) {
  Handle handle;
  MatMul mm(false, true);
  Desc a(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8}),
      b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {6, 8});
  Desc cd(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 6});
  Desc wrong_b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 6});  // [k, n] but transb is set
  Desc half_b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {6, 8});
  const char *api = "cnnlGetMatMulAlgoHeuristic";
  size_t workspace = 5;
  // A result not yet filled by the heuristic holds no algorithm.
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetMatMulHeuristicResult", "never filled",
                 cnnlGetMatMulHeuristicResult(*mm.result(), mm.algo(), &workspace));
  EXPECT_EQ(workspace, 5u);
  int returned = -1;
  EXPECT_EQ(
      cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 0, nullptr, &returned),
      CNNL_STATUS_SUCCESS);
  EXPECT_EQ(returned, 0);
  cnnlMatMulHeuristicResult_t results[3] = {*mm.result(), nullptr, nullptr};
  EXPECT_EQ(
      cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 3, results, &returned),
      CNNL_STATUS_SUCCESS);
  EXPECT_EQ(returned, 1);
  EXPECT_EQ(cnnlGetMatMulHeuristicResult(*mm.result(), mm.algo(), &workspace), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace, 0u);

  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live handle",
                 cnnlGetMatMulAlgoHeuristic(nullptr, mm.desc(), a, b, cd, cd, nullptr, 1,
                                            mm.result(), &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live MatMul descriptor",
                 cnnlGetMatMulAlgoHeuristic(handle, nullptr, a, b, cd, cd, nullptr, 1, mm.result(),
                                            &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "must equal a's k",
                 cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, wrong_b, cd, cd, nullptr, 1,
                                            mm.result(), &returned));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "float tensors",
                 cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, half_b, cd, cd, nullptr, 1,
                                            mm.result(), &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "d_desc is NULL",
                 cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, nullptr, nullptr, 1,
                                            mm.result(), &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "return_algo_count is NULL",
                 cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 1,
                                            mm.result(), nullptr));
  EXPECT_REFUSED(
      CNNL_STATUS_BAD_PARAM, api, "result_array is NULL",
      cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 1, nullptr, &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "requested_algo_count = -1",
                 cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, -1,
                                            mm.result(), &returned));
  cnnlMatMulHeuristicResult_t dead = nullptr;
  ASSERT_EQ(cnnlCreateMatMulHeuristicResult(&dead), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlDestroyMatMulHeuristicResult(dead), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(
      CNNL_STATUS_BAD_PARAM, api, "result_array[0]",
      cnnlGetMatMulAlgoHeuristic(handle, mm.desc(), a, b, cd, cd, nullptr, 1, &dead, &returned));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetMatMulHeuristicResult",
                 "not a live MatMul heuristic result",
                 cnnlGetMatMulHeuristicResult(dead, mm.algo(), &workspace));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetMatMulHeuristicResult",
                 "not a live MatMul algorithm",
                 cnnlGetMatMulHeuristicResult(*mm.result(), nullptr, &workspace));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetMatMulHeuristicResult", "workspace_size is NULL",
                 cnnlGetMatMulHeuristicResult(*mm.result(), mm.algo(), nullptr));
}

TEST(CnnlMatMul, RefusesBadArguments) {
  Handle handle;
  MatMul mm(false, false);
  Desc a_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8});
  Desc b_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 6});
  Desc cd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 6});
  Desc b_wrong_k(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {7, 6});
  Desc d_wrong(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 5});
  Desc c_wrong(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {6, 4});
  Desc a_3d(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {1, 4, 8});
  Desc a_half(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {4, 8});
  Desc d_int(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 6});
  Desc a_strided(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8}, {16, 1});
  Desc unset(Desc::Unset{});
  DeviceBuffer<float> a(std::vector<float>(32, 1.0f)), b(std::vector<float>(48, 1.0f));
  DeviceBuffer<float> c(std::vector<float>(24, 1.0f)), d(24), big(64);
  const float alpha = 1.0f, beta = 1.0f, zero = 0.0f;
  const char *api = "cnnlMatMul_v2";
  struct Args {
    cnnlHandle_t handle;
    cnnlMatMulDescriptor_t desc;
    cnnlMatMulAlgo_t algo;
    const float *alpha;
    cnnlTensorDescriptor_t a_desc;
    const void *a;
    cnnlTensorDescriptor_t b_desc;
    const void *b;
    const float *beta;
    cnnlTensorDescriptor_t c_desc;
    void *c;
    cnnlTensorDescriptor_t d_desc;
    void *d;
  };
  const Args good{handle,  mm.desc(), mm.algo(), &alpha,  a_desc,  a.get(), b_desc,
                  b.get(), &beta,     cd_desc,   c.get(), cd_desc, d.get()};
  auto call = [&](Args x) {
    return cnnlMatMul_v2(x.handle, x.desc, x.algo, x.alpha, x.a_desc, x.a, x.b_desc, x.b, x.beta,
                         x.c_desc, x.c, nullptr, 0, x.d_desc, x.d);
  };
  auto with = [&](auto change) {
    Args x = good;
    change(x);
    return x;
  };
  ASSERT_EQ(call(good), CNNL_STATUS_SUCCESS);  // the baseline each case below changes
  EXPECT_EQ(d.download(), std::vector<float>(24, 9.0f));
  d.upload(std::vector<float>(24, -1.0f));  // what every refused call must leave

  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live handle",
                 call(with([](Args &x) { x.handle = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live MatMul descriptor",
                 call(with([](Args &x) { x.desc = nullptr; })));
  cnnlMatMulDescriptor_t dead = nullptr;
  ASSERT_EQ(cnnlCreateMatMulDescriptor(&dead), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlDestroyMatMulDescriptor(dead), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live MatMul descriptor",
                 call(with([&](Args &x) { x.desc = dead; })));
  int garbage = 0;
  EXPECT_REFUSED(
      CNNL_STATUS_BAD_PARAM, api, "not a live MatMul algorithm",
      call(with([&](Args &x) { x.algo = reinterpret_cast<cnnlMatMulAlgo_t>(&garbage); })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "alpha is NULL",
                 call(with([](Args &x) { x.alpha = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "beta is NULL",
                 call(with([](Args &x) { x.beta = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "a_desc is NULL",
                 call(with([](Args &x) { x.a_desc = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "c_desc was never set",
                 call(with([&](Args &x) { x.c_desc = unset; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "a matrix (2 dims)",
                 call(with([&](Args &x) { x.a_desc = a_3d; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "its k = 7 must equal a's k = 8",
                 call(with([&](Args &x) { x.b_desc = b_wrong_k; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "d is [4,5]",
                 call(with([&](Args &x) { x.d_desc = d_wrong; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "c is [6,4]",
                 call(with([&](Args &x) { x.c_desc = c_wrong; })));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "a [4,8] ARRAY half: float tensors",
                 call(with([&](Args &x) { x.a_desc = a_half; })));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "d [4,6] ARRAY int32: float tensors",
                 call(with([&](Args &x) { x.d_desc = d_int; })));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "dense tensors", call(with([&](Args &x) {
                   x.a_desc = a_strided;
                   x.a = big.get();
                 })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "a = 0x0 is not device memory",
                 call(with([](Args &x) { x.a = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "b = 0x0 is not device memory",
                 call(with([](Args &x) { x.b = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "d = 0x0 is not device memory",
                 call(with([](Args &x) { x.d = nullptr; })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "c = 0x0 is not device memory",
                 call(with([](Args &x) { x.c = nullptr; })));
  // D may be C itself, but no other overlap: not a part of C, not an input.
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "share memory: d may be c itself",
                 call(with([&](Args &x) {
                   x.c = big.get();
                   x.d = big.get() + 4;
                 })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "d and a share memory",
                 call(with([&](Args &x) { x.d = a.get(); })));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "d and b share memory",
                 call(with([&](Args &x) { x.d = b.get() + 8; })));

  // A row of B and of D that does not fit one core's NRAM (2 x 400 KB).
  Desc wide_b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 100000});
  Desc wide_cd(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 100000});
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "in one core's NRAM", call(with([&](Args &x) {
                   x.b_desc = wide_b;
                   x.c_desc = wide_cd;
                   x.d_desc = wide_cd;
                 })));
  // Nothing refused touched D.
  EXPECT_EQ(d.download(), std::vector<float>(24, -1.0f));

  // A NULL algorithm is the one algorithm.
  EXPECT_EQ(call(with([](Args &x) { x.algo = nullptr; })), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d.download(), std::vector<float>(24, 9.0f));
  // beta 0: C is not read, so its pointer is not either.
  EXPECT_EQ(call(with([&](Args &x) {
              x.c = nullptr;
              x.beta = &zero;
            })),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d.download(), std::vector<float>(24, 8.0f));
}

}  // namespace
}  // namespace cnnl_test
