// masked_im2col_forward in `mlusim demo`: RetinaNet's MaskedConv2d case of the
// design doc (ops/masked_im2col_forward/masked_im2col_forward_cases.h: feature
// [1,256,20,20], 200 masks, 3x3, pad 1) in float and half, and the larger map
// in float, each checked bit for bit against the CPU reference.
#include <cstdio>
#include <cstring>
#include <vector>

#include "harness/harness.h"
#include "harness/masked_im2col_forward.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"
#include "tools/demo.h"

namespace mluop::masked_im2col_forward {
namespace {

template <typename T>
mlusim::demo::Row run_case(const cases::NetworkCase &c) {
  constexpr mluOpDataType_t dtype = mlusim::harness::dtype_of<T>();
  mlusim::harness::Handle handle;
  const cases::Problem p = cases::network_problem(c, 7);
  harness::DeviceProblem<T> device(handle, p);
  mlusim::demo::Row row{"masked_im2col_forward", cases::name(c),
                        dtype == MLUOP_DTYPE_HALF ? "half" : "float", {}, "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] { return device.run(handle); })) return row;
  const std::vector<T> expected = p.expected<T>();
  const std::vector<T> got = device.data_col();
  const double diff3 = mlusim::harness::compare(mlusim::harness::to_double(got),
                                                mlusim::harness::to_double(expected),
                                                mlusim::harness::diff3_eps(dtype))
                           .diff3;
  const bool bit_exact = std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)) == 0;
  char accuracy[64];
  std::snprintf(accuracy, sizeof(accuracy), "diff3=%g%s", diff3, bit_exact ? " bit-exact" : "");
  row.accuracy = accuracy;
  row.passed = bit_exact;
  return row;
}

std::vector<mlusim::demo::Row> demo_rows() {
  return {run_case<float>(cases::kDocKernel3), run_case<_Float16>(cases::kDocKernel3),
          run_case<float>(cases::kLargeMap)};
}

std::vector<mlusim::demo::Case> network_cases() {
  static constexpr cases::NetworkCase kNetwork[] = {cases::kDocKernel3, cases::kDocKernel1,
                                                    cases::kLargeMap};
  return mlusim::demo::float_and_half(kNetwork, [](const cases::NetworkCase &c, auto t) {
    return run_case<decltype(t)>(c);
  });
}

}  // namespace
}  // namespace mluop::masked_im2col_forward

MLUSIM_DEMO(masked_im2col_forward, mluop::masked_im2col_forward::demo_rows);
MLUSIM_NETWORK_CASES(masked_im2col_forward, mluop::masked_im2col_forward::network_cases);
