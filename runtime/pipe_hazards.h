// Pipe hazards: two accesses of one core, from different pipes (or scalar
// code and a pipe), that meet on the same bytes with no fence between them.
// BANG C's guide (3.3.5.1) asks for a fence before every such pair; the
// boards resolve some kinds themselves and corrupt data on others. Each kind
// is a row of one table: what the board is known to do, and the evidence
// (docs/finding_bugs.md prints the same table). MLUSIM_HAZARDS picks what a
// launch does with them (HazardMode in include/mlusim/bang/detail/core.h).
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

enum class HazardKind : uint8_t {
  kCopyReadsComputeResult,      // an async copy reads what a vector/tensor instruction writes
  kCopyWritesComputeOperand,    // ... writes what one reads
  kCopyOverwritesComputeResult, // ... writes what one writes
  kCopyMeetsEndedCompute,       // ... meets what one more than a queue's depth back reads or writes
  kNramCopyMeetsCompute,        // an async NRAM2NRAM copy writes what one reads or writes
  kComputeMeetsCopyDestination, // a vector/tensor instruction reads or writes an in-flight copy's destination
  kComputeOverwritesCopySource, // ... writes an in-flight copy's source
  kComputeMeetsNramCopy,        // ... meets an in-flight NRAM2NRAM copy (its destination, or writes its source)
  kCopyOverwritesCopyDestination, // a copy or fill writes over an in-flight copy's (of another queue) destination
  kCopyReadsCopyDestination,    // a copy reads an in-flight copy's (of another queue) destination
  kCopyOverwritesCopySource,    // a copy writes an in-flight copy's (of another queue) source
  kScalarMeetsCopyDestination,  // scalar code reads or writes an in-flight copy's destination
  kScalarOverwritesCopySource,  // scalar code writes an in-flight copy's source
  kCopyOverwritesScalarRead,    // an async copy writes NRAM scalar code read since the last fence
  kCopyReadsScalarStore,        // an async copy reads NRAM scalar code stored since the last fence
  kCount,
};

struct HazardRule {
  const char *what;      // the kind, in words
  bool board_resolves;   // boards give the program-order result (MLUSIM_HAZARDS=warn and off do too)
  const char *evidence;  // why we believe what boards do
};
const HazardRule &hazard_rule(HazardKind kind);

// MLUSIM_HAZARDS: "warn" (the default), "fault" or "off"; mlusimSetHazards
// overrides it. An unknown value is a settings problem listing the valid ones.
HazardMode hazard_mode();
// "" when taken, null restoring the environment's; else the problem in words.
std::string set_hazard_mode(const char *name);

// The pairs of sites one launch has reported (MLUSIM_HAZARDS=warn): each
// once, up to kMaxReports.
class HazardReports {
 public:
  static constexpr size_t kMaxReports = 64;
  enum Verdict { kReport, kSeen, kLastReport, kBeyondTheCap };
  // kReport the first time this launch meets `kind` between these two sites
  // (kLastReport for the one that reaches the cap), kSeen after; kBeyondTheCap
  // for new pairs past the cap.
  Verdict first(HazardKind kind, const char *earlier, const char *later);

 private:
  std::mutex mutex_;
  std::set<std::tuple<HazardKind, const char *, const char *>> seen_;
};

}  // namespace mlusim
