// mlusim demo psamask: PSANet's mask layer on ADE20K (mmseg: 512 x 512 crops,
// a 64 x 64 feature map halved to 32 x 32, 66 x 66 mask), one image: forward
// and backward, COLLECT and DISTRIBUTE, each against the CPU reference.
#include <cstdio>
#include <string>
#include <vector>

#include "ops/psamask/psamask_reference.h"
#include "harness/harness.h"
#include "tools/demo.h"

namespace {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::TensorDesc;

mlusim::demo::Row run_case(const psamask_reference::Dims &d, int psa_type, bool backward,
                           const std::vector<float> &in_host) {
  const std::vector<int> mask = {d.num, d.h_feature, d.w_feature, d.h_mask * d.w_mask};
  const std::vector<int> feature = {d.num, d.h_feature, d.w_feature, d.h_feature * d.w_feature};
  TensorDesc in_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, backward ? feature : mask);
  TensorDesc out_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, backward ? mask : feature);
  DeviceBuffer<float> in(in_host);
  DeviceBuffer<float> out(std::vector<float>(out_desc.elements(), 7.0f));
  mlusim::harness::Handle handle;

  const auto shape = [](const std::vector<int> &s) {
    return "[" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) +
           "," + std::to_string(s[3]) + "]";
  };
  mlusim::demo::Row row{backward ? "psamask_backward" : "psamask_forward",
                        shape(backward ? feature : mask) + (psa_type == 0 ? " COLLECT" : " DISTRIBUTE"),
                        "float", {}, "", false, 0};
  const bool ran = mlusim::demo::run_timed(row, handle, [&] {
    return backward ? mluOpPsamaskBackward(handle, psa_type, in_desc, in.get(), d.h_mask,
                                           d.w_mask, out_desc, out.get())
                    : mluOpPsamaskForward(handle, psa_type, in_desc, in.get(), d.h_mask,
                                          d.w_mask, out_desc, out.get());
  });
  if (!ran) return row;
  const auto want = backward ? psamask_reference::backward(psa_type, in_host, d)
                             : psamask_reference::forward(psa_type, in_host, d);
  const auto diffs = mlusim::harness::compare(mlusim::harness::to_double(out.download()),
                                              mlusim::harness::to_double(want),
                                              mlusim::harness::diff3_eps(MLUOP_DTYPE_FLOAT));
  char text[32];
  std::snprintf(text, sizeof(text), "diff3=%g", diffs.diff3);
  row.accuracy = text;
  row.passed = diffs.diff3 == 0;  // pure IO: exact
  return row;
}

std::vector<mlusim::demo::Row> run() {
  const psamask_reference::Dims d{1, 32, 32, 66, 66};
  mlusim::harness::Random random(66);
  const auto x = random.floats(d.mask_elements(), -1, 1);
  const auto dy = random.floats(d.feature_elements(), -1, 1);
  std::vector<mlusim::demo::Row> rows;
  for (bool backward : {false, true})
    for (int psa_type : {0, 1}) rows.push_back(run_case(d, psa_type, backward, backward ? dy : x));
  return rows;
}

}  // namespace

MLUSIM_DEMO(psamask, run);
