// Pipe hazards (runtime/pipe_hazards.h): an access against the async copies
// still in flight, and an async copy against the vector and tensor
// instructions no fence has ordered before it. Each meeting is classified by
// kind; the launch's MLUSIM_HAZARDS decides between a fault, the board's
// resolution with a report, and the resolution alone.
#include <algorithm>
#include <array>
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/scalar_code.h"

#include "runtime/logging.h"
#include "runtime/pipe_hazards.h"
#include "runtime/segments.h"

namespace mlusim::detail {
namespace {

const char *site_of(const char *where, const char *op) { return where != nullptr ? where : op; }

// A hazard of `kind` between an earlier access (site `earlier`) and the one
// being made (site `later`); describe() says what meets what, `advice` the
// fence the guide asks for. Faults where the launch's mode says; true when the
// board's resolution applies, which the caller then carries out (the
// program-order result, and the wait).
template <typename Describe>
bool meet(CoreContext &c, HazardKind kind, const char *earlier, const char *later,
          const Describe &describe, const std::string &advice) {
  const HazardMode mode = c.launch != nullptr ? c.launch->hazards : HazardMode::kFault;
  const bool resolves = hazard_rule(kind).board_resolves;
  if (mode == HazardMode::kFault || (mode == HazardMode::kWarn && !resolves))
    fault(c, fmt::format("async hazard: {}: {}", describe(), advice));
  if (!resolves) return false;  // MLUSIM_HAZARDS=off
  ++c.hazards_resolved;
  if (mode != HazardMode::kWarn) return true;
  const HazardReports::Verdict verdict = c.launch->hazard_reports->first(kind, earlier, later);
  if (verdict == HazardReports::kReport || verdict == HazardReports::kLastReport)
    log::kernel().warn(
        "{}: pipe hazard, resolved as the board does: {}; BANG C's rule (guide 3.3.5.1): {} "
        "(reported once per pair of lines and launch; MLUSIM_HAZARDS=fault makes it a fault){}",
        kernel_site(c), describe(), advice,
        verdict == HazardReports::kLastReport
            ? fmt::format("; this launch reported {} pairs, the most it reports: the rest are "
                          "counted in its report's hazards_resolved only",
                          HazardReports::kMaxReports)
            : "");
  return true;
}

// What an access by `own` that meets an in-flight copy is: `hits_dst` if it
// meets the copy's destination, else (a write) its source.
// Whether a copy on `pipe` from `src` to `dst` is an NRAM2NRAM one (both
// sides in the core's NRAM, on the move pipe).
bool nram_to_nram(const CoreContext &c, const Segments &dst, const Segments &src, Pipe pipe) {
  const auto lo = reinterpret_cast<uintptr_t>(c.nram), hi = lo + c.nram_capacity;
  return pipe == kMovePipe && dst.lo >= lo && dst.hi() <= hi && src.lo >= lo && src.hi() <= hi;
}

// nram_copy: the copy met is an NRAM2NRAM one, ordered with the compute pipes.
HazardKind kind_against_copy(Pipe own, bool write, bool hits_dst, bool nram_copy) {
  if (own == kScalarCode)
    return hits_dst ? HazardKind::kScalarMeetsCopyDestination
                    : HazardKind::kScalarOverwritesCopySource;
  if (own == kPipeCount && nram_copy) return HazardKind::kComputeMeetsNramCopy;
  if (own == kPipeCount)
    return hits_dst ? HazardKind::kComputeMeetsCopyDestination
                    : HazardKind::kComputeOverwritesCopySource;
  if (!hits_dst) return HazardKind::kCopyOverwritesCopySource;
  return write ? HazardKind::kCopyOverwritesCopyDestination : HazardKind::kCopyReadsCopyDestination;
}

// How a report names the access being made: scalar code is no instruction of
// ours (it runs after the last one issued); an instruction is checked before
// it issues.
std::string access_name(const CoreContext &c, Pipe own) {
  if (own == kScalarCode) return fmt::format("after instruction #{}", c.issued);
  if (own == kPipeCount) return fmt::format("instruction #{}", c.issued + 1);
  return fmt::format("instruction #{}, {} pipe", c.issued + 1, pipe_name(own));
}

}  // namespace

// Whether a pending copy is an NRAM2NRAM one (both sides in the core's NRAM).
bool nram_to_nram(const CoreContext &c, const PendingCopy &p) {
  return nram_to_nram(c, p.dst, p.src, p.pipe);
}

bool hazard_check(CoreContext &c, const char *op, const Segments &range, bool write, Pipe own) {
  bool waits = false;
  for (size_t i = 0; i < c.pending.size(); ++i) {
    const PendingCopy p = c.pending[i];  // landing it takes it out of the queue
    if (p.pipe == own) continue;         // one DMA queue runs its copies in order
    uintptr_t lo, hi;
    const bool hits_dst = first_overlap(range, p.dst, &lo, &hi);
    if (!hits_dst && !(write && first_overlap(range, p.src, &lo, &hi))) continue;
    const auto describe = [&] {
      return fmt::format("{} {} {} ({}) while {} (instruction #{}, {} pipe) still {} it", op,
                         write ? (hits_dst ? "writes" : "overwrites the source") : "reads",
                         describe_range(c, lo, hi), access_name(c, own), p.op, p.seq,
                         pipe_name(p.pipe), hits_dst ? "writes" : "reads");
    };
    const std::string advice = fmt::format(
        "fence the copy (__sync_{}() or __sync()) before this access",
        p.pipe == kIoPipe ? "io" : "move");
    const HazardKind kind =
        kind_against_copy(own, write, hits_dst, own == kPipeCount && nram_to_nram(c, p));
    if (!meet(c, kind, site_of(p.where, p.op), site_of(c.where, op), describe, advice))
      continue;
    // The board lands the earlier copy first: so does mlusim, with the copies
    // queued before it on its pipe; then the queue is looked at again.
    land_copies_through(c, p.pipe, p.seq);
    waits = true;
    i = static_cast<size_t>(-1);
  }
  return waits;
}

bool check_fill(CoreContext &c, const char *op, const Segments &range, Pipe own) {
  if (c.pending.empty()) return false;
  uint64_t last_met = 0;
  uintptr_t lo, hi;
  for (const PendingCopy &p : c.pending)
    if (p.pipe == own && first_overlap(range, p.dst, &lo, &hi)) last_met = p.seq;
  if (last_met != 0) land_copies_through(c, own, last_met);
  return hazard_check(c, op, range, true, own);
}

namespace {

// The first NRAM bytes of `s` whose marks hold `epoch`, as [*lo, *hi) of 4-byte
// granules' bytes.
bool marked(const CoreContext &c, const uint32_t *marks, const Segments &s, uint32_t epoch,
            uintptr_t *lo, uintptr_t *hi) {
  const uintptr_t nram = reinterpret_cast<uintptr_t>(c.nram);
  const size_t segments = s.stride == 0 ? 1 : s.count;
  for (size_t i = 0; i < segments && s.bytes > 0; ++i) {
    const uintptr_t first = (s.lo + i * s.stride - nram) >> 2;
    const uintptr_t last = (s.lo + i * s.stride + s.bytes - 1 - nram) >> 2;
    for (uintptr_t g = first; g <= last; ++g)
      if (marks[g] == epoch) {
        uintptr_t end = g + 1;
        while (end <= last && marks[end] == epoch) ++end;
        *lo = nram + 4 * g, *hi = nram + 4 * end;
        return true;
      }
  }
  return false;
}

}  // namespace

void scalar_mark_check(CoreContext &c, const char *op, const Segments &dst, bool dst_nram,
                       const Segments &src, bool src_nram) {
  uintptr_t lo, hi;
  const auto report = [&](HazardKind kind, const char *copy_does, const char *scalar_did) {
    const auto describe = [&] {
      return fmt::format("{} (instruction #{}) {} {} that scalar code {} since the last fence", op,
                         c.issued + 1, copy_does, describe_range(c, lo, hi), scalar_did);
    };
    meet(c, kind, kScalarCodeOp, site_of(c.where, op), describe,
         "put __sync() between the scalar access and the copy");
  };
  if (dst_nram && marked(c, c.scalar_reads, dst, c.fence_epoch, &lo, &hi))
    report(HazardKind::kCopyOverwritesScalarRead, "writes", "read");
  if (src_nram && marked(c, c.scalar_stores, src, c.fence_epoch, &lo, &hi))
    report(HazardKind::kCopyReadsScalarStore, "reads", "stored");
}

namespace {

Segments range_of(uintptr_t lo, uintptr_t hi) { return Segments{lo, hi - lo, hi - lo, 1}; }

// Where an async copy (writing dst, reading src) meets what a compute
// instruction accesses: the first bytes, and what each does with them.
struct Meeting {
  uintptr_t lo = 0, hi = 0;
  bool copy_writes = false, compute_writes = false;
};
bool meets(const Access &x, const Segments &dst, const Segments &src, Meeting *m) {
  const Segments written = range_of(x.w_lo, x.w_hi);
  if (first_overlap(src, written, &m->lo, &m->hi)) return m->compute_writes = true;
  m->copy_writes = true;
  if (first_overlap(dst, written, &m->lo, &m->hi)) return m->compute_writes = true;
  return first_overlap(dst, range_of(x.r0_lo, x.r0_hi), &m->lo, &m->hi) ||
         first_overlap(dst, range_of(x.r1_lo, x.r1_hi), &m->lo, &m->hi);
}

// An NRAM2NRAM copy is ordered with the compute pipes (runtime/pipe_hazards.cpp).
HazardKind kind_against_compute(const Meeting &m, bool nram_copy) {
  if (!m.copy_writes) return HazardKind::kCopyReadsComputeResult;
  if (nram_copy) return HazardKind::kNramCopyMeetsCompute;
  return m.compute_writes ? HazardKind::kCopyOverwritesComputeResult
                          : HazardKind::kCopyWritesComputeOperand;
}

// The read or written ranges of an access, for the older ranges.
struct Touched {
  uintptr_t lo, hi;
  bool writes;
};
std::array<Touched, 3> touched_by(const Access &a) {
  return {Touched{a.w_lo, a.w_hi, true}, Touched{a.r0_lo, a.r0_hi, false},
          Touched{a.r1_lo, a.r1_hi, false}};
}

// Adds [t.lo, t.hi), the entry's range number `k`, to w's older ranges of
// its kind: into one it shares bytes with (the newest instruction names it),
// or as a range of its own; when they are all taken, into the nearest (a
// wider range: never a missed meeting, at worst a report of bytes between
// two ranges). Notes where it went in w.last_older[k].
void add_older(ComputeWindow &w, const Touched &t, const ComputeWindow::Entry &e, int k) {
  if (t.lo == t.hi) return;
  ComputeWindow::Older *nearest = nullptr;
  uintptr_t gap = UINTPTR_MAX;
  for (uint32_t i = 0; i < w.older_count; ++i) {
    ComputeWindow::Older &o = w.older[i];
    if (o.writes != t.writes) continue;
    // 0 where they share bytes; ranges that only touch stay apart.
    const uintptr_t d = t.hi <= o.lo ? o.lo - t.hi + 1 : o.hi <= t.lo ? t.lo - o.hi + 1 : 0;
    if (d < gap) gap = d, nearest = &o;
    if (d == 0) break;
  }
  if (gap != 0 && w.older_count < ComputeWindow::kOlderRanges) {
    w.last_older[k] = static_cast<uint8_t>(w.older_count);
    w.older[w.older_count++] = {t.lo, t.hi, t.writes, e.seq, e.op, e.where};
    return;
  }
  w.last_older[k] = static_cast<uint8_t>(nearest - w.older);
  nearest->lo = std::min(nearest->lo, t.lo);
  nearest->hi = std::max(nearest->hi, t.hi);
  nearest->seq = e.seq, nearest->op = e.op, nearest->where = e.where;
}

// Entry e goes where its kind's ranges of the last retired entry went, if
// each of its ranges lies inside that older range (their names become its
// own); false, and no change, otherwise. A loop retires the same ranges over
// and over: they find their range here with no search.
bool into_last_older(ComputeWindow &w, const ComputeWindow::Entry &e) {
  const std::array<Touched, 3> touched = touched_by(e.access);
  for (int k = 0; k < 3; ++k) {
    const Touched &t = touched[k];
    if (t.lo == t.hi) continue;
    if (w.last_older[k] >= w.older_count) return false;
    const ComputeWindow::Older &o = w.older[w.last_older[k]];
    if (o.writes != t.writes || t.lo < o.lo || t.hi > o.hi) return false;
  }
  for (int k = 0; k < 3; ++k) {
    if (touched[k].lo == touched[k].hi) continue;
    ComputeWindow::Older &o = w.older[w.last_older[k]];
    o.seq = e.seq, o.op = e.op, o.where = e.where;
  }
  return true;
}

// Six words, no padding: compared as bytes (a few vector compares).
bool same_ranges(const Access &a, const Access &b) {
  static_assert(sizeof(Access) == 6 * sizeof(uintptr_t));
  return std::memcmp(&a, &b, sizeof(Access)) == 0;
}

}  // namespace

void settle_window(ComputeWindow &w) {
  const uint32_t live = w.pushed > kPipeQueueDepth ? w.pushed - kPipeQueueDepth : 0;
  for (; w.fenced < live; ++w.fenced) {
    const ComputeWindow::Entry &e = w.at(w.fenced);
    // The next one retires too and touches the same bytes: it goes where this
    // one would and names them (the ranges come out as if both went in).
    if (w.fenced + 1 < live && same_ranges(e.access, w.at(w.fenced + 1).access)) continue;
    if (into_last_older(w, e)) continue;
    const std::array<Touched, 3> touched = touched_by(e.access);
    for (int k = 0; k < 3; ++k) add_older(w, touched[k], e, k);
  }
}

void compute_waited_for(CoreContext &c, const Access &a) {
  for (ComputeWindow &w : c.compute) {
    settle_window(w);
    bool ended = false;
    for (uint32_t j = w.pushed; j-- > w.oldest_live();) {  // the newest first
      if (!depends_on(a, w.at(j).access)) continue;
      w.fenced = j + 1;  // and so has every instruction before it on its pipe
      w.older_count = 0;
      ended = true;
      break;
    }
    if (ended || w.older_count == 0) continue;
    // The newest older instruction it waits for ends the older ones before it.
    uint32_t newest = 0;
    for (uint32_t i = 0; i < w.older_count; ++i) {
      const ComputeWindow::Older &o = w.older[i];
      const bool met = overlaps(a.w_lo, a.w_hi, o.lo, o.hi) ||
                       (o.writes && (overlaps(a.r0_lo, a.r0_hi, o.lo, o.hi) ||
                                     overlaps(a.r1_lo, a.r1_hi, o.lo, o.hi)));
      if (met) newest = std::max(newest, o.seq);
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < w.older_count; ++i)
      if (w.older[i].seq > newest) w.older[kept++] = w.older[i];
    w.older_count = kept;
  }
}

namespace {

// An async copy against w's older ranges: the first it meets, as a Meeting.
const ComputeWindow::Older *older_met(const ComputeWindow &w, const Segments &dst,
                                      const Segments &src, Meeting *m) {
  for (uint32_t i = 0; i < w.older_count; ++i) {
    const ComputeWindow::Older &o = w.older[i];
    *m = Meeting{};
    m->compute_writes = o.writes;
    if (o.writes && first_overlap(src, range_of(o.lo, o.hi), &m->lo, &m->hi)) return &o;
    m->copy_writes = true;
    if (first_overlap(dst, range_of(o.lo, o.hi), &m->lo, &m->hi)) return &o;
  }
  return nullptr;
}

}  // namespace

bool compute_hazard_check(CoreContext &c, const char *op, const Segments &dst,
                          const Segments &src, Pipe own) {
  bool waits = false;
  const bool nram_copy = nram_to_nram(c, dst, src, own);
  const auto check = [&](HazardKind kind, const Meeting &m, const char *x_op, uint32_t seq,
                         const char *where, Pipe pipe) {
    const auto describe = [&] {
      return fmt::format(
          "{} (instruction #{}, {} pipe) {} {} that {} (instruction #{}, {} pipe) {}, with no "
          "fence between them",
          op, c.issued + 1, pipe_name(own), m.copy_writes ? "writes" : "reads",
          describe_range(c, m.lo, m.hi), x_op, seq, pipe_name(pipe),
          m.compute_writes ? "writes" : "reads");
    };
    // The board's copy waits for the instruction whose result it reads.
    return meet(c, kind, site_of(where, x_op), site_of(c.where, op), describe,
                "an async copy does not wait for the compute pipes; put __sync_compute() (or "
                "__sync(), or a barrier) before the copy");
  };
  for (Pipe pipe : {kVectorPipe, kTensorPipe}) {
    ComputeWindow &w = c.compute[pipe - kVectorPipe];
    settle_window(w);
    for (uint32_t j = w.pushed; j-- > w.oldest_live();) {  // the newest first
      const ComputeWindow::Entry &e = w.at(j);
      Meeting m;
      if (!meets(e.access, dst, src, &m)) continue;
      waits |= check(kind_against_compute(m, nram_copy), m, e.op, e.seq, e.where, pipe);
    }
    Meeting m;
    if (const ComputeWindow::Older *o = older_met(w, dst, src, &m))
      check(HazardKind::kCopyMeetsEndedCompute, m, o->op, o->seq, o->where, pipe);
  }
  return waits;
}

}  // namespace mlusim::detail
