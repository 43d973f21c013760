// psamask on network-scale cases: the simulated device's time and efficiencies,
// and the host cost of the simulated call next to a plain OpenMP version.
//   PSF case_0: the mlu-ops repo's forward case, [123, 3, 12, 638], 29 x 22 mask.
//   PSB case_0: its backward case dy [16, 128, 32, 4096], 32 x 32 mask, at N = 2.
//   PSANet (mmseg): Cityscapes 769 x 769 crops give a 97 x 97 feature map,
//   halved by shrink_factor 2 to 49 x 49 with a 97 x 97 mask; ADE20K 512 x 512
//   gives 32 x 32 with a 66 x 66 mask. A 64 x 64 map with a 15 x 15 mask is the
//   sparse extreme (large output, small windows).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "common/perf_util.h"
#include "psamask/psamask_omp.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::TensorDesc;

void BM_Psamask(benchmark::State &state, bool backward, int psa_type, psamask_omp::Dims d) {
  const std::vector<int> mask = {d.num, d.h, d.w, d.h_mask * d.w_mask};
  const std::vector<int> feature = {d.num, d.h, d.w, d.h * d.w};
  TensorDesc in_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, backward ? feature : mask);
  TensorDesc out_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, backward ? mask : feature);
  const auto in_host = mlusim::harness::Random(5).floats(in_desc.elements(), -1, 1);
  DeviceBuffer<float> in(in_host);
  DeviceBuffer<float> out(out_desc.elements());
  mlusim::harness::Handle handle;

  auto call = [&] {
    return backward ? mluOpPsamaskBackward(handle, psa_type, in_desc, in.get(), d.h_mask, d.w_mask,
                                           out_desc, out.get())
                    : mluOpPsamaskForward(handle, psa_type, in_desc, in.get(), d.h_mask, d.w_mask,
                                          out_desc, out.get());
  };
  // Warm-up, as mlu-ops' gtest does: the first call also pays for the host
  // faulting in the fresh output pages, which the plain version's vector has done.
  if (mluOpStatus_t status = call(); status != MLUOP_STATUS_SUCCESS) {
    state.SkipWithError(mluOpGetErrorString(status));
    return;
  }
  double sim_ms = 0;
  for (auto _ : state) sim_ms += mlusim::perf::wall_ms(call);
  mlusim::perf::set_device_counters(state, handle.last_op_report());

  std::vector<float> plain(out_desc.elements());
  const double cpu_ms = mlusim::perf::best_wall_ms(5, [&] {
    if (backward)
      psamask_omp::backward(psa_type, in_host.data(), plain.data(), d);
    else
      psamask_omp::forward(psa_type, in_host.data(), plain.data(), d);
  });
  mlusim::perf::set_host_counters(state, sim_ms / static_cast<double>(state.iterations()), cpu_ms);
  state.counters["same_as_omp"] = out.download() == plain ? 1 : 0;  // a sanity check, not a test
}

struct Case {
  const char *name;
  bool backward;
  psamask_omp::Dims d;
  int iterations;
};

const Case kCases[] = {
    {"PSF_case0_[123,3,12,638]_29x22", false, {123, 3, 12, 29, 22}, 20},
    {"PSB_case0_N2_[2,128,32,1024]_32x32", true, {2, 128, 32, 32, 32}, 3},
    {"PSANet_cityscapes_fwd_[2,49,49,9409]_97x97", false, {2, 49, 49, 97, 97}, 3},
    {"PSANet_cityscapes_bwd_[2,49,49,9409]_97x97", true, {2, 49, 49, 97, 97}, 3},
    {"PSANet_ade20k_fwd_[4,32,32,4356]_66x66", false, {4, 32, 32, 66, 66}, 5},
    {"PSANet_ade20k_bwd_[4,32,32,4356]_66x66", true, {4, 32, 32, 66, 66}, 5},
    {"sparse_fwd_[2,64,64,225]_15x15", false, {2, 64, 64, 15, 15}, 3},
};

const int kRegistered = [] {
  for (const Case &c : kCases) {
    for (int type : {0, 1}) {
      const std::string name = std::string(c.name) + (type == 0 ? "/COLLECT" : "/DISTRIBUTE");
      benchmark::RegisterBenchmark(name.c_str(), BM_Psamask, c.backward, type, c.d)
          ->Iterations(c.iterations)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
