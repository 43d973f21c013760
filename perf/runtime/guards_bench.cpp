// What the bug-finding checks cost (docs/finding_bugs.md): the fill of on-chip
// memory before every launch, guarded GDRAM allocations, the race check.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"

namespace {

// As mlu-ops' kernels do: one buffer over the whole usable NRAM.
__mlu_global__ void declares_whole_nram() {
  __nram_buffer__(char, buf, MAX_NRAM_SIZE);
  (void)buf;
}
__mlu_global__ void declares_4k_nram() {
  __nram_buffer__(char, buf, 4096);
  (void)buf;
}

const char *const kFills[] = {"off", "nan"};

// The fill in use, as mlusimSetMemoryFill takes it.
std::string fill_setting() {
  const int byte = mlusimGetMemoryFill();
  return byte < 0 ? "off" : std::to_string(byte);
}

// Launches of the whole device (32 cores) with and without the fill; range(0)
// picks the fill, range(1) the kernel (0: whole NRAM, 1: 4 KiB, 2: alternating).
void BM_LaunchFill(benchmark::State &state) {
  const std::string saved_fill = fill_setting();
  mlusimSetMemoryFill(kFills[state.range(0)]);
  const int kind = static_cast<int>(state.range(1));
  bool whole = kind == 0;
  for (auto _ : state) {
    const cnrtRet_t ret =
        whole ? MLUSIM_LAUNCH(declares_whole_nram, (cnrtDim3_t{4, 8, 1}), cnrtFuncTypeUnion1,
                              nullptr)
              : MLUSIM_LAUNCH(declares_4k_nram, (cnrtDim3_t{4, 8, 1}), cnrtFuncTypeUnion1,
                              nullptr);
    if (ret != cnrtSuccess) state.SkipWithError(mlusimGetLastError());
    if (kind == 2) whole = !whole;
  }
  mlusimSetMemoryFill(saved_fill.c_str());
}

// cnrtMalloc + cnrtFree of range(0) bytes; range(1) guard on/off, range(2) the fill.
void BM_GdramMallocFree(benchmark::State &state) {
  const std::string saved_fill = fill_setting();
  const int saved_guard = mlusimGetGdramGuard();
  mlusimSetGdramGuard(static_cast<int>(state.range(1)));
  mlusimSetMemoryFill(kFills[state.range(2)]);
  for (auto _ : state) {
    void *p = nullptr;
    if (cnrtMalloc(&p, static_cast<size_t>(state.range(0))) != cnrtSuccess ||
        cnrtFree(p) != cnrtSuccess)
      state.SkipWithError("cnrtMalloc/cnrtFree failed");
  }
  mlusimSetGdramGuard(saved_guard);
  mlusimSetMemoryFill(saved_fill.c_str());
}

// Each task loads and stores `copies` 256-byte pieces of its own rows, every
// other piece (so the race check's log cannot merge them into one range).
__mlu_global__ void copies_own_rows(float *data, int copies) {
  __nram_buffer__(float, piece, 64);
  float *rows = data + static_cast<size_t>(taskId) * copies * 2 * 64;
  for (int i = 0; i < copies; ++i) {
    __memcpy(piece, rows + i * 2 * 64, 64 * sizeof(float), GDRAM2NRAM);
    __memcpy(rows + i * 2 * 64, piece, 64 * sizeof(float), NRAM2GDRAM);
  }
}

// A 32-core BLOCK launch of 2 x range(1) GDRAM copies per core, with the race
// check off (range(0) 0) or on (1): the difference is the log and the search.
void BM_RaceCheck(benchmark::State &state) {
  const int copies = static_cast<int>(state.range(1));
  setenv("MLUSIM_RACES", state.range(0) != 0 ? "fault" : "off", 1);
  void *data = nullptr;
  if (cnrtMalloc(&data, size_t{32} * copies * 2 * 64 * sizeof(float)) != cnrtSuccess)
    state.SkipWithError("cnrtMalloc failed");
  for (auto _ : state)
    if (MLUSIM_LAUNCH(copies_own_rows, (cnrtDim3_t{32, 1, 1}), cnrtFuncTypeBlock, nullptr,
                      static_cast<float *>(data), copies) != cnrtSuccess)
      state.SkipWithError(mlusimGetLastError());
  state.counters["accesses"] = benchmark::Counter(
      2.0 * 32 * copies, benchmark::Counter::kIsIterationInvariantRate);
  cnrtFree(data);
  unsetenv("MLUSIM_RACES");
}

BENCHMARK(BM_RaceCheck)->ArgsProduct({{0, 1}, {64, 4096}})->UseRealTime();
BENCHMARK(BM_LaunchFill)->ArgsProduct({{0, 1}, {0, 1, 2}})->UseRealTime();
BENCHMARK(BM_GdramMallocFree)
    ->ArgsProduct({{256, 1 << 20}, {0, 1}, {0, 1}})
    ->UseRealTime();

}  // namespace
