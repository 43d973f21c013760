// Races on memory tasks share: GDRAM, and a cluster's SRAM in UNION launches.
// Every access there (an intrinsic's range, and through the same call any
// scalar access) is logged by its core with its task and the core's barrier
// generation; each barrier joins its participants' vector clocks. After the
// launch, two accesses of different tasks that meet byte-wise, one of them a
// write, not both atomics, with no barrier ordering one before the other, are
// a race: on the board their order depends on timing. Only the cores of one
// UnionN task are ordered, by __sync_all, a cluster's cores and memory core
// also by __sync_cluster. Tasks of a BLOCK launch, different UnionN tasks, and
// tasks that run one after the other on one core (waves) are never ordered:
// the device may place them anywhere.
//
// Two unordered writes that stored the same bytes where they meet (both
// known: a fill, one value stored, detail/core.h's WrittenBytes; or two
// copies of the same bytes into the same range, by their digest) are a benign
// race: whichever lands last, memory holds the same. It is logged as a note;
// every other race is a fault. A launch logs each distinct pair of sites
// (instruction and line) that race once, up to RaceCheck::kMostListed.
//
// MLUSIM_RACES: "fault" (default: the launch fails naming both accesses of
// its first race that is not benign), "warn" (logged, the launch succeeds) or
// "off". Each core logs up to SharedAccessLog::kMaxAccesses (merged)
// accesses; past that the check is incomplete and says so, in the launch's
// log and in any race it reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

struct SharedAccess {
  Segments range;
  WrittenBytes written;  // a write's bytes, where known
  const char *op;
  const char *where;    // .mlu line, or null
  uint64_t seq;         // instruction number in its task
  uint32_t generation;  // barriers the core had passed
  uint32_t clock;       // index of the core's vector clock at that generation
  int task;
  Space space;  // GDRAM or SRAM
  bool write, atomic;
};

// One core's accesses and vector clock (touched only by that core, and by
// barriers while it is parked).
struct SharedAccessLog {
  // 44 MiB of log per core at most (docs/finding_bugs.md: what the operators need).
  static constexpr size_t kMaxAccesses = size_t{1} << 19;
  static constexpr size_t kNone = ~size_t{0};
  int core = 0;
  uint32_t generation = 0;
  std::vector<uint32_t> clock;    // per core: generations known finished here
  std::vector<uint32_t> history;  // clock snapshots, one per generation that accessed GDRAM
  uint32_t history_generation = UINT32_MAX;
  std::vector<SharedAccess> accesses;
  size_t last[2] = {kNone, kNone};  // the latest read and write entry, where a run may go on
  static constexpr size_t kRecentRuns = 8;  // the newest entries an access may continue too
  size_t dropped = 0;               // accesses past kMaxAccesses, not checked
};

enum class RaceMode { kOff, kWarn, kFault };
RaceMode race_mode();  // MLUSIM_RACES

// The logs of one launch; gives each core its log.
class RaceCheck {
 public:
  // Distinct races a launch lists at most (and its first fault-grade race).
  static constexpr size_t kMostListed = 16;

  explicit RaceCheck(std::vector<CoreContext> &cores);
  // Searches the launch's accesses and logs each distinct race: benign ones
  // as notes, the others as warnings, but for the first of those when `mode`
  // is kFault: that one is returned, described, for the launch to fail with.
  // "" when the launch has no race that is not benign, or in kWarn.
  std::string report(RaceMode mode) const;

 private:
  std::vector<CoreContext> &cores_;
  std::vector<SharedAccessLog> &logs_;  // pooled: the first cores_.size() are this launch's
};

// A barrier released these cores (their logs).
void join_clocks(const std::vector<SharedAccessLog *> &participants);

}  // namespace mlusim
