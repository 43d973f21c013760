// mlusim demo deform_roi_pool_forward: mmdet's DeformRoIPoolPack on the
// stride-8 FPN level of an 800x1216 image (the design doc's network case 2:
// 13 rois, 7x7, adaptive sampling, gamma 0.1, offsets), float and half, each
// against the CPU reference.
#include <spdlog/fmt/fmt.h>

#include <vector>

#include "perf/deform_roi_pool_forward/network_cases.h"
#include "tools/demo.h"

namespace {

template <typename T>
mlusim::demo::Row run_case(const drp_testing::Problem &p, const char *dtype) {
  drp_testing::OnDevice<T> device(p);
  drp_testing::Handle handle;
  mlusim::demo::Row row{"deform_roi_pool_forward", drp_testing::kNetworkCases[1].name, dtype, {},
                        "", false, 0};
  if (!mlusim::demo::run_timed(row, handle, [&] {
        return device.call(handle, drp_testing::DeformRoiPoolPipeline::kPingPong);
      }))
    return row;
  const auto d = mlusim::harness::compare(device.output(), drp_testing::reference(p),
                                          mlusim::harness::diff3_eps(p.dtype));
  row.accuracy = fmt::format("diff1={:.2g} diff2={:.2g}", d.diff1, d.diff2);
  const double bound = drp_testing::threshold(p.dtype);
  row.passed = d.diff1 <= bound && d.diff2 <= bound;
  return row;
}

std::vector<mlusim::demo::Row> run() {
  const auto &c = drp_testing::kNetworkCases[1];
  return {run_case<float>(drp_testing::network_problem(c, MLUOP_DTYPE_FLOAT), "float"),
          run_case<_Float16>(drp_testing::network_problem(c, MLUOP_DTYPE_HALF), "half")};
}

}  // namespace

MLUSIM_DEMO(deform_roi_pool_forward, run);
