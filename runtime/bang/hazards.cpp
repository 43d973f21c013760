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

// The first granule of [first, last] whose mark holds `epoch`, or last + 1.
// Almost every mark an async copy's range holds is of an older epoch: eight
// at a time in two vector compares (GCC and Clang vectorise no loop of this).
uintptr_t first_marked(const uint32_t *marks, uintptr_t first, uintptr_t last, uint32_t epoch) {
  using Four = uint32_t __attribute__((vector_size(16)));
  uintptr_t g = first;
  for (; g <= last && last - g >= 7; g += 8) {
    Four a, b;
    std::memcpy(&a, marks + g, sizeof a);
    std::memcpy(&b, marks + g + 4, sizeof b);
    const auto hits = (a == epoch) | (b == epoch);  // a lane of ones where a mark holds it
    uint64_t lanes[2];
    std::memcpy(lanes, &hits, sizeof lanes);
    if ((lanes[0] | lanes[1]) != 0) break;
  }
  while (g <= last && marks[g] != epoch) ++g;
  return g;
}

// The first NRAM bytes of `s` whose marks hold `epoch`, as [*lo, *hi) of 4-byte
// granules' bytes.
bool marked(const CoreContext &c, const uint32_t *marks, const Segments &s, uint32_t epoch,
            uintptr_t *lo, uintptr_t *hi) {
  const uintptr_t nram = reinterpret_cast<uintptr_t>(c.nram);
  const size_t segments = s.stride == 0 ? 1 : s.count;
  for (size_t i = 0; i < segments && s.bytes > 0; ++i) {
    const uintptr_t first = (s.lo + i * s.stride - nram) >> 2;
    const uintptr_t last = (s.lo + i * s.stride + s.bytes - 1 - nram) >> 2;
    const uintptr_t g = first_marked(marks, first, last, epoch);
    if (g > last) continue;
    uintptr_t end = g + 1;
    while (end <= last && marks[end] == epoch) ++end;
    *lo = nram + 4 * g, *hi = nram + 4 * end;
    return true;
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

// The list of older ranges a range of kind t goes into.
ComputeWindow::Older &older_of(ComputeWindow &w, const Touched &t) {
  return w.older[t.writes ? ComputeWindow::kOlderWrites : ComputeWindow::kOlderReads];
}

void name_older(ComputeWindow::Older &list, uint32_t i, const ComputeWindow::Entry &e) {
  list.seq[i] = e.seq, list.op[i] = e.op, list.where[i] = e.where;
}

void copy_older(ComputeWindow::Older &list, uint32_t to, uint32_t from) {
  list.lo[to] = list.lo[from], list.hi[to] = list.hi[from];
  list.seq[to] = list.seq[from], list.op[to] = list.op[from], list.where[to] = list.where[from];
}

// Ranges [first, last) of `list` go; those after them move down.
void erase_older(ComputeWindow::Older &list, uint32_t first, uint32_t last) {
  for (uint32_t i = last; i < list.count; ++i) copy_older(list, first + i - last, i);
  list.count -= last - first;
}

// Room for one range at i; those from i on move up.
void open_older(ComputeWindow::Older &list, uint32_t i) {
  for (uint32_t j = list.count; j > i; --j) copy_older(list, j, j - 1);
  ++list.count;
}

// Adds [t.lo, t.hi), the entry's range number `k`, to w's older ranges of
// its kind, which stay sorted and share no bytes: the ranges it shares bytes
// with become one with it; else it takes a place of its own, or when they
// are all taken it widens the nearer of its neighbours (never a missed
// meeting, at worst a report of bytes between two ranges). The range it
// went into is named by the entry, the newest instruction that touched it;
// w.last_older[k] notes where.
void add_older(ComputeWindow &w, const Touched &t, const ComputeWindow::Entry &e, int k) {
  if (t.lo == t.hi) return;
  ComputeWindow::Older &list = older_of(w, t);
  const uintptr_t *hi = list.hi, *hi_end = list.hi + list.count;
  // The first range ending past t's start, and the first from there starting at its end or later.
  auto i = static_cast<uint32_t>(std::upper_bound(hi, hi_end, t.lo) - hi);
  uint32_t j = i;
  while (j < list.count && list.lo[j] < t.hi) ++j;
  if (j > i) {  // ranges i to j - 1 share bytes with t
    list.lo[i] = std::min(list.lo[i], t.lo);
    list.hi[i] = std::max(list.hi[j - 1], t.hi);
    if (j > i + 1) erase_older(list, i + 1, j);
  } else if (list.count == 0 || w.older_count() < ComputeWindow::kOlderRanges) {
    // (a kind's first range gets a place even when the other kind took them all)
    open_older(list, i);
    list.lo[i] = t.lo, list.hi[i] = t.hi;
  } else {
    // Ranges that only touch are 1 apart; the left one wins a tie.
    const uintptr_t left = i > 0 ? t.lo - list.hi[i - 1] + 1 : UINTPTR_MAX;
    const uintptr_t right = i < list.count ? list.lo[i] - t.hi + 1 : UINTPTR_MAX;
    if (left <= right)
      list.hi[--i] = t.hi;
    else
      list.lo[i] = t.lo;
  }
  name_older(list, i, e);
  w.last_older[k] = static_cast<uint8_t>(i);
}

// Range k of entry e into w's older ranges: where range k of the last
// retired entry went, if it lies inside that older range (its name becomes
// e's), else by add_older's search. A loop retires the same ranges over and
// over: they find their place here with no search, each on its own (an add
// whose destination row moves still finds its source's range so). An index
// an add_older before it moved may now name another range; if t lies inside
// that one, it is the only range that holds t, the one the search would find.
void into_older(ComputeWindow &w, const Touched &t, const ComputeWindow::Entry &e, int k) {
  if (t.lo == t.hi) return;
  ComputeWindow::Older &list = older_of(w, t);
  const uint32_t i = w.last_older[k];
  if (i < list.count && t.lo >= list.lo[i] && t.hi <= list.hi[i])
    name_older(list, i, e);
  else
    add_older(w, t, e, k);
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
    const std::array<Touched, 3> touched = touched_by(e.access);
    for (int k = 0; k < 3; ++k) into_older(w, touched[k], e, k);
  }
}

void compute_waited_for(CoreContext &c, Access a) {
  for (ComputeWindow &w : c.compute) {
    settle_window(w);
    bool ended = false;
    for (uint32_t j = w.pushed; j-- > w.oldest_live();) {  // the newest first
      if (!depends_on(a, w.at(j).access)) continue;
      w.fenced = j + 1;  // and so has every instruction before it on its pipe
      w.forget_older();
      ended = true;
      break;
    }
    if (ended || w.older_count() == 0) continue;
    // The newest older instruction it waits for ends the older ones before
    // it: what it writes meets both kinds, what it reads older writes.
    uint32_t newest = 0;
    for (const ComputeWindow::OlderKind kind :
         {ComputeWindow::kOlderReads, ComputeWindow::kOlderWrites}) {
      const ComputeWindow::Older &list = w.older[kind];
      for (uint32_t i = 0; i < list.count; ++i) {
        const uintptr_t lo = list.lo[i], hi = list.hi[i];
        const bool met = overlaps(a.w_lo, a.w_hi, lo, hi) ||
                         (kind == ComputeWindow::kOlderWrites &&
                          (overlaps(a.r0_lo, a.r0_hi, lo, hi) || overlaps(a.r1_lo, a.r1_hi, lo, hi)));
        if (met) newest = std::max(newest, list.seq[i]);
      }
    }
    for (ComputeWindow::Older &list : w.older) {
      uint32_t kept = 0;
      for (uint32_t i = 0; i < list.count; ++i)
        if (list.seq[i] > newest) copy_older(list, kept++, i);
      list.count = kept;
    }
  }
}

namespace {

// An async copy against w's older ranges: the first it meets, the ranges
// older instructions wrote before those they read, as a Meeting; its list
// and index in *at.
struct OlderAt {
  const ComputeWindow::Older *list;
  uint32_t i;
};
bool older_met(const ComputeWindow &w, const Segments &dst, const Segments &src, Meeting *m,
               OlderAt *at) {
  for (const ComputeWindow::OlderKind kind :
       {ComputeWindow::kOlderWrites, ComputeWindow::kOlderReads}) {
    const ComputeWindow::Older &list = w.older[kind];
    const bool writes = kind == ComputeWindow::kOlderWrites;
    for (uint32_t i = 0; i < list.count; ++i) {
      const Segments range = range_of(list.lo[i], list.hi[i]);
      *m = Meeting{};
      m->compute_writes = writes;
      *at = OlderAt{&list, i};
      if (writes && first_overlap(src, range, &m->lo, &m->hi)) return true;
      m->copy_writes = true;
      if (first_overlap(dst, range, &m->lo, &m->hi)) return true;
    }
  }
  return false;
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
    OlderAt o;
    if (older_met(w, dst, src, &m, &o))
      check(HazardKind::kCopyMeetsEndedCompute, m, o.list->op[o.i], o.list->seq[o.i],
            o.list->where[o.i], pipe);
  }
  return waits;
}

}  // namespace mlusim::detail
