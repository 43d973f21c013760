#include "runtime/pipe_hazards.h"

#include "runtime/settings.h"

namespace mlusim {
namespace {

// One row per HazardKind, in its order. A row's board_resolves changes only
// with evidence of a board run: a public program or an mlu-ops case that
// passes on boards with the pair unfenced (or fails because of it).
constexpr HazardRule kRules[] = {
    {"an async copy reads bytes a vector or tensor instruction writes", true,
     "boards pass with it: a public matmul course lab's stage 3 (__bang_matmul, then "
     "__memcpy_async NRAM2GDRAM of its result) printed PASSED on an MLU370-M8; mlu-ops v1.5.2's "
     "bbox_overlaps and ms_deform_attn_backward (an NRAM2NRAM __memcpy_async of what "
     "__bang_transpose wrote) pass their in-tree cases on boards"},
    {"an async copy writes bytes a vector or tensor instruction reads", false,
     "no board run known: the guide's rule stands"},
    {"an async copy writes bytes a vector or tensor instruction writes", false,
     "no board run known: the guide's rule stands"},
    {"an async copy writes bytes a vector or tensor instruction more than 16 instructions back on "
     "its pipe reads or writes, or reads bytes it writes", true,
     "a pipe holds 16 instructions (docs/cost_model.md): an older one has ended before the copy "
     "issues. Cambricon's sanitizer reports it, and mlu-ops fenced such a site after it did "
     "(#1178, roi_align_rotated's loop)"},
    {"an async NRAM2NRAM copy writes bytes a vector or tensor instruction reads or writes", true,
     "boards pass with it: mlu-ops v1.5.2's bbox_overlaps and ms_deform_attn_backward start such "
     "copies over what __bang_sub and __bang_and still use, with no fence; Cambricon's "
     "bang_device_functions.h makes __sync_copy_nram_to_nram() the compute sync: such a copy is "
     "ordered with the compute pipes"},
    {"a vector or tensor instruction reads or writes bytes an async copy still writes", false,
     "boards corrupt data: mlu-ops fixed exactly this in dynamic_point_to_voxel_forward after "
     "v1.5.2 (commit d19f440a, 'fix load/compute overlap causing buffer')"},
    {"a vector or tensor instruction writes bytes an async copy still reads", false,
     "no board run known: the guide's rule stands"},
    {"a vector or tensor instruction reads or writes bytes an async NRAM2NRAM copy still "
     "writes, or writes bytes it still reads",
     true,
     "boards pass with it: mlu-ops v1.5.2's ms_deform_attn_backward converts what an NRAM2NRAM "
     "__memcpy_async wrote, and transposes over what one still reads, with no fence between "
     "them, and Cambricon's bang_device_functions.h makes __sync_copy_nram_to_nram() the compute "
     "sync (sync.compute): such a copy is ordered with the compute pipes"},
    {"a copy or fill writes over bytes an async copy of another queue still writes", true,
     "boards pass with it: mlu-ops v1.5.2's mutual_information forward and backward "
     "(__nramset_async into the destination of an unfenced GDRAM2NRAM copy) pass their "
     "_large_ST cases on boards"},
    {"a copy reads bytes an async copy of another queue still writes", false,
     "boards give stale bytes: a public course lab's stage 6 (GDRAM2SRAM, then SRAM2WRAM with "
     "no fence) printed PASSED only because WRAM still held the previous program's data"},
    {"a copy writes bytes an async copy of another queue still reads", false,
     "no board run known: the guide's rule stands"},
    {"scalar code reads or writes bytes an async copy still writes", false,
     "boards give stale or torn bytes (the scalar unit does not wait for the DMA queues)"},
    {"scalar code writes bytes an async copy still reads", false,
     "no board run known: the guide's rule stands"},
    {"an async copy writes NRAM that scalar code read since the last fence", true,
     "Cambricon's sanitizer reports it and mlu-ops fenced such sites (#1150 mutual_information, "
     "#1127 rotated_feature_align and voxelization); no board failure is known, and the stream "
     "issues in order: the scalar load has its value before the copy issues"},
    {"an async copy reads NRAM that scalar code stored since the last fence", true,
     "Cambricon's sanitizer reports it and mlu-ops fenced such a site (#1178, "
     "roi_align_rotated's set-up); no board failure is known, and the stream issues in order"},
};
static_assert(std::size(kRules) == static_cast<size_t>(HazardKind::kCount));

// MLUSIM_HAZARDS, or mlusimSetHazards' choice (HazardMode's order).
NamedChoice g_hazards("MLUSIM_HAZARDS", {"warn", "fault", "off"},
                      static_cast<int>(HazardMode::kWarn), "warn (the default), fault or off");

}  // namespace

const HazardRule &hazard_rule(HazardKind kind) { return kRules[static_cast<size_t>(kind)]; }

HazardMode hazard_mode() { return static_cast<HazardMode>(g_hazards.current()); }

std::string set_hazard_mode(const char *name) { return g_hazards.choose(name); }

HazardReports::Verdict HazardReports::first(HazardKind kind, const char *earlier,
                                            const char *later) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto pair = std::make_tuple(kind, earlier, later);
  if (seen_.count(pair) != 0) return kSeen;
  if (seen_.size() >= kMaxReports) return kBeyondTheCap;
  seen_.insert(pair);
  return seen_.size() == kMaxReports ? kLastReport : kReport;
}

}  // namespace mlusim
