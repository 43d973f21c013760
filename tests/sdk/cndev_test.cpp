// cndev.h and cnpapi.h on the simulated device: the harness' device pick
// (process info), and bandwidth, clocks and peak work per cycle that agree
// with the device preset.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>

#include "cndev.h"
#include "cnpapi.h"
#include "cnrt.h"
#include "mlu_op.h"  // MLUOP_DTYPE_FLOAT
#include "mlusim.h"
#include "runtime/logging.h"
#include "tests/common/op_log_capture.h"

namespace {

class Cndev : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cndevInit(0), CNDEV_SUCCESS); }
  void TearDown() override { EXPECT_EQ(cndevRelease(), CNDEV_SUCCESS); }
};

TEST(CndevUninitialised, QueriesNeedInit) {
  cndevDevice_t handle = -1;
  EXPECT_EQ(cndevGetDeviceHandleByIndex(0, &handle), CNDEV_ERROR_UNINITIALIZED);
  EXPECT_EQ(cndevInit(1), CNDEV_ERROR_INVALID_ARGUMENT);
}

TEST_F(Cndev, OneDeviceUsedByThisProcess) {
  cndevDevice_t handle = -1;
  ASSERT_EQ(cndevGetDeviceHandleByIndex(0, &handle), CNDEV_SUCCESS);
  EXPECT_EQ(handle, 0);
  EXPECT_EQ(cndevGetDeviceHandleByIndex(1, &handle), CNDEV_ERROR_INVALID_DEVICE_ID);

  void *p = nullptr;
  ASSERT_EQ(cnrtMalloc(&p, 1 << 20), cnrtSuccess);
  cndevProcessInfo_t info[4];
  info[0].version = CNDEV_VERSION_5;
  unsigned count = 4;
  ASSERT_EQ(cndevGetProcessInfo(&count, info, handle), CNDEV_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(info[0].pid, static_cast<unsigned>(getpid()));
  EXPECT_GE(info[0].physicalMemoryUsed, 1024u);  // KiB: at least the MiB just allocated
  ASSERT_EQ(cnrtFree(p), cnrtSuccess);
  count = 0;
  EXPECT_EQ(cndevGetProcessInfo(&count, info, handle), CNDEV_ERROR_INSUFFICIENT_SPACE);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(cndevGetProcessInfo(nullptr, info, handle), CNDEV_ERROR_INVALID_ARGUMENT);
}

TEST_F(Cndev, BandwidthAndClocksOfThePreset) {
  for (const char *preset : {"MLU370-X4", "MLU290"}) {
    ASSERT_EQ(mlusimSetDevicePreset(preset), cnrtSuccess);
    mlusimDeviceSpec_t spec;
    ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
    cndevDDRInfo_t ddr;
    ddr.version = CNDEV_VERSION_5;
    ASSERT_EQ(cndevGetDDRInfo(&ddr, 0), CNDEV_SUCCESS);
    // The harness reads bandWidth + bandWidthDecimal as "307" + ".2".
    EXPECT_DOUBLE_EQ(ddr.bandWidth + ddr.bandWidthDecimal / 10.0, spec.gdram_gbps) << preset;
    // Double data rate: bits / 8 * transfers per second = bandwidth.
    cndevFrequencyInfo_t freq;
    freq.version = CNDEV_VERSION_5;
    ASSERT_EQ(cndevGetFrequencyInfo(&freq, 0), CNDEV_SUCCESS);
    EXPECT_DOUBLE_EQ(ddr.dataWidth / 8.0 * freq.ddrFreq / 1000.0, spec.gdram_gbps) << preset;
    EXPECT_EQ(freq.boardFreq, static_cast<int>(spec.clock_ghz * 1000));
    EXPECT_EQ(freq.mluClusterFreqCount, spec.clusters);
  }
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
  cndevDDRInfo_t ddr;
  EXPECT_EQ(cndevGetDDRInfo(&ddr, 3), CNDEV_ERROR_INVALID_DEVICE_ID);
  EXPECT_STREQ(cndevGetErrorString(CNDEV_ERROR_INVALID_DEVICE_ID), "no such device");
}

// Per core per cycle: the driver's peak multiply-adds of each preset
// (docs/devices.md) and the vector unit's 128 bytes a cycle (the BANG C guide,
// 5.3.4) as elements, a multiply-add counted twice; no bfloat16 on MLU200.
struct MaxPerformance {
  const char *preset;
  uint64_t int4_tensor, int8_tensor, int16_tensor, fp16_tensor, bf16_tensor, fp32_tensor;
  uint64_t fp16_vector, bf16_vector, fp32_vector, int8_vector, int16_vector;
};

TEST_F(Cndev, MaxPerformanceOfThePreset) {
  for (const MaxPerformance &want : {
           MaxPerformance{"MLU370-X4", 8192, 4096, 2048, 1536, 1536, 384, 128, 128, 64, 256, 128},
           MaxPerformance{"MLU590-H8", 8192, 4096, 1024, 2048, 2048, 512, 128, 128, 64, 256, 128},
           MaxPerformance{"MLU270", 8192, 4096, 2048, 1536, 0, 384, 128, 0, 64, 256, 128},
       }) {
    ASSERT_EQ(mlusimSetDevicePreset(want.preset), cnrtSuccess);
    cndevDeviceMaxPerformance_t got;
    got.version = CNDEV_VERSION_5;
    ASSERT_EQ(cndevGetDeviceMaxPerformance(&got, 0), CNDEV_SUCCESS) << want.preset;
    EXPECT_EQ(got.int4Tensor, want.int4_tensor) << want.preset;
    EXPECT_EQ(got.int8Tensor, want.int8_tensor) << want.preset;
    EXPECT_EQ(got.int16Tensor, want.int16_tensor) << want.preset;
    EXPECT_EQ(got.fp16Tensor, want.fp16_tensor) << want.preset;
    EXPECT_EQ(got.bf16Tensor, want.bf16_tensor) << want.preset;
    EXPECT_EQ(got.fp32Tensor, want.fp32_tensor) << want.preset;
    EXPECT_EQ(got.fp16Vector, want.fp16_vector) << want.preset;
    EXPECT_EQ(got.bf16Vector, want.bf16_vector) << want.preset;
    EXPECT_EQ(got.fp32Vector, want.fp32_vector) << want.preset;
    EXPECT_EQ(got.int8Vector, want.int8_vector) << want.preset;
    EXPECT_EQ(got.int16Vector, want.int16_vector) << want.preset;
  }
  ASSERT_EQ(mlusimSetDevicePreset("MLU370-X4"), cnrtSuccess);
}

// The guide's peak: fp32Vector / 2 additions a cycle on every core of the
// device is the fp32 peak mlusim rates compute efficiency against.
TEST_F(Cndev, MaxPerformanceGivesThePeakOfComputeEfficiency) {
  cndevDeviceMaxPerformance_t got;
  got.version = CNDEV_VERSION_1;
  ASSERT_EQ(cndevGetDeviceMaxPerformance(&got, 0), CNDEV_SUCCESS);
  mlusimDeviceSpec_t spec;
  ASSERT_EQ(mlusimGetDeviceSpec(&spec), cnrtSuccess);
  const double cores = spec.clusters * spec.cores_per_cluster;
  EXPECT_DOUBLE_EQ(got.fp32Vector / 2 * cores * spec.clock_ghz * 1e9,
                   mlusimPeakOpsPerSecond(MLUOP_DTYPE_FLOAT));
}

// Each refusal returns CNDev's code and says why in one log line.
TEST_F(Cndev, MaxPerformanceRefusesBadInput) {
  struct Case {
    int version;
    cndevDevice_t device;
    bool null;
    cndevRet_t code;
    const char *logged;
  };
  for (const Case &k : {
           Case{CNDEV_VERSION_5, 0, true, CNDEV_ERROR_INVALID_ARGUMENT, "null output pointer"},
           Case{CNDEV_VERSION_5, 1, false, CNDEV_ERROR_INVALID_DEVICE_ID, "device 1 does not exist"},
           Case{CNDEV_VERSION_5, -1, false, CNDEV_ERROR_INVALID_DEVICE_ID,
                "device -1 does not exist"},
           Case{0, 0, false, CNDEV_ERROR_UNSUPPORTED_API_VERSION, "structure version 0"},
           Case{CNDEV_VERSION_5 + 1, 0, false, CNDEV_ERROR_UNSUPPORTED_API_VERSION,
                "structure version 6"},
       }) {
    mlusim::testing::OpLogCapture log(mlusim::log::runtime(), spdlog::level::err);
    cndevDeviceMaxPerformance_t got;
    got.version = static_cast<uint32_t>(k.version);
    EXPECT_EQ(cndevGetDeviceMaxPerformance(k.null ? nullptr : &got, k.device), k.code);
    ASSERT_EQ(log.lines().size(), 1u) << log.text();
    EXPECT_NE(log.text().find(std::string("cndevGetDeviceMaxPerformance: ") + k.logged),
              std::string::npos)
        << log.text();
  }
}

TEST(CndevUninitialised, MaxPerformanceNeedsInit) {
  cndevDeviceMaxPerformance_t got;
  got.version = CNDEV_VERSION_5;
  EXPECT_EQ(cndevGetDeviceMaxPerformance(&got, 0), CNDEV_ERROR_UNINITIALIZED);
}

TEST(Cnpapi, InitAndRelease) {
  EXPECT_EQ(cnpapiRelease(), CNPAPI_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(cnpapiInit(), CNPAPI_SUCCESS);
  int devices = 0;
  ASSERT_EQ(cnpapiGetDeviceCount(&devices), CNPAPI_SUCCESS);
  EXPECT_EQ(devices, 1);
  const char *text = nullptr;
  ASSERT_EQ(cnpapiGetResultString(CNPAPI_ERROR_INVALID_ARGUMENT, &text), CNPAPI_SUCCESS);
  EXPECT_STREQ(text, "CNPAPI_ERROR_INVALID_ARGUMENT");
  EXPECT_EQ(cnpapiRelease(), CNPAPI_SUCCESS);
}

}  // namespace
