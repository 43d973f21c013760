// Traces: filtered recording and the Chrome trace-event export.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace {

using mlusim::harness::DeviceBuffer;

__mlu_global__ void load_scale_store(float *y, const float *x) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(float, buf, 64);
  __memcpy_async(buf, x + taskId * 64, 64 * sizeof(float), GDRAM2NRAM);
  __sync();
  __bang_mul_scalar(buf, buf, 3.0f, 64);
  __memcpy(y + taskId * 64, buf, 64 * sizeof(float), NRAM2GDRAM);
}

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

TEST(Trace, FilteredChromeJsonHasOneCoresPipes) {
  DeviceBuffer<float> x(std::vector<float>(32 * 64, 1.0f)), y(32 * 64);
  mlusimTraceClear();
  ASSERT_EQ(mlusimSetTraceFilter("kernel=load_scale,cluster=2,core=1"), cnrtSuccess);
  ASSERT_EQ(mlusimTraceStart(), cnrtSuccess);
  ASSERT_EQ(MLUSIM_LAUNCH(load_scale_store, (cnrtDim3_t{4, 8, 1}), cnrtFuncTypeUnion1, nullptr,
                          y.get(), static_cast<const float *>(x.get())),
            cnrtSuccess);
  ASSERT_EQ(mlusimTraceStop(), cnrtSuccess);
  const std::string path = ::testing::TempDir() + "mlusim_trace_test.json";
  ASSERT_EQ(mlusimTraceWriteChromeJson(path.c_str()), cnrtSuccess);
  const std::string json = read_file(path);
  std::remove(path.c_str());

  EXPECT_EQ(json.rfind("{\"displayTimeUnit\"", 0), 0u);
  EXPECT_NE(json.find(R"("name":"cluster 2")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"core 1 IO")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"core 1 vector")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"core 1 stream")"), std::string::npos);
  // One core: async load, the __sync's wait, multiply, the store's wait for the
  // multiply (a dependency), store, and the task end's wait for the store.
  EXPECT_EQ(count(json, R"("ph":"X")"), 6u);
  EXPECT_EQ(count(json, R"("pid":2,"tid":5,"ts")"), 3u);  // core 1's IO lane: load, wait, store
  EXPECT_NE(json.find(R"("name":"__memcpy_async async","cat":"IO")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"__bang_mul_scalar","cat":"vector")"), std::string::npos);
  EXPECT_NE(json.find(R"x("name":"wait (__memcpy)","cat":"IO")x"), std::string::npos);
  EXPECT_EQ(count(json, R"("name":"__sync","cat":"stream")"), 2u);
  EXPECT_EQ(json.find(R"("pid":0,)"), std::string::npos);  // no other cluster
  EXPECT_EQ(mlusimSetTraceFilter(""), cnrtSuccess);
}

TEST(Trace, MalformedFilterIsRejected) {
  EXPECT_EQ(mlusimSetTraceFilter("cluster=two"), cnrtErrorArgsInvalid);
  EXPECT_EQ(mlusimSetTraceFilter("colour=red"), cnrtErrorArgsInvalid);
}

}  // namespace
