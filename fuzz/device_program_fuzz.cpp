// fuzz_device_program: random BANG C programs on the device model. Each input
// decodes to a launch (BLOCK or UnionN, with waves of tasks past the device's
// cores, in a chosen core order) of the interpreter kernel
// (device_program.mlu) over a list of operations (device_program.h).
// Properties, whatever the program does:
//   - the host process survives (ASan + UBSan in CI catch memory errors and UB);
//   - the launch ends: a hang past the watchdog is a libFuzzer timeout;
//   - all of it under MLUSIM_HAZARDS=warn and fault alike;
//   - the launch succeeds, is rejected for its dimensions, or fails with a
//     kernel fault whose report names the kernel, a core and an instruction
//     (an intrinsic, or the signal of a raw access);
//   - the next launch works.
#include <fuzzer/FuzzedDataProvider.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cnrt.h"
#include "fuzz/device_program.h"
#include "mlusim.h"

namespace fuzz {
namespace {

constexpr int kMaxOps = 32;
constexpr int kHostBytes = 65536;
constexpr int kMaxTasks = 160;  // five waves of the 32-core device

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "fuzz_device_program: property broken: %s\n", what.c_str());
  std::abort();
}

Memory &memory() {
  static Memory m = [] {
    Memory made{};
    if (cnrtMalloc(reinterpret_cast<void **>(&made.gdram), kGdramBytes) != cnrtSuccess ||
        cnrtMalloc(reinterpret_cast<void **>(&made.gdram_small), kGdramSmallBytes) != cnrtSuccess ||
        cnrtMalloc(reinterpret_cast<void **>(&made.gdram_freed), kGdramBytes) != cnrtSuccess)
      fail("cnrtMalloc");
    cnrtFree(made.gdram_freed);  // stays out of reach: the quarantine holds 1024 frees
    made.host = static_cast<char *>(std::calloc(kHostBytes, 1));
    return made;
  }();
  return m;
}

class Decoder {
 public:
  Decoder(const uint8_t *data, size_t size) : in_(data, size) {}

  cnrtFunctionType_t type() {
    static constexpr cnrtFunctionType_t kTypes[] = {cnrtFuncTypeBlock, cnrtFuncTypeUnion1,
                                                    cnrtFuncTypeUnion2, cnrtFuncTypeUnion4,
                                                    cnrtFuncTypeUnion8};
    type_index_ = in_.ConsumeIntegralInRange(0, 4);
    return kTypes[type_index_];
  }

  // Whole UnionN groups (now and then not), some launches with waves.
  cnrtDim3_t dim() {
    const unsigned group = type_index_ == 0 ? 1 : 4u << (type_index_ - 1);
    cnrtDim3_t d{group * in_.ConsumeIntegralInRange(1u, 4u), in_.ConsumeIntegralInRange(1u, 2u), 1};
    if (in_.ConsumeIntegralInRange(0, 31) == 0) d.x += 1;  // not a whole group: rejected
    while (size_t{d.x} * d.y > kMaxTasks) d.y = 1, d.x = group;
    return d;
  }

