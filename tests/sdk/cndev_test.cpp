// cndev.h and cnpapi.h on the simulated device: the harness' device pick
// (process info), and bandwidth and clocks that agree with the device preset.
#include <gtest/gtest.h>

#include <unistd.h>

#include "cndev.h"
#include "cnpapi.h"
#include "cnrt.h"
#include "mlusim.h"

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
