// cn_api.h on the simulated device: CNDrv 2's numbers, attributes that agree
// with the device preset and with the formulas host code applies to them,
// the one shared context, context settings, memory attributes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cn_api.h"
#include "cnrt.h"
#include "mlusim.h"

namespace {

int attribute(CNdevice_attribute attr) {
  int value = -1;
  EXPECT_EQ(cnDeviceGetAttribute(&value, attr, 0), CN_SUCCESS) << attr;
  return value;
}

TEST(Cndrv, NumbersAreCndrvs) {
  EXPECT_EQ(CN_SUCCESS, 0);
  EXPECT_EQ(CN_ERROR_INVALID_VALUE, 100006);
  EXPECT_EQ(CN_OPS_ERROR_NOT_SUPPORTED, 100050);
  EXPECT_EQ(CN_CONTEXT_ERROR_INVALID, 100201);
  EXPECT_EQ(CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT, 0x205);
  EXPECT_EQ(CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION, 0x20a);
  EXPECT_EQ(CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER, 0x306);
  EXPECT_EQ(CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 0x404);
  EXPECT_EQ(CN_MEM_ATTRIBUTE_ISLINEAR, 0x18);
  EXPECT_EQ(CN_KERNEL_CLASS_UNION4, 16);
  EXPECT_EQ(CN_CTX_CONFIG_UNION_LIMIT, 2);
}

TEST(Cndrv, AttributesOfTheMlu370) {
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT), 8);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MAX_CORE_COUNT_PER_CLUSTER), 4);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE), 768 * 1024);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_WEIGHT_RAM_SIZE_PER_CORE), 1024 * 1024);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER), 4 * 1024 * 1024);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_CLUSTER_CLOCK_RATE), 1000000);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION), 372);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_TOTAL_SIZE), 24 * 1024);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MAX_L2_CACHE_SIZE), 2 * 1024 * 1024);  // the driver's figure
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_LINEAR_MAPPING_SUPPORTED), 0);
  char name[64] = "";
  ASSERT_EQ(cnDeviceGetName(name, sizeof(name), 0), CN_SUCCESS);
  EXPECT_STREQ(name, "MLU370-X4");
}

// mlu-ops derives its bandwidth as bus_bits * memory_clock_khz / 1e6 / 8 * 2 (GB/s).
double bandwidth_as_mluops_computes_it() {
  return attribute(CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH) *
         static_cast<double>(attribute(CN_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)) / 1000.0 /
         1000.0 / 8.0 * 2.0;
}

TEST(Cndrv, MemoryClockAndBusGiveTheDevicesBandwidth) {
  for (const char *preset : {"MLU370-X4", "MLU270", "MLU290"}) {
    ASSERT_EQ(mlusimSetDevicePreset(preset), cnrtSuccess);
    mlusimDeviceSpec_t spec;
    ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
    EXPECT_DOUBLE_EQ(bandwidth_as_mluops_computes_it(), spec.gdram_gbps) << preset;
  }
  ASSERT_EQ(mlusimSetDevicePreset("MLU270"), cnrtSuccess);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION), 270);
  EXPECT_EQ(attribute(CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT), 4);
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
}

TEST(Cndrv, BadAttributeQueriesAreRefused) {
  int value = 0;
  EXPECT_EQ(cnDeviceGetAttribute(&value, CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT, 1),
            CN_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cnDeviceGetAttribute(nullptr, CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT, 0),
            CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cnDeviceGetAttribute(&value, CN_DEVICE_ATTRIBUTE_ECC_ENABLED, 0),
            CN_OPS_ERROR_NOT_SUPPORTED);
  // 0x600: inside the enumeration's range, naming no attribute.
  EXPECT_EQ(cnDeviceGetAttribute(&value, static_cast<CNdevice_attribute>(0x600), 0),
            CN_ERROR_INVALID_VALUE);
  char name[4];
  EXPECT_EQ(cnDeviceGetName(name, 0, 0), CN_ERROR_INVALID_VALUE);
  ASSERT_EQ(cnDeviceGetName(name, sizeof(name), 0), CN_SUCCESS);
  EXPECT_STREQ(name, "MLU");  // cut to the buffer, NUL-terminated
}

