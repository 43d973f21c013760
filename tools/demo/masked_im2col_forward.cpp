// masked_im2col_forward in `mlusim demo`: RetinaNet's MaskedConv2d case of the
// design doc (feature [1,256,20,20], 200 masks, 3x3, pad 1) in float and half,
// and a larger map in float, each checked bit for bit against the CPU reference.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "harness/harness.h"
#include "tests/masked_im2col_forward/network_case.h"
#include "tools/demo.h"

namespace {

using mlusim::harness::Handle;

using masked_im2col_testing::NetworkCase;
using masked_im2col_testing::Shape;

template <typename T>
mlusim::demo::Row run_case(const Shape &s) {
  Handle handle;
  NetworkCase<T> c(handle, s, 7);
  mlusim::demo::Row row;
  row.op = "masked_im2col_forward";
  row.case_name = "[1," + std::to_string(s.channels) + "," + std::to_string(s.height) + "," +
                  std::to_string(s.width) + "] " + std::to_string(s.mask_cnt) + "m k" +
                  std::to_string(s.kernel) + " p" + std::to_string(s.pad);
  row.dtype = c.dtype == MLUOP_DTYPE_HALF ? "half" : "float";
  if (!mlusim::demo::run_timed(row, handle, [&] { return c.run(handle); })) return row;
  const std::vector<T> expected = c.expected();
  const std::vector<T> got = c.data_col->download();
  const double diff3 = mlusim::harness::compare(mlusim::harness::to_double(got),
                                                mlusim::harness::to_double(expected),
                                                mlusim::harness::diff3_eps(c.dtype))
                           .diff3;
  const bool bit_exact = std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)) == 0;
  char accuracy[64];
  std::snprintf(accuracy, sizeof(accuracy), "diff3=%g%s", diff3, bit_exact ? " bit-exact" : "");
  row.accuracy = accuracy;
  row.passed = bit_exact;
  return row;
}

std::vector<mlusim::demo::Row> run_masked_im2col_forward() {
  const Shape network{256, 20, 20, 200, 3, 1};
  const Shape large_map{256, 100, 152, 4000, 3, 1};
  return {run_case<float>(network), run_case<_Float16>(network), run_case<float>(large_map)};
}

}  // namespace

MLUSIM_DEMO(masked_im2col_forward, run_masked_im2col_forward);
