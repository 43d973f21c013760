// What the kernel tests (.mlu files built by mlusim-cncc) share: the outcome
// of a kernel<<<dim, type, queue>>>(args) launch read as BANG C host code
// reads it, and the check that a fault message names what it should.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "cnrt.h"
#include "mlusim.h"

namespace mlusim::testing {

inline constexpr cnrtDim3_t kOneCore = {1, 1, 1};
inline constexpr cnrtDim3_t kOneCluster = {4, 1, 1};  // a UNION1 task

// After a launch: "" if it ran without fault, else why not (the launch error
// or the kernel fault, as mlusimGetLastError words it). Reads and clears
// cnrtGetLastError, as the check a host program makes after a launch.
inline std::string launch_error() {
  return cnrtGetLastError() == cnrtSuccess ? std::string() : std::string(mlusimGetLastError());
}

inline void expect_mentions(const std::string &message,
                            std::initializer_list<const char *> parts) {
  ASSERT_FALSE(message.empty()) << "the launch did not fault";
  for (const char *p : parts)
    EXPECT_NE(message.find(p), std::string::npos) << p << " not in: " << message;
}

}  // namespace mlusim::testing
