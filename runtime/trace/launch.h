// One traced launch as the exports read it (runtime/trace/trace.h keeps them): the
// launch's figures and, for every traced core, its timed steps copied out of
// the replay (the steps' logs are lent to the next launch).
#pragma once

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "mlusim.h"
#include "mlusim/bang/detail/steps.h"

namespace mlusim::trace {

enum class EventKind : uint8_t {
  kInstruction,  // on its pipe's lane; ready < start: it waited for a dependency first
  kFence,        // on the stream's lane: the stream waited for pipes to drain
  kBarrier,      // on the stream's lane: the stream waited for other cores
  kStall,        // on the stream's lane: the instruction's pipe queue was full
  kScalar,       // on the stream's lane: scalar code before the instruction
};

struct Event {
  const char *op;      // the intrinsic, fence or barrier (a string with static lifetime)
  const char *detail;  // dtype, direction, "wait", "barrier"
  uintptr_t dst, src;
  uint64_t size;                    // bytes or elements
  double issue, ready, start, end;  // cycles since the launch began
  uint16_t core;                    // index into Launch::cores
  uint8_t lane;                     // a Pipe, or kStreamLane
  uint8_t pipe;                     // the instruction's pipe (for a stall: the full one)
  EventKind kind;
  bool async;
};

struct TracedCore {
  int cluster;  // physical cluster
  int core;     // core in its cluster; the memory core comes after the compute cores
  bool mpu;
};

struct Launch {
  int number = 0;  // launches counted while tracing before this one
  std::string kernel;
  mlusimDeviceSpec_t device{};  // the device it ran on
  double start_us = 0;          // the queue's time when it began
  mlusimReport_t report{};      // the launch's own
  bool in_op = false;           // launched inside an operator call:
  mlusimReport_t op{};          // that call's report (all its launches)
  std::thread::id thread;       // the host thread that launched it
  std::vector<TracedCore> cores;
  std::vector<Event> events;

  double cycles_per_us() const { return device.clock_ghz * 1e3; }
};

// "__bang_add", "__memcpy_async async", "stall: vector queue full (__bang_add)",
// "scalar code (before __bang_add)".
std::string event_name(const Event &e);

}  // namespace mlusim::trace