  void schedule() {
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0: unsetenv("MLUSIM_SCHEDULE"); break;
      case 1: setenv("MLUSIM_SCHEDULE", "ordered", 1); break;
      case 2: setenv("MLUSIM_SCHEDULE", "reverse", 1); break;
      default:
        setenv("MLUSIM_SCHEDULE",
               ("random:" + std::to_string(in_.ConsumeIntegral<uint16_t>())).c_str(), 1);
    }
  }

  std::vector<Op> ops() {
    std::vector<Op> out;
    const int n = in_.ConsumeIntegralInRange(0, kMaxOps);
    for (int i = 0; i < n && in_.remaining_bytes() > 0; ++i) out.push_back(op());
    return out;
  }

 private:
  Op op() {
    Op o{};
    o.kind = static_cast<OpKind>(in_.ConsumeIntegralInRange(0, int(OpKind::kKinds) - 1));
    o.variant = in_.ConsumeIntegral<uint8_t>();
    o.who = static_cast<Who>(in_.ConsumeIntegralInRange(0, int(Who::kWho) - 1));
    o.async = in_.ConsumeBool();
    o.dst = operand();
    o.src = operand();
    if (o.kind == OpKind::kCopy) o.variant %= 14;  // the 13 directions and one unknown
    o.size = size(o.kind);
    o.dst_stride = o.src_stride = o.size;
    if (in_.ConsumeIntegralInRange(0, 3) == 0) strided(o);
    if (o.kind == OpKind::kScalarRaw || o.kind == OpKind::kScalarElement) reachable(o.dst);
    return o;
  }

  static int bytes_of(Base b) {
    switch (b) {
      case Base::kNram: return kNramBytes;
      case Base::kSram: return kSramBytes;
      case Base::kWram: return kWramBytes;
      case Base::kGdram: case Base::kGdramFreed: return kGdramBytes;
      case Base::kGdramSmall: return kGdramSmallBytes;
      case Base::kHost: return kHostBytes;
      default: return 4096;
    }
  }

  // Mostly where a correct kernel points (vector-aligned, inside), now and
  // then near or past the end, before the start, or anywhere.
  Operand operand() {
    const Base b = static_cast<Base>(in_.ConsumeIntegralInRange(0, int(Base::kBases) - 1));
    const int bytes = bytes_of(b);
    int32_t offset = 0;
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0: case 1: case 2: case 3: offset = 128 * in_.ConsumeIntegralInRange(0, bytes / 128 - 1); break;
      case 4: offset = bytes - in_.ConsumeIntegralInRange(0, 256); break;
      case 5: offset = -in_.ConsumeIntegralInRange(1, 4096); break;
      case 6: offset = in_.ConsumeIntegralInRange(0, bytes - 1); break;
      default: offset = in_.ConsumeIntegral<int32_t>(); break;
    }
    return Operand{b, offset};
  }

  int32_t size(OpKind kind) {
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0: case 1: case 2:  // whole vector granules
        return kind == OpKind::kCopy ? 128 * in_.ConsumeIntegralInRange(1, 16)
                                     : 32 * in_.ConsumeIntegralInRange(1, 16);
      case 3: return kind == OpKind::kMatmul ? in_.ConsumeIntegralInRange(1, 8) : 4;
      case 4: return in_.ConsumeIntegralInRange(0, 1024);
      case 5: return in_.PickValueInArray({0, -1, INT_MIN, INT_MAX, 1 << 20});
      default: return in_.ConsumeIntegralInRange(1, 64);
    }
  }

  void strided(Op &o) {
    o.segnum = in_.ConsumeIntegralInRange(0, 15);
    o.dst_stride = 64 * in_.ConsumeIntegralInRange(0, 8);
    o.src_stride = 64 * in_.ConsumeIntegralInRange(0, 8);
    if (in_.ConsumeIntegralInRange(0, 63) == 0) o.segnum = in_.PickValueInArray({-1, INT_MAX});
    if (in_.ConsumeIntegralInRange(0, 63) == 0) o.dst_stride = in_.ConsumeIntegral<int32_t>();
  }

  // A raw access must fault, not scribble over the host: device memory (or
  // null) within its guard zones, host memory only inside the host buffer.
  static void reachable(Operand &o) {
    if (o.base == Base::kHost)
      o.offset = static_cast<int32_t>(static_cast<uint32_t>(o.offset) % kHostBytes);
    else if (o.offset < -4096 || o.offset >= (1 << 20))
      o.offset = static_cast<int32_t>(static_cast<uint32_t>(o.offset) % (1 << 20));
  }

  FuzzedDataProvider in_;
  int type_index_ = 0;
};

bool contains(const std::string &s, const char *part) { return s.find(part) != std::string::npos; }

// Names the kernel, a core and an instruction (an intrinsic, the signal of a
// raw access in the kernel's code, or the line of a scalar access); a core
// the watchdog stopped before its first intrinsic says so (on a loaded host
// the 2 s limit can end a program that runs in half a second alone).
void check_report(const std::string &report) {
  if (report.rfind("kernel 'interpret'", 0) != 0) fail("fault report names no kernel: " + report);
  if (!contains(report, "cluster ") || !contains(report, "core"))
    fail("fault report names no core: " + report);
  if (!contains(report, "__") && !contains(report, "SIGSEGV") && !contains(report, "SIGBUS") &&
      !contains(report, "scalar code at ") && !contains(report, "running, last intrinsic none"))
    fail("fault report names no instruction: " + report);
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlusimSetWatchdogSeconds(2.0);
  fuzz::memory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Decoder decode(data, size);
  const cnrtFunctionType_t type = decode.type();
  const cnrtDim3_t dim = decode.dim();
  decode.schedule();
  const std::vector<fuzz::Op> ops = decode.ops();
  // Both pipe hazard modes, by the input's length (the decoding of every
  // stored input stays as it was).
  mlusimSetHazards(size % 2 == 0 ? "warn" : "fault");
  const cnrtRet_t status =
      fuzz::run_program(ops.data(), static_cast<int>(ops.size()), dim, type, fuzz::memory());
  mlusimSetHazards(nullptr);
  if (status == cnrtErrorKernelFault)
    fuzz::check_report(mlusimGetLastError());
  else if (status != cnrtSuccess && status != cnrtErrorInvalidKernelDim)
    fuzz::fail("launch status " + std::to_string(status) + ": " + mlusimGetLastError());
  unsetenv("MLUSIM_SCHEDULE");
  if (!fuzz::device_works(fuzz::memory()))
    fuzz::fail(std::string("the next launch failed: ") + mlusimGetLastError());
  return 0;
}
