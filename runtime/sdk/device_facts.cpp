#include "runtime/sdk/device_facts.h"

#include <climits>
#include <cmath>
#include <string_view>

#include "cn_api.h"
#include "cnrt.h"
#include "runtime/logging.h"

namespace mlusim::sdk {
namespace {

int clamp_int(double v) { return v >= INT_MAX ? INT_MAX : static_cast<int>(std::llround(v)); }

}  // namespace

int64_t memory_clock_khz(const DeviceSpec &spec) {
  const double bytes_per_transfer = spec.gdram_bus_bits / 8.0;
  return std::llround(spec.gdram_gbps * 1e9 / bytes_per_transfer / 2 / 1e3);
}

int max_union_clusters(const DeviceSpec &spec) {
  int n = 1;
  while (n * 2 <= spec.clusters && n * 2 <= 16) n *= 2;
  return n;
}

// The attribute's value from the current device, or why there is none.
static Attribute answer_attribute(int code, int *value) {
  const DeviceSpec &spec = current_device();
  constexpr double kMiB = 1 << 20;
  auto answer = [value](double v) {
    *value = clamp_int(v);
    return Attribute::answered;
  };
  switch (code) {
    // Launches take any dimension (cnrtDim3_t fields are unsigned).
    case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_X:
    case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Y:
    case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Z: return answer(INT_MAX);
    case CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT_PER_UNION_TASK:
    case CN_DEVICE_ATTRIBUTE_MAX_CLUSTERS_PER_UNION_LIMIT_TASK:
      return answer(max_union_clusters(spec));
    case CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT: return answer(spec.clusters);
    case CN_DEVICE_ATTRIBUTE_MAX_CORE_COUNT_PER_CLUSTER: return answer(spec.cores_per_cluster);
    case CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION: return answer(spec.bang_arch);
    case CN_DEVICE_ATTRIBUTE_IS_MULTIPLE_TENSOR_PROCESSOR: return answer(1);  // every preset is mtp_
    // The board's L2 (the cost model does not model it: docs/cost_model.md).
    case CN_DEVICE_ATTRIBUTE_MAX_L2_CACHE_SIZE: return answer(spec.l2_bytes);
    case CN_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: return answer(0);
    case CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE: return answer(spec.nram_bytes);
    case CN_DEVICE_ATTRIBUTE_WEIGHT_RAM_SIZE_PER_CORE: return answer(spec.wram_bytes);
    case CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER: return answer(spec.sram_bytes);
    case CN_DEVICE_ATTRIBUTE_LINEAR_MAPPING_SUPPORTED: return answer(0);
    case CN_DEVICE_ATTRIBUTE_CLUSTER_CLOCK_RATE: return answer(spec.clock_ghz * 1e6);
    case CN_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return answer(memory_clock_khz(spec));
    case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return answer(spec.gdram_bus_bits);
    case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_TOTAL_SIZE: return answer(spec.gdram_bytes / kMiB);
    case CN_DEVICE_ATTRIBUTE_PCI_BUS_ID: return answer(kPciBus);
    case CN_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return answer(kPciDevice);
    case CN_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return answer(kPciDomain);
    case CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    case CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    case CN_DEVICE_ATTRIBUTE_MAX_QUEUE_COUNT:
    case CN_DEVICE_ATTRIBUTE_MAX_NOTIFIER_COUNT:
    case CN_DEVICE_ATTRIBUTE_MAX_QUADRANT_COUNT:
    case CN_DEVICE_ATTRIBUTE_MAX_UNION_TYPE_PER_QUADRANT:
    case CN_DEVICE_ATTRIBUTE_TOTAL_CONST_MEMORY_SIZE:
    case CN_DEVICE_ATTRIBUTE_LOCAL_MEMORY_SIZE_PER_CORE:
    case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_NODE_COUNT:
    case CN_DEVICE_ATTRIBUTE_CLUSTER_L1_CACHE_SUPPORTED:
    case CN_DEVICE_ATTRIBUTE_LINEAR_RECOMMEND_GRANULARITY:
    case CN_DEVICE_ATTRIBUTE_AVAILABLE_GLOBAL_MEMORY_SIZE:
    case CN_DEVICE_ATTRIBUTE_ECC_ENABLED: return Attribute::not_supported;
    // CNRT 6 numbers that the CNDrv names above do not cover.
    case cnrtAttrSparseComputingSupported:
    case cnrtAttrFP16ComputingSupported:
    case cnrtAttrINT4ComputingSupported:
    case cnrtAttrINT8ComputingSupported:
    case cnrtAttrBF16ComputingSupported:
    case cnrtAttrTF32ComputingSupported:
    case cnrtAttrSupportQueuePriorities:
    case cnrtAttrTinyCoreSupported:
    case cnrtAttrCodecJPEGSupported:
    case cnrtAttrCodecH264Supported:
    case cnrtAttrCodecH265Supported: return Attribute::not_supported;
  }
  return Attribute::unknown;
}

Attribute device_attribute(int code, int *value, const char *api) {
  const Attribute a = answer_attribute(code, value);
  if (a == Attribute::not_supported)
    log::runtime().error("{}: attribute {:#x} is not part of the simulated device", api, code);
  else if (a == Attribute::unknown)
    log::runtime().error("{}: {:#x} is not a device attribute", api, code);
  return a;
}

}  // namespace mlusim::sdk