TEST(Cndrv, VersionsAndDeviceCount) {
  int major = 0, minor = 0, patch = -1;
  ASSERT_EQ(cnGetLibVersion(&major, &minor, &patch), CN_SUCCESS);
  EXPECT_EQ(major * 100000 + minor * 1000 + patch, CN_VERSION);
  EXPECT_GE(major * 1000 + minor, 2 * 1000 + 7);  // mlu-ops v1.5.2 needs CNDrv 2.7 or later
  ASSERT_EQ(cnGetDriverVersion(&major, &minor, &patch), CN_SUCCESS);
  EXPECT_EQ(cnGetLibVersion(nullptr, &minor, &patch), CN_ERROR_INVALID_VALUE);
  int count = 0;
  ASSERT_EQ(cnDeviceGetCount(&count), CN_SUCCESS);
  EXPECT_EQ(count, 1);
  CNdev dev = 7;
  ASSERT_EQ(cnDeviceGet(&dev, 0), CN_SUCCESS);
  EXPECT_EQ(dev, 0u);
  EXPECT_EQ(cnDeviceGet(&dev, 1), CN_ERROR_INVALID_DEVICE);
  const char *text = nullptr;
  ASSERT_EQ(cnGetErrorName(CN_OPS_ERROR_NOT_SUPPORTED, &text), CN_SUCCESS);
  EXPECT_STREQ(text, "CN_OPS_ERROR_NOT_SUPPORTED");
  EXPECT_EQ(cnInit(0), CN_SUCCESS);
  EXPECT_EQ(cnInit(3), CN_ERROR_INVALID_VALUE);
}

TEST(Cndrv, OneContextSharedByEveryQueue) {
  CNcontext current = nullptr, shared = nullptr, of_queue = nullptr;
  ASSERT_EQ(cnCtxGetCurrent(&current), CN_SUCCESS);
  ASSERT_NE(current, nullptr);
  CNdev dev = 9;
  ASSERT_EQ(cnCtxGetDevice(&dev), CN_SUCCESS);
  EXPECT_EQ(dev, 0u);
  ASSERT_EQ(cnSharedContextAcquire(&shared, dev), CN_SUCCESS);
  EXPECT_EQ(shared, current);
  EXPECT_EQ(cnSharedContextRelease(dev), CN_SUCCESS);
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  ASSERT_EQ(cnQueueGetContext(reinterpret_cast<CNqueue>(queue), &of_queue), CN_SUCCESS);
  EXPECT_EQ(of_queue, current);
  ASSERT_EQ(cnrtQueueDestroy(queue), cnrtSuccess);
  EXPECT_EQ(cnQueueGetContext(reinterpret_cast<CNqueue>(queue), &of_queue),
            CN_QUEUE_ERROR_INVALID);
}

TEST(Cndrv, ContextSettingsAreTheWholeDevice) {
  CNcontext ctx = nullptr;
  ASSERT_EQ(cnCtxGetCurrent(&ctx), CN_SUCCESS);
  CNctxConfigParam param;
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM, &param), CN_SUCCESS);
  EXPECT_EQ(param.visibleClusterNumber, 8u);
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER, &param), CN_SUCCESS);
  EXPECT_EQ(param.visibleCluster, 0xFFu);
  EXPECT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER, &param), CN_SUCCESS);
  param.visibleCluster = 0x3;
  EXPECT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER, &param),
            CN_OPS_ERROR_NOT_SUPPORTED);
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &param), CN_SUCCESS);
  EXPECT_EQ(param.unionLimit, CN_KERNEL_CLASS_UNION8);
  param.unionLimit = CN_KERNEL_CLASS_UNION2;
  EXPECT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &param),
            CN_OPS_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM, &param),
            CN_ERROR_INVALID_VALUE);
  int not_a_context = 0;
  EXPECT_EQ(cnGetCtxConfigParam(reinterpret_cast<CNcontext>(&not_a_context),
                                CN_CTX_CONFIG_UNION_LIMIT, &param),
            CN_CONTEXT_ERROR_INVALID);
}

