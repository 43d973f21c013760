#include "runtime/device_spec.h"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>

#include "runtime/logging.h"

namespace mlusim {
namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;
constexpr size_t GiB = 1024 * MiB;

// Figures and their sources: docs/devices.md. Latencies and on-chip widths are
// estimates (no public figure); they are shared by all presets.
DeviceSpec make_preset(const char *name, int clusters, size_t nram, size_t wram, size_t sram,
                       size_t gdram, double clock_ghz, double gdram_gbps, double cluster_gbps,
                       double matrix_ops_per_cycle) {
  DeviceSpec s{};
  std::snprintf(s.name, sizeof(s.name), "%s", name);
  s.clusters = clusters;
  s.cores_per_cluster = 4;
  s.nram_bytes = nram;
  s.wram_bytes = wram;
  s.sram_bytes = sram;
  s.stack_reserve_bytes = 128 * KiB;
  s.gdram_bytes = gdram;
  s.clock_ghz = clock_ghz;
  s.gdram_gbps = gdram_gbps;
  s.cluster_gbps = cluster_gbps;
  s.onchip_bytes_per_cycle = 128;
  s.vector_bytes_per_cycle = 128;
  s.matrix_ops_per_cycle = matrix_ops_per_cycle;
  s.gdram_latency_cycles = 500;
  s.onchip_latency_cycles = 30;
  s.vector_latency_cycles = 16;
  s.atomic_latency_cycles = 700;
  s.barrier_latency_cycles = 100;
  s.launch_overhead_us = 5;
  s.nram_align_bytes = 64;
  s.vector_count_align_bytes = 128;
  s.transpose_align_bytes = 64;
  return s;
}

const DeviceSpec kPresets[] = {
    make_preset("MLU370-X4", 8, 768 * KiB, 1024 * KiB, 4 * MiB, 24 * GiB, 1.0, 307.2, 128.0,
                3000),
    make_preset("MLU270", 4, 512 * KiB, 1024 * KiB, 2 * MiB, 16 * GiB, 1.0, 102.4, 102.4, 4000),
    make_preset("MLU290", 16, 512 * KiB, 512 * KiB, 2 * MiB, 32 * GiB, 1.0, 1024.0, 128.0,
                4000),
};

DeviceSpec initial_device() {
  const char *env = std::getenv("MLUSIM_DEVICE");
  if (env != nullptr) {
    if (const DeviceSpec *p = find_preset(env)) return *p;
    std::fprintf(stderr, "mlusim: MLUSIM_DEVICE=%s is no preset; using %s\n", env,
                 kPresets[0].name);
  }
  return kPresets[0];
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

}  // namespace

int preset_count() { return static_cast<int>(std::size(kPresets)); }
const DeviceSpec &preset(int index) { return kPresets[index]; }

const DeviceSpec *find_preset(std::string_view name) {
  for (const DeviceSpec &p : kPresets) {
    if (name == p.name) return &p;
  }
  return nullptr;
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
  log::runtime().debug("simulated device is now {} ({} clusters x {} cores)", spec.name,
                      spec.clusters, spec.cores_per_cluster);
}

namespace detail {
double matrix_ops_per_cycle() { return current_device().matrix_ops_per_cycle; }
}  // namespace detail

}  // namespace mlusim
