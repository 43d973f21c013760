// __bang_active_* and the plain __bang_<f> math functions: each against std::
// math in double, float and half.
#include <cmath>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

template <typename T>
using Activation = void (*)(T *, const T *, int);

template <typename T>
__mlu_global__ void apply(Activation<T> f, T *out, const T *in, int n) {
  __nram_buffer__(T, x, n);
  __nram_buffer__(T, y, n);
  __memcpy(x, in, n * sizeof(T), GDRAM2NRAM);
  f(y, x, n);
  __memcpy(out, y, n * sizeof(T), NRAM2GDRAM);
}

struct Case {
  const char *name;
  float lo, hi;  // input range
  double (*reference)(double);
};

template <typename T>
Activation<T> intrinsic(const std::string &name) {
  if (name == "abs") return __bang_active_abs<T>;
  if (name == "relu") return __bang_active_relu<T>;
  if (name == "recip") return __bang_active_recip<T>;
  if (name == "reciphp") return __bang_active_reciphp<T>;
  if (name == "recip_greater_1") return __bang_active_recip_greater_1<T>;
  if (name == "sqrt") return __bang_active_sqrt<T>;
  if (name == "rsqrt") return __bang_active_rsqrt<T>;
  if (name == "exp") return __bang_active_exp<T>;
  if (name == "exp_less_0") return __bang_active_exp_less_0<T>;
  if (name == "log") return __bang_active_log<T>;
  if (name == "sigmoid") return __bang_active_sigmoid<T>;
  if (name == "tanh") return __bang_active_tanh<T>;
  if (name == "sin") return __bang_active_sin<T>;
  if (name == "cos") return __bang_active_cos<T>;
  if (name == "gelu") return __bang_active_gelu<T>;
  if (name == "plain abs") return __bang_abs<T>;
  if (name == "plain recip") return __bang_recip<T>;
  if (name == "plain sqrt") return __bang_sqrt<T>;
  if (name == "plain floor") return __bang_floor<T>;
  if (name == "plain log2") return __bang_log2<T>;
  if (name == "plain pow2") return __bang_pow2<T>;
  if (name == "plain sin") return __bang_sin<T>;
  if (name == "plain cos") return __bang_cos<T>;
  return nullptr;
}

const Case kCases[] = {
    {"abs", -8, 8, [](double x) { return std::fabs(x); }},
    {"relu", -8, 8, [](double x) { return x > 0 ? x : 0.0; }},
    {"recip", 0.1f, 10, [](double x) { return 1 / x; }},
    {"reciphp", -10, -0.1f, [](double x) { return 1 / x; }},
    {"recip_greater_1", 1, 100, [](double x) { return 1 / x; }},
    {"sqrt", 0, 100, [](double x) { return std::sqrt(x); }},
    {"rsqrt", 0.01f, 100, [](double x) { return 1 / std::sqrt(x); }},
    {"exp", -5, 5, [](double x) { return std::exp(x); }},
    {"exp_less_0", -10, 0, [](double x) { return std::exp(x); }},
    {"log", 0.01f, 1000, [](double x) { return std::log(x); }},
    {"sigmoid", -8, 8, [](double x) { return 1 / (1 + std::exp(-x)); }},
    {"tanh", -4, 4, [](double x) { return std::tanh(x); }},
    {"sin", -3, 3, [](double x) { return std::sin(x); }},
    {"cos", -3, 3, [](double x) { return std::cos(x); }},
    {"gelu", -4, 4, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
    {"plain abs", -8, 8, [](double x) { return std::fabs(x); }},
    {"plain recip", 0.1f, 10, [](double x) { return 1 / x; }},
    {"plain sqrt", 0, 100, [](double x) { return std::sqrt(x); }},
    {"plain floor", -50, 50, [](double x) { return std::floor(x); }},
    {"plain log2", 0.01f, 1000, [](double x) { return std::log2(x); }},
    {"plain pow2", -8, 8, [](double x) { return std::exp2(x); }},
    {"plain sin", -3, 3, [](double x) { return std::sin(x); }},
    {"plain cos", -3, 3, [](double x) { return std::cos(x); }},
};

template <typename Tag>
class Activations : public ::testing::Test {};
TYPED_TEST_SUITE(Activations, FloatAndHalf);

TYPED_TEST(Activations, MatchTheMathLibrary) {
  using T = typename TypeParam::T;
  constexpr int n = 1024;
  for (const Case &c : kCases) {
    SCOPED_TRACE(c.name);
    auto in = sample<T>(n, c.lo, c.hi, 7);
    DeviceBuffer<T> x(in.values), y(n);
    run_on_one_core(apply<T>, intrinsic<T>(c.name), y.get(), static_cast<const T *>(x.get()), n);
    std::vector<double> reference;
    for (double v : in.exact) reference.push_back(c.reference(v));
    expect_close(y.download(), reference);
  }
}

template <typename T>
__mlu_global__ void divide(T *out, const T *a, const T *b, int n) {
  __nram_buffer__(T, x, n);
  __nram_buffer__(T, y, n);
  __memcpy(x, a, n * sizeof(T), GDRAM2NRAM);
  __memcpy(y, b, n * sizeof(T), GDRAM2NRAM);
  __bang_div(x, x, y, n);
  __memcpy(out, x, n * sizeof(T), NRAM2GDRAM);
}

TYPED_TEST(Activations, DivideMatchesTheQuotient) {
  using T = typename TypeParam::T;
  constexpr int n = 512;
  auto a = sample<T>(n, -10, 10, 1), b = sample<T>(n, 0.5f, 4, 2);
  DeviceBuffer<T> x(a.values), y(b.values), out(n);
  run_on_one_core(divide<T>, out.get(), static_cast<const T *>(x.get()),
                  static_cast<const T *>(y.get()), n);
  std::vector<double> reference;
  for (int i = 0; i < n; ++i) reference.push_back(a.exact[i] / b.exact[i]);
  expect_close(out.download(), reference);
}

__mlu_global__ void exp_of_unaligned_count() {
  __nram_buffer__(float, x, 64);
  __bang_active_exp(x, x, 48);  // 192 bytes: not a whole number of 128-byte granules
}

TEST(ActivationFaults, CountMustFillWholeGranules) {
  expect_mentions(fault_of(exp_of_unaligned_count), {"__bang_active_exp", "alignment"});
}

}  // namespace
}  // namespace intrinsics_test