TEST(Cndrv, ParallelTasksPerClass) {
  CNcontext ctx = nullptr;
  ASSERT_EQ(cnCtxGetCurrent(&ctx), CN_SUCCESS);
  const std::pair<KernelClass, int> expected[] = {
      {CN_KERNEL_CLASS_BLOCK, 32}, {CN_KERNEL_CLASS_UNION, 8},  {CN_KERNEL_CLASS_UNION2, 4},
      {CN_KERNEL_CLASS_UNION4, 2}, {CN_KERNEL_CLASS_UNION8, 1}, {CN_KERNEL_CLASS_UNION16, 0}};
  for (const auto &[c, tasks] : expected) {
    int number = -1;
    ASSERT_EQ(cnGetCtxMaxParallelUnionTasks(ctx, c, &number), CN_SUCCESS) << c;
    EXPECT_EQ(number, tasks) << c;
  }
  int number = 0;
  EXPECT_EQ(cnGetCtxMaxParallelUnionTasks(ctx, CN_KERNEL_CLASS_NONE, &number),
            CN_ERROR_INVALID_VALUE);
}

TEST(Cndrv, MemoryAttributesOfDeviceAndHostMemory) {
  CNaddr dev = 0;
  ASSERT_EQ(cnMalloc(&dev, 1000), CN_SUCCESS);
  unsigned int type = 99;
  ASSERT_EQ(cnGetMemAttribute(&type, CN_MEM_ATTRIBUTE_TYPE, dev + 10), CN_SUCCESS);
  EXPECT_EQ(type, static_cast<unsigned>(CN_MEMORYTYPE_DEVICE));
  CNaddr start = 0;
  ASSERT_EQ(cnGetMemAttribute(&start, CN_MEM_ATTRIBUTE_RANGE_START_ADDR, dev + 10), CN_SUCCESS);
  EXPECT_EQ(start, dev);
  size_t size = 0;
  ASSERT_EQ(cnGetMemAttribute(&size, CN_MEM_ATTRIBUTE_RANGE_SIZE, dev + 999), CN_SUCCESS);
  EXPECT_EQ(size, 1000u);
  int linear = 1;
  ASSERT_EQ(cnGetMemAttribute(&linear, CN_MEM_ATTRIBUTE_ISLINEAR, dev), CN_SUCCESS);
  EXPECT_EQ(linear, 0);
  EXPECT_EQ(cnGetMemAttribute(&start, CN_MEM_ATTRIBUTE_RANGE_START_ADDR, dev + 1000),
            CN_MEMORY_ERROR_INVALID_ADDRESS);  // one past the end
  ASSERT_EQ(cnFree(dev), CN_SUCCESS);
  EXPECT_EQ(cnFree(dev), CN_MEMORY_ERROR_INVALID_ADDRESS);

  void *host = nullptr;
  ASSERT_EQ(cnMallocHost(&host, 64), CN_SUCCESS);
  ASSERT_EQ(cnGetMemAttribute(&type, CN_MEM_ATTRIBUTE_TYPE, reinterpret_cast<CNaddr>(host)),
            CN_SUCCESS);
  EXPECT_EQ(type, static_cast<unsigned>(CN_MEMORYTYPE_HOST));
  ASSERT_EQ(cnFreeHost(host), CN_SUCCESS);
  EXPECT_EQ(cnFreeHost(host), CN_ERROR_INVALID_ADDRESS);
  int local = 0;
  ASSERT_EQ(cnGetMemAttribute(&type, CN_MEM_ATTRIBUTE_TYPE, reinterpret_cast<CNaddr>(&local)),
            CN_SUCCESS);
  EXPECT_EQ(type, static_cast<unsigned>(CN_MEMORYTYPE_UNKNOWN));

  CNaddr constant = 0;
  ASSERT_EQ(cnMallocConstant(&constant, 256), CN_SUCCESS);
  EXPECT_EQ(cnFree(constant), CN_SUCCESS);
}

}  // namespace
