// The simulated core's cold half (include/mlusim/bang/detail/core.h): names of
// pipes and spaces, the calling thread's core, fault messages; and the tensor
// pipe's issue (include/mlusim/bang/detail/issue.h). The pipe hazards' checks
// are in hazards.cpp.
#include <algorithm>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/issue.h"
#include "runtime/bang/onchip_layout.h"
#include "runtime/logging.h"
#include "runtime/memory_core.h"
#include "runtime/scheduler.h"
#include "runtime/watchdog.h"

namespace mlusim {

const char *pipe_name(uint8_t pipe) {
  switch (pipe) {
    case kIoPipe: return "IO";
    case kMovePipe: return "move";
    case kVectorPipe: return "vector";
    case kTensorPipe: return "tensor";
  }
  return "stream";
}

const char *space_name(Space s) {
  switch (s) {
    case Space::kNram: return "NRAM";
    case Space::kSram: return "SRAM";
    case Space::kWram: return "WRAM";
    case Space::kGdram: return "GDRAM";
    case Space::kLdram: return "LDRAM";
  }
  return "?";
}

namespace detail {

thread_local CoreContext *tls_core __attribute__((tls_model("initial-exec"))) = nullptr;

std::string core_name(const CoreContext &c) {
  return c.is_mpu ? fmt::format("cluster {} memory core", c.physical_cluster)
                  : fmt::format("cluster {} core {}", c.physical_cluster, c.core_in_cluster);
}

std::string kernel_site(const CoreContext &c) {
  const char *kernel = c.launch != nullptr ? c.launch->kernel : "(none)";
  const std::string at = c.where != nullptr ? fmt::format(" at {}", c.where) : std::string();
  return fmt::format("kernel '{}' [{}, task {}]{}", kernel, core_name(c), c.task_id, at);
}

void fault(const CoreContext &c, const std::string &what) {
  throw KernelFault{fmt::format("{}: {}", kernel_site(c), what)};
}

// The guide does not say what __bang_lut gives for an index outside its
// table. mlu-ops' ms_deform_attn_backward (v1.5.2 to v1.11.1) looks its 0/-1
// masks up a second and a third time in a table of {0, -1, 0, ...}, so index
// 0xffffffff must come back as -1 for its cases to pass on boards, as they
// do: an index outside the table leaves its element as it was (ARM's TBX
// rule; with dst == idx, as in every mlu-ops call, the same as passing the
// index through).
void note_lut_index_outside(const CoreContext &c, long long index, size_t element,
                            size_t table_len) {
  if (!first_note(c.launch->lut_outside_noted)) return;
  log::kernel().warn(
      "{}: __bang_lut index {} at element {} is outside its table of {}; the BANG C guide does "
      "not say what the board gives, and mlu-ops' ms_deform_attn_backward relies on it: mlusim "
      "leaves the element as it was. Keep indices inside the table if the kernel must be "
      "portable. (Noted once per launch.)",
      kernel_site(c), index, element, table_len);
}

namespace {

size_t capacity_of(const CoreContext &c, Space s) {
  return s == Space::kNram ? c.nram_capacity : s == Space::kSram ? c.sram_capacity : c.wram_capacity;
}

uintptr_t offset_in(const CoreContext &c, Space s, const void *p) {
  return reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(onchip_base(c, s));
}

// Where p lives, for messages: "NRAM +0x40", "GDRAM allocation #2 ...", ...
std::string where(const CoreContext &c, const void *p, Space *space_out) {
  for (Space s : {Space::kNram, Space::kSram, Space::kWram}) {
    const uintptr_t off = offset_in(c, s, p);
    if (onchip_base(c, s) != nullptr && off < capacity_of(c, s)) {
      *space_out = s;
      return fmt::format("{} +{:#x}", space_name(s), off);
    }
  }
  *space_out = Space::kGdram;
  return gdram_describe(*c.gdram, p);
}

}  // namespace

void fault_bounds(const CoreContext &c, const char *op, const char *operand, Space expected,
                  const void *p, size_t bytes) {
  Space actual;
  std::string at = where(c, p, &actual);
  if (actual == expected && expected != Space::kGdram) {
    const size_t declared = c.launch->layout->used(expected);
    fault(c, fmt::format("{}: {} at {} with {} bytes runs {} bytes past the {} bytes of {} the "
                         "kernel declared",
                         op, operand, at, bytes, offset_in(c, expected, p) + bytes - declared,
                         declared, space_name(expected)));
  }
  if (actual == expected)
    fault(c, fmt::format("{}: {} [{}, +{} bytes) is not inside one GDRAM allocation: {}", op,
                         operand, p, bytes, at));
  fault(c, fmt::format("{}: {} {} is in {}, but the instruction needs {} there", op, operand, at,
                       actual == Space::kGdram ? "no on-chip memory" : space_name(actual),
                       space_name(expected)));
}

void fault_too_many_steps(const CoreContext &c, const char *op) {
  // The watchdog, which asked for this stop, signals a core still running a
  // round later: its jump must not land in the allocator while the message
  // is written (the allocator's lock would stay held: the next allocation
  // hung, seen under ASan on a loaded host).
  const HeapHeld held(c);
  // The report lists the cores running when the limit passed; this one may
  // have been between two tasks then.
  if (c.step_limit.load() == 0)
    fault(c, fmt::format("{} (this core stopped at {})", watchdog_report(), op));
  fault(c, fmt::format("more than {} instructions, fences and barriers on one core in one launch: "
                       "mlusim stops a core there (an endless loop of intrinsics?)",
                       kMaxSteps));
}

void next_step_chunk(CoreContext &c) {
  if (c.launch != nullptr && c.launch->scheduler != nullptr) c.launch->scheduler->room_for_steps(c);
  const HeapHeld held(c);
  c.steps.add_chunk();
}

void check_onchip_slowly(const CoreContext &c, const char *op, const char *operand, Space space,
                         const void *p, size_t bytes) {
  const uintptr_t off = offset_in(c, space, p);
  if (c.is_mpu && space != Space::kSram && skip_on_memory_core(c, op, space, off, bytes)) {
    // A vector or matrix intrinsic still computes into the scratch (docs/bang_c.md).
    c.touched[static_cast<int>(space)].note(off, bytes);
    return;
  }
  const bool in_space = onchip_base(c, space) != nullptr && off <= capacity_of(c, space);
  if (in_space && bytes == 0) return;  // an empty operand touches nothing
  if (in_space && off + bytes <= c.launch->layout->used(space))
    fault_crossing(c, op, operand, space, p, bytes);
  fault_bounds(c, op, operand, space, p, bytes);
}

void fault_alignment(const CoreContext &c, const char *op, const char *operand, const void *p,
                     size_t bytes) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(c.nram);
  fault(c, fmt::format("{}: {} at NRAM +{:#x} with {} bytes breaks the vector alignment rules "
                       "(start aligned to {} bytes, size a multiple of {} bytes)",
                       op, operand, off, bytes, c.rules.nram_align_mask + 1,
                       c.rules.vector_count_mask + 1));
}

void fault_outside_range(const CoreContext &c, const char *op, double x, double lo, double hi) {
  fault(c, fmt::format("{}: an element of src is {}, outside [{}, {}], the input range Cambricon "
                       "documents for it (bang_device_functions_decls.h); the device's result "
                       "there is not defined",
                       op, x, lo, hi));
}

std::string describe_range(const CoreContext &c, uintptr_t lo, uintptr_t hi) {
  Space s;
  return fmt::format("{} ({} bytes)", where(c, reinterpret_cast<const void *>(lo), &s), hi - lo);
}

void issue_tensor(const char *op, TensorOperand dst, std::initializer_list<TensorOperand> srcs,
                  double macs, MatrixRate rate) {
  CoreContext &c = this_core();
  require_onchip(c, op, "dst", dst.space, dst.p, dst.bytes);
  Access a = access_of(dst.p, dst.bytes, nullptr, 0, nullptr, 0);
  int n = 0;
  for (const TensorOperand &s : srcs) {
    require_onchip(c, op, "src", s.space, s.p, s.bytes);
    check_read(c, op, s.p, s.bytes);
    // Two read ranges are tracked for timing: the first source and the hull of the rest.
    const auto lo = reinterpret_cast<uintptr_t>(s.p), hi = lo + s.bytes;
    if (n++ == 0) {
      a.r0_lo = lo, a.r0_hi = hi;
    } else {
      a.r1_lo = a.r1_hi == 0 ? lo : std::min(a.r1_lo, lo);
      a.r1_hi = std::max(a.r1_hi, hi);
    }
  }
  check_write(c, op, dst.p, dst.bytes);
  issue(c, Step{.op = op, .detail = "tensor", .access = a, .amount = static_cast<uint64_t>(macs),
                .kind = StepKind::kTensor, .pipe = kTensorPipe, .rate = rate});
}

}  // namespace detail
}  // namespace mlusim
