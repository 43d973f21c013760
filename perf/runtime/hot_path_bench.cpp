// What the simulator costs per intrinsic (checks + cost accounting), with
// tracing off and on, next to the same arithmetic as a plain loop; and what an
// empty launch of the whole device costs.
#include <benchmark/benchmark.h>

#include <vector>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

constexpr int kRepeats = 20000;

__mlu_global__ void repeated_add(float *out, int count, int repeats) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, a, count);
  __nram_buffer__(float, b, count);
  __bang_write_value(a, count, 1.0f);
  __bang_write_value(b, count, 0.5f);
  for (int i = 0; i < repeats; ++i) __bang_add(a, a, b, count);
  __memcpy(out, a, count * static_cast<int>(sizeof(float)), NRAM2GDRAM);
}

void run_kernel(benchmark::State &state, bool tracing) {
  const int count = static_cast<int>(state.range(0));
  mlusim::harness::DeviceBuffer<float> out(count);
  if (tracing) {
    mlusimTraceClear();
    mlusimTraceStart();
  }
  for (auto _ : state) {
    cnrtRet_t ret = MLUSIM_LAUNCH(repeated_add, (cnrtDim3_t{1, 1, 1}), cnrtFuncTypeBlock, nullptr,
                                  out.get(), count, kRepeats);
    if (ret != cnrtSuccess) state.SkipWithError(mlusimGetLastError());
    if (tracing) mlusimTraceClear();
  }
  if (tracing) mlusimTraceStop();
  state.counters["ns_per_intrinsic"] = benchmark::Counter(
      static_cast<double>(kRepeats), benchmark::Counter::kIsIterationInvariantRate |
                                         benchmark::Counter::kInvert);
}

void BM_BangAdd_TracingOff(benchmark::State &state) { run_kernel(state, false); }
void BM_BangAdd_TracingOn(benchmark::State &state) { run_kernel(state, true); }

void BM_PlainAdd(benchmark::State &state) {
  const int count = static_cast<int>(state.range(0));
  std::vector<float> a(count, 1.0f), b(count, 0.5f);
  for (auto _ : state) {
    for (int i = 0; i < kRepeats; ++i) {
      for (int k = 0; k < count; ++k) a[k] = a[k] + b[k];
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(a.data());
  }
  state.counters["ns_per_intrinsic"] = benchmark::Counter(
      static_cast<double>(kRepeats), benchmark::Counter::kIsIterationInvariantRate |
                                         benchmark::Counter::kInvert);
}

__mlu_global__ void empty_kernel() {}

void BM_EmptyLaunchWholeDevice(benchmark::State &state) {
  for (auto _ : state) {
    if (MLUSIM_LAUNCH(empty_kernel, (cnrtDim3_t{4, 8, 1}), cnrtFuncTypeUnion1, nullptr) !=
        cnrtSuccess)
      state.SkipWithError(mlusimGetLastError());
  }
}

BENCHMARK(BM_PlainAdd)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK(BM_BangAdd_TracingOff)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK(BM_BangAdd_TracingOn)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK(BM_EmptyLaunchWholeDevice)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
