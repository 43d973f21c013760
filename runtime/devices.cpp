#include "runtime/devices.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <iterator>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <mutex>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"

namespace mlusim {
namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;
constexpr size_t GiB = 1024 * MiB;

// Where the figures come from: short tags, which `mlusim devices` and
// docs/devices.md explain in full.
constexpr const char *kDriverMcu = "driver-mcu";
constexpr const char *kDriverAttr = "driver-attr";
constexpr const char *kDriverPeak = "driver-peak";
constexpr const char *kMluOpsKernel = "mlu-ops-sizes";
constexpr const char *kGtestCluster = "mlu-ops-gtest";
constexpr const char *kGuideAlign = "mlu-ops-kernels";
constexpr const char *kGtestFill = "mlu-ops-fill";
constexpr const char *kMluOps372 = "mlu-ops-372";
constexpr const char *kCourseLabs = "course-labs";
constexpr const char *kEstimate = "estimate";

// One board as the driver describes it; the cost model's own constants
// (latencies, widths) are shared estimates, fitted in docs/cost_model.md.
struct Board {
  const char *name;
  int bang_arch;
  int clusters;
  double clock_mhz;
  double gdram_gbps;
  int bus_bits;
  size_t l2, sram, nram, wram, gdram;
  double cluster_gbps;
  double macs[MLUSIM_MATRIX_CLASSES];  // int8, int16, half, float
  // Sources of the figures that differ between boards.
  const char *nram_source, *wram_source, *gdram_source, *cluster_source, *float_macs_source;
};

constexpr double kMlu370Macs[] = {4096, 2048, 1536, 384};
constexpr double kMlu590Macs[] = {4096, 1024, 2048, 512};
// MLU270/290: the driver lists INT8 and INT16 only; half and float are guesses
// at the same ratio as the MLU370's.
constexpr double kMlu2xxMacs[] = {4096, 2048, 1536, 384};

constexpr Board kBoards[] = {
    {"MLU370-X4", 372, 8, 1000, 307.2, 384, 2 * MiB, 4 * MiB, 768 * KiB, 1024 * KiB, 24 * GiB,
     128, {kMlu370Macs[0], kMlu370Macs[1], kMlu370Macs[2], kMlu370Macs[3]}, kMluOpsKernel,
     kEstimate, "card", kGtestCluster, kDriverPeak},
    {"MLU370-S4", 372, 6, 1000, 307.2, 384, 2 * MiB, 4 * MiB, 768 * KiB, 1024 * KiB, 24 * GiB,
     128, {kMlu370Macs[0], kMlu370Macs[1], kMlu370Macs[2], kMlu370Macs[3]}, kMluOpsKernel,
     kEstimate, "card", kGtestCluster, kDriverPeak},
    // One of the card's two devices, as the board presents it. The BANG C
    // guide says 1300 MHz; the driver says 1000 (the M8 runs at 1300): the
    // driver is followed.
    {"MLU370-X8", 372, 4, 1000, 307.2, 384, 2 * MiB, 4 * MiB, 768 * KiB, 1024 * KiB, 24 * GiB,
     128, {kMlu370Macs[0], kMlu370Macs[1], kMlu370Macs[2], kMlu370Macs[3]}, kMluOpsKernel,
     kEstimate, "card", kGtestCluster, kDriverPeak},
    {"MLU370-M8", 372, 8, 1300, 307.2, 384, 2 * MiB, 4 * MiB, 768 * KiB, 1024 * KiB, 48 * GiB,
     128, {kMlu370Macs[0], kMlu370Macs[1], kMlu370Macs[2], kMlu370Macs[3]}, kMluOpsKernel,
     kEstimate, kEstimate, kGtestCluster, kDriverPeak},
    {"MLU270", 270, 4, 1000, 102.4, 256, 1 * MiB, 2 * MiB, 512 * KiB, 1024 * KiB, 16 * GiB,
     102.4, {kMlu2xxMacs[0], kMlu2xxMacs[1], kMlu2xxMacs[2], kMlu2xxMacs[3]},
     kMluOpsKernel, kEstimate, kEstimate, kEstimate,
     kEstimate},
    {"MLU290", 290, 16, 1000, 1228.8, 4096, 2 * MiB, 2 * MiB, 512 * KiB, 512 * KiB, 32 * GiB,
     128, {kMlu2xxMacs[0], kMlu2xxMacs[1], kMlu2xxMacs[2], kMlu2xxMacs[3]}, kEstimate,
     kEstimate, "card", kEstimate, kEstimate},
    {"MLU590-H8", 592, 12, 1500, 2048, 5120, 40 * MiB, 2 * MiB, 448 * KiB, 512 * KiB,
     80 * GiB, 256, {kMlu590Macs[0], kMlu590Macs[1], kMlu590Macs[2], kMlu590Macs[3]},
     kMluOpsKernel, kEstimate, kEstimate, kEstimate, kDriverPeak},
    {"MLU590-M9", 592, 12, 1600, 2764.8, 6144, 48 * MiB, 2 * MiB, 448 * KiB, 512 * KiB,
     64 * GiB, 256, {kMlu590Macs[0], kMlu590Macs[1], kMlu590Macs[2], kMlu590Macs[3]},
     kMluOpsKernel, kEstimate, kEstimate, kEstimate, kDriverPeak},
};

// The cost model's constants no public figure gives (docs/cost_model.md).
// The fitted ones are what `mlusim calibrate --fit` finds on the published
// cases that name them.
//
// Those a generation's boards take apart from the others':
// - the GDRAM latency, for every request and a scalar load's wait: fitted on
//   the course lab's GDRAM loop on the MLU370-X8 (MLU200, MLU300) and on
//   mlu-ops' moe_dispatch_backward_data on the MLU590-M9, whose per-sample
//   copies wait for it (MLU500);
// - an atomic's round trip: a read and a write of GDRAM, about two latencies;
// - a launch's fixed cost: fitted on three_interpolate_forward's MLU270 cases
//   and on mlu-ops' abs case_0 on the MLU590-H8. No MLU370 case isolates it:
//   MLU300 boards take what abs case_0 gives at the MLU300's latency.
struct GenerationConstants {
  int from_arch;  // the generation's first bang_arch
  double gdram_latency_ns, atomic_latency_ns, launch_overhead_us;
};
constexpr GenerationConstants kGenerations[] = {
    {200, 311, 700, 200},
    {300, 311, 700, 0.99},
    {500, 732, 1460, 0.15},
};
const GenerationConstants &generation_of(int bang_arch) {
  const GenerationConstants *g = &kGenerations[0];
  for (const GenerationConstants &next : kGenerations)
    if (bang_arch >= next.from_arch) g = &next;
  return *g;
}
// How long an atomic holds each 64-byte block it covers, the read-modify-write
// at GDRAM: about a DRAM bank's row cycle, a read and a write back (no
// Cambricon figure).
constexpr double kAtomicHoldNs = 50;
constexpr double kOnchipLatencyCycles = 30;
// A cluster's SRAM port: one on-chip copy's width (no public figure), so that
// a lone core's copies take what they took before the port was modelled.
constexpr double kSramBytesPerCycle = 128;
constexpr double kVectorLatencyCycles = 16;
constexpr double kBarrierLatencyCycles = 100;
// The cores of a launch never start at one cycle on a board: the dispatcher
// hands the tasks out one by one. No public figure gives the gap; one cycle
// is the least it can be, and enough to keep cores that run the same code
// from moving in lockstep (docs/cost_model.md, "A launch and an operator call").
constexpr double kDispatchCycles = 1;
// Fitted on the course lab's single matrix-unit launch (03_vector_nram) on the
// MLU370-X8, timed with cnrtNotifierElapsedTime (docs/cost_model.md).
constexpr double kKernelLoadUs = 35;
constexpr int kDmaRequestsInFlight = 4;
constexpr double kGdramWriteExtra = 0.25;
constexpr double kGdramSegmentBytes = 64;
constexpr double kGdramEfficiency = 0.86;
// Scalar code (docs/cost_model.md). The guide (5.3.4) gives 2 cycles for an
// fp add or sub, 1-3 for ordinary arithmetic, logic and compares, 16 for an
// fp32 division and 6-18 for log/recip-like operations; mlusim counts
// operators of the source, not instructions. Entering a block is a guess; an
// on-chip access is fitted on the course lab's NRAM loop on the MLU370-X8
// (30 cycles per iteration: 4 + 10 x 2 + 2 x 3, its accumulator kept in a
// register); a GDRAM load waits the generation's GDRAM latency.
constexpr double kScalarOpCycles = 2;
constexpr double kScalarDivideCycles = 16;
constexpr double kScalarBlockCycles = 4;
constexpr double kScalarOnchipCycles = 3;
constexpr double kScalarSramCycles = 30;
constexpr double kScalarGdramStoreCycles = 5;
// What a kernel's on-chip variables cannot have: mlu-ops' gtest fills every
// NRAM and SRAM byte but 4 KiB before each case (its fill_ram kernel) on the
// boards, so the device keeps no more than that. mlu-ops' own 128 KiB
// (REM_FOR_STACK) is a convention for sizing buffers, not the device's limit.
constexpr size_t kStackReserve = 4 * KiB;

DeviceSpec spec_of(const Board &b) {
  DeviceSpec s{};
  std::snprintf(s.name, sizeof(s.name), "%s", b.name);
  s.bang_arch = b.bang_arch;
  s.clusters = b.clusters;
  s.cores_per_cluster = 4;
  s.nram_bytes = b.nram;
  s.wram_bytes = b.wram;
  s.sram_bytes = b.sram;
  s.stack_reserve_bytes = kStackReserve;
  s.gdram_bytes = b.gdram;
  s.l2_bytes = b.l2;
  s.gdram_bus_bits = b.bus_bits;
  s.clock_ghz = b.clock_mhz / 1000;
  s.gdram_gbps = b.gdram_gbps;
  s.cluster_gbps = b.cluster_gbps;
  s.onchip_bytes_per_cycle = 128;
  s.sram_bytes_per_cycle = kSramBytesPerCycle;
  s.vector_bytes_per_cycle = 128;
  for (int m = 0; m < MLUSIM_MATRIX_CLASSES; ++m) s.matrix_macs_per_cycle[m] = b.macs[m];
  const GenerationConstants &generation = generation_of(b.bang_arch);
  s.gdram_latency_ns = generation.gdram_latency_ns;
  s.atomic_latency_ns = generation.atomic_latency_ns;
  s.atomic_hold_ns = kAtomicHoldNs;
  s.onchip_latency_cycles = kOnchipLatencyCycles;
  s.vector_latency_cycles = kVectorLatencyCycles;
  s.barrier_latency_cycles = kBarrierLatencyCycles;
  s.dispatch_cycles = kDispatchCycles;
  s.launch_overhead_us = generation.launch_overhead_us;
  s.kernel_load_us = kKernelLoadUs;
  s.dma_requests_in_flight = kDmaRequestsInFlight;
  s.gdram_write_extra = kGdramWriteExtra;
  s.gdram_segment_bytes = kGdramSegmentBytes;
  s.gdram_efficiency = kGdramEfficiency;
  s.scalar_op_cycles = kScalarOpCycles;
  s.scalar_divide_cycles = kScalarDivideCycles;
  s.scalar_block_cycles = kScalarBlockCycles;
  s.scalar_onchip_cycles = kScalarOnchipCycles;
  s.scalar_sram_cycles = kScalarSramCycles;
  s.scalar_gdram_load_ns = s.gdram_latency_ns;
  s.scalar_gdram_store_cycles = kScalarGdramStoreCycles;
  s.nram_align_bytes = 64;
  s.vector_count_align_bytes = 128;
  s.transpose_align_bytes = 64;
  return s;
}

const std::vector<DeviceSpec> &presets() {
  static const std::vector<DeviceSpec> all = [] {
    std::vector<DeviceSpec> v;
    for (const Board &b : kBoards) v.push_back(spec_of(b));
    return v;
  }();
  return all;
}

std::string preset_names() {
  std::string names;
  for (const DeviceSpec &p : presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

bool valid_clock_mhz(double mhz) { return std::isfinite(mhz) && mhz >= 100 && mhz <= 3000; }

// MLUSIM_DEVICE, MLUSIM_CLOCK_MHZ and MLUSIM_CONSTANTS: a bad value is kept as a settings
// problem (runtime/settings.h), which fails every launch until it is mended.
DeviceSpec initial_device() {
  DeviceSpec spec = presets().front();
  if (const char *name = std::getenv("MLUSIM_DEVICE")) {
    if (const DeviceSpec *p = find_preset(name)) spec = *p;
    else setting_invalid("MLUSIM_DEVICE", name, "a preset: " + preset_names());
  }
  if (const char *clock = std::getenv("MLUSIM_CLOCK_MHZ")) {
    char *end = nullptr;
    const double mhz = std::strtod(clock, &end);
    if (end != clock && *end == '\0' && valid_clock_mhz(mhz)) spec.clock_ghz = mhz / 1000;
    else setting_invalid("MLUSIM_CLOCK_MHZ", clock, "a clock in MHz from 100 to 3000");
  }
  if (const char *constants = std::getenv("MLUSIM_CONSTANTS")) {
    if (const std::string problem = set_constants(spec, constants); !problem.empty())
      setting_invalid("MLUSIM_CONSTANTS", constants,
                      "name=value pairs, comma-separated, of the estimated constants (here: " +
                          problem + ")");
  }
  return spec;
}

// Every device ever selected, never changed once published: a reader holds a
// reference to a whole, consistent spec without a lock, however often another
// thread selects a new device (each selection keeps one small spec alive).
struct DeviceHistory {
  std::mutex mutex;  // serialises selections
  std::deque<DeviceSpec> specs{initial_device()};
  std::atomic<const DeviceSpec *> current{&specs.back()};
};

DeviceHistory &history() {
  static DeviceHistory h;
  return h;
}

std::string size_text(size_t bytes) {
  if (bytes >= GiB && bytes % GiB == 0) return fmt::format("{} GiB", bytes / GiB);
  if (bytes >= MiB && bytes % MiB == 0) return fmt::format("{} MiB", bytes / MiB);
  return fmt::format("{} KiB", bytes / KiB);
}

// The cost model's estimated constants by name (mlusimSetConstant,
// MLUSIM_CONSTANTS).
struct NamedConstant {
  const char *name;
  double DeviceSpec::*field;
  double DeviceSpec::*same_figure;  // a field that is the same estimate, or null
};

constexpr NamedConstant kConstants[] = {
    {"atomic_hold_ns", &DeviceSpec::atomic_hold_ns, nullptr},
    {"atomic_latency_ns", &DeviceSpec::atomic_latency_ns, nullptr},
    {"barrier_latency_cycles", &DeviceSpec::barrier_latency_cycles, nullptr},
    {"dispatch_cycles", &DeviceSpec::dispatch_cycles, nullptr},
    {"gdram_efficiency", &DeviceSpec::gdram_efficiency, nullptr},
    {"gdram_latency_ns", &DeviceSpec::gdram_latency_ns, &DeviceSpec::scalar_gdram_load_ns},
    {"gdram_segment_bytes", &DeviceSpec::gdram_segment_bytes, nullptr},
    {"gdram_write_extra", &DeviceSpec::gdram_write_extra, nullptr},
    {"kernel_load_us", &DeviceSpec::kernel_load_us, nullptr},
    {"launch_overhead_us", &DeviceSpec::launch_overhead_us, nullptr},
    {"onchip_bytes_per_cycle", &DeviceSpec::onchip_bytes_per_cycle, nullptr},
    {"onchip_latency_cycles", &DeviceSpec::onchip_latency_cycles, nullptr},
    {"scalar_block_cycles", &DeviceSpec::scalar_block_cycles, nullptr},
    {"scalar_divide_cycles", &DeviceSpec::scalar_divide_cycles, nullptr},
    {"scalar_gdram_store_cycles", &DeviceSpec::scalar_gdram_store_cycles, nullptr},
    {"scalar_onchip_cycles", &DeviceSpec::scalar_onchip_cycles, nullptr},
    {"scalar_op_cycles", &DeviceSpec::scalar_op_cycles, nullptr},
    {"scalar_sram_cycles", &DeviceSpec::scalar_sram_cycles, nullptr},
    {"sram_bytes_per_cycle", &DeviceSpec::sram_bytes_per_cycle, nullptr},
    {"vector_latency_cycles", &DeviceSpec::vector_latency_cycles, nullptr},
};

const NamedConstant *named_constant(std::string_view name) {
  for (const NamedConstant &c : kConstants)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace

int preset_count() { return static_cast<int>(presets().size()); }
const DeviceSpec &preset(int index) { return presets()[static_cast<size_t>(index)]; }

const DeviceSpec *find_preset(std::string_view name) {
  for (const DeviceSpec &p : presets())
    if (name == p.name) return &p;
  return nullptr;
}

std::string unknown_preset_message(std::string_view name) {
  return fmt::format("no preset named '{}'; the presets are {}", name, preset_names());
}

const DeviceSpec &current_device() {
  return *history().current.load(std::memory_order_acquire);
}

void set_current_device(const DeviceSpec &spec) {
  DeviceHistory &h = history();
  {
    std::lock_guard<std::mutex> lock(h.mutex);
    h.specs.push_back(spec);  // a deque never moves the specs already published
    h.current.store(&h.specs.back(), std::memory_order_release);
  }
  log::runtime().debug("simulated device is now {} ({} clusters x {} cores at {} MHz)", spec.name,
                       spec.clusters, spec.cores_per_cluster, spec.clock_ghz * 1000);
}

bool set_clock_mhz(double mhz) {
  DeviceSpec spec = current_device();
  if (mhz == 0) {
    const DeviceSpec *rated = find_preset(spec.name);
    if (rated == nullptr) {
      log::runtime().error("mlusimSetClockMHz(0): '{}' is no preset, so it has no rated clock",
                           spec.name);
      return false;
    }
    spec.clock_ghz = rated->clock_ghz;
  } else if (valid_clock_mhz(mhz)) {
    spec.clock_ghz = mhz / 1000;
  } else {
    log::runtime().error("mlusimSetClockMHz: {} MHz is no clock; give 100 to 3000 MHz, or 0 for "
                         "the preset's rated clock",
                         mhz);
    return false;
  }
  set_current_device(spec);
  return true;
}

const char *spec_problem(const DeviceSpec &s) {
  const auto power_of_two = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (s.clusters <= 0 || s.cores_per_cluster <= 0)
    return "clusters and cores_per_cluster must be positive";
  if (s.clusters * s.cores_per_cluster > MLUSIM_MAX_CORES)
    return "clusters x cores_per_cluster exceeds MLUSIM_MAX_CORES";
  if (s.nram_bytes <= s.stack_reserve_bytes) return "nram_bytes must exceed stack_reserve_bytes";
  if (s.clock_ghz <= 0 || s.gdram_gbps <= 0 || s.cluster_gbps <= 0 ||
      s.vector_bytes_per_cycle <= 0 || s.onchip_bytes_per_cycle <= 0 || s.sram_bytes_per_cycle <= 0)
    return "clock_ghz, gdram_gbps, cluster_gbps, vector_bytes_per_cycle, "
           "onchip_bytes_per_cycle and sram_bytes_per_cycle must be positive";
  if (*std::min_element(std::begin(s.matrix_macs_per_cycle), std::end(s.matrix_macs_per_cycle)) <=
      0)
    return "every matrix_macs_per_cycle must be positive";
  if (!power_of_two(s.nram_align_bytes) || !power_of_two(s.vector_count_align_bytes))
    return "nram_align_bytes and vector_count_align_bytes must be powers of two";
  if (s.transpose_align_bytes <= 0 || s.dma_requests_in_flight <= 0)
    return "transpose_align_bytes and dma_requests_in_flight must be positive";
  if (s.atomic_hold_ns < 0) return "atomic_hold_ns must not be negative";
  if (s.dispatch_cycles < 0) return "dispatch_cycles must not be negative";
  if (s.kernel_load_us < 0) return "kernel_load_us must not be negative";
  if (s.gdram_write_extra < 0 || s.gdram_segment_bytes < 0)
    return "gdram_write_extra and gdram_segment_bytes must not be negative";
  if (!(s.gdram_efficiency > 0) || s.gdram_efficiency > 1)
    return "gdram_efficiency must lie in (0, 1]";
  if (std::min({s.scalar_op_cycles, s.scalar_divide_cycles, s.scalar_block_cycles,
                s.scalar_onchip_cycles, s.scalar_sram_cycles, s.scalar_gdram_load_ns,
                s.scalar_gdram_store_cycles}) < 0)
    return "no scalar_* price may be negative";
  return nullptr;
}

EstimatedFigures estimated_figures(const DeviceSpec &spec) {
  for (const Board &b : kBoards)
    if (std::string_view(spec.name) == b.name)
      return EstimatedFigures{b.cluster_source == kEstimate, b.float_macs_source == kEstimate};
  return EstimatedFigures{};
}

std::vector<std::pair<const char *, const char *>> figure_sources() {
  return {
      {kDriverMcu, "Cambricon's kernel driver (public, GPL), mcu/cndrv_mcu_info.c, "
                   "github.com/jklincn/cambricon-mlu-driver at 0206185"},
      {kDriverAttr, "the same driver, attr/cndrv_attr_mlu{270,290,370,590}.c"},
      {kDriverPeak, "the same driver's peak multiply-adds per core per cycle"},
      {kMluOpsKernel, "mlu-ops: usable NRAM in the BANG C guide's sample header (kernel.h's "
                      "host fallback on MLU270) plus its 128 KiB reserve"},
      {kGtestCluster, "mlu-ops' gtest: 128 GB/s when one MLU370 cluster is visible"},
      {kGuideAlign, "mlu-ops' kernels: NFU_ALIGN_SIZE 128, 64-byte NRAM offsets, REM_FOR_STACK"},
      {kGtestFill, "mlu-ops' gtest fill_ram kernel: all NRAM and SRAM but 4 KiB, on the boards"},
      {kMluOps372, "mlu-ops' kernels that pass on MLU370 boards: 8-byte vector operands at "
                      "unaligned NRAM offsets, transposes of 20-byte rows"},
      {"guide", "Cambricon's BANG C operator developer guide, 5.3.4"},
      {kCourseLabs, "published runs of the BANG C course's lab 5.2 on MLU370 boards: a scalar "
                    "matrix multiply over GDRAM pointers and over NRAM arrays (docs/devices.md)"},
      {"card", "the card's public specification"},
      {kEstimate, "no public figure: fitted or guessed, docs/cost_model.md"},
  };
}

std::vector<Figure> figures_of(int index) {
  const Board &b = kBoards[index];
  const DeviceSpec &s = preset(index);
  return {
      {"architecture", fmt::format("mtp_{}", b.bang_arch), kDriverAttr, false},
      {"clusters x cores", fmt::format("{} x 4", b.clusters), kDriverAttr, false},
      {"rated clock", fmt::format("{} MHz", b.clock_mhz), kDriverMcu, false},
      {"GDRAM bandwidth", fmt::format("{} GB/s", b.gdram_gbps), kDriverMcu, false},
      {"GDRAM bus", fmt::format("{} bits", b.bus_bits), kDriverMcu, false},
      {"GDRAM size", size_text(b.gdram), b.gdram_source, b.gdram_source == kEstimate},
      {"L2 cache", size_text(b.l2), kDriverMcu, false},
      {"SRAM per cluster", size_text(b.sram), kDriverMcu, false},
      {"NRAM per core", size_text(b.nram), b.nram_source, b.nram_source == kEstimate},
      {"WRAM per core", size_text(b.wram), b.wram_source, b.wram_source == kEstimate},
      {"one cluster's GDRAM bandwidth", fmt::format("{} GB/s", b.cluster_gbps), b.cluster_source,
       b.cluster_source == kEstimate},
      {"matrix MACs/cycle/core int8, int16",
       fmt::format("{}, {}", b.macs[MLUSIM_MATRIX_INT8], b.macs[MLUSIM_MATRIX_INT16]),
       kDriverPeak, false},
      {"matrix MACs/cycle/core half, float",
       fmt::format("{}, {}", b.macs[MLUSIM_MATRIX_HALF], b.macs[MLUSIM_MATRIX_FLOAT]),
       b.float_macs_source, b.float_macs_source == kEstimate},
      {"vector unit", fmt::format("{} B/cycle/core", s.vector_bytes_per_cycle), "guide", false},
      {"vector operands",
       any_operand_shape(s) ? "any start and size" : "start 64-B aligned, size a multiple of 128 B",
       any_operand_shape(s) ? kMluOps372 : kGuideAlign, false},
      {"stack reserve (NRAM, SRAM)", size_text(s.stack_reserve_bytes), kGtestFill, false},
      {"GDRAM latency", fmt::format("{} ns", s.gdram_latency_ns), kEstimate, true},
      {"atomic latency", fmt::format("{} ns", s.atomic_latency_ns), kEstimate, true},
      {"atomic hold of a 64-byte block", fmt::format("{} ns", s.atomic_hold_ns), kEstimate, true},
      {"on-chip copy latency", fmt::format("{} cycles", s.onchip_latency_cycles), kEstimate, true},
      {"on-chip copy width", fmt::format("{} B/cycle", s.onchip_bytes_per_cycle), kEstimate, true},
      {"SRAM port per cluster", fmt::format("{} B/cycle", s.sram_bytes_per_cycle), kEstimate, true},
      {"vector latency", fmt::format("{} cycles", s.vector_latency_cycles), kEstimate, true},
      {"barrier latency", fmt::format("{} cycles", s.barrier_latency_cycles), kEstimate, true},
      {"dispatch gap between a launch's cores", fmt::format("{} cycles", s.dispatch_cycles),
       kEstimate, true},
      {"launch overhead", fmt::format("{} us", s.launch_overhead_us), kEstimate, true},
      {"a kernel's first launch: loading it (host-observed time)",
       fmt::format("{} us", s.kernel_load_us), kEstimate, true},
      {"DMA requests in flight per queue", fmt::format("{}", s.dma_requests_in_flight), kEstimate,
       true},
      {"GDRAM write cost beyond a read", fmt::format("{}%", 100 * s.gdram_write_extra), kEstimate,
       true},
      {"GDRAM strided segment cost", fmt::format("{} B of bandwidth", s.gdram_segment_bytes),
       kEstimate, true},
      {"GDRAM sustained bandwidth", fmt::format("{}% of the rated", 100 * s.gdram_efficiency),
       kEstimate, true},
      {"scalar operator, division",
       fmt::format("{}, {} cycles", s.scalar_op_cycles, s.scalar_divide_cycles), "guide", true},
      {"scalar block entry", fmt::format("{} cycles", s.scalar_block_cycles), kEstimate, true},
      {"scalar NRAM/WRAM/stack access", fmt::format("{} cycles", s.scalar_onchip_cycles),
       kEstimate, true},
      {"scalar SRAM access", fmt::format("{} cycles", s.scalar_sram_cycles), kEstimate, true},
      {"scalar GDRAM load", fmt::format("{} ns", s.scalar_gdram_load_ns), kCourseLabs, true},
      {"scalar GDRAM store", fmt::format("{} cycles", s.scalar_gdram_store_cycles), kEstimate,
       true},
  };
}

std::string constant_names() {
  std::string names;
  for (const NamedConstant &c : kConstants) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

std::string set_constant(DeviceSpec &spec, std::string_view name, double value) {
  const NamedConstant *c = named_constant(name);
  if (c == nullptr)
    return fmt::format("'{}' is no estimated constant; the constants are {}", name,
                       constant_names());
  if (!std::isfinite(value) || value < 0)
    return fmt::format("{} must be a finite number, not negative (not {})", name, value);
  DeviceSpec changed = spec;
  changed.*(c->field) = value;
  if (c->same_figure != nullptr) changed.*(c->same_figure) = value;
  if (const char *problem = spec_problem(changed)) return fmt::format("{}={}: {}", name, value, problem);
  spec = changed;
  return "";
}

std::optional<double> constant_of(const DeviceSpec &spec, std::string_view name) {
  const NamedConstant *c = named_constant(name);
  if (c == nullptr) return std::nullopt;
  return spec.*(c->field);
}

std::string set_constants(DeviceSpec &spec, std::string_view assignments) {
  for (const std::string_view one : comma_items(assignments)) {
    const size_t eq = one.find('=');
    double value = 0;
    const char *end = one.data() + one.size();
    if (eq == std::string_view::npos ||
        std::from_chars(one.data() + eq + 1, end, value).ptr != end || eq + 1 == one.size())
      return fmt::format("'{}' is no name=value", one);
    if (std::string problem = set_constant(spec, one.substr(0, eq), value); !problem.empty())
      return problem;
  }
  return "";
}

}  // namespace mlusim
