// Where a launch keeps the on-chip variables its .mlu kernel declares
// (__nram__, __wram__, __mlu_shared__, __ldram__): one layout per launch, the
// same offsets for every core, built as the cores first reach each declaration.
#pragma once

#include <sys/types.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/detail/onchip_variables.h"
#include "runtime/devices.h"

namespace mlusim {

class OnchipLayout {
 public:
  static constexpr size_t kLdramBytes = size_t{64} << 20;  // per core, reserved lazily

  // serial: the run of the launch (runtime/launch.h); sites placed under it are current.
  OnchipLayout(uint64_t serial, const DeviceSpec &spec, const std::vector<CoreContext> &cores);
  ~OnchipLayout();
  OnchipLayout(const OnchipLayout &) = delete;
  OnchipLayout &operator=(const OnchipLayout &) = delete;

  uint64_t serial() const { return serial_; }
  // The per-granule ends of NRAM, SRAM or WRAM variables every core checks against.
  DeclaredEnds ends(Space space) const;
  // Bytes of the space the variables placed so far take (up to the last one's end).
  size_t used(Space space) const;
  std::byte *place(CoreContext &c, bang::OnchipSite &site, size_t bytes, size_t align);
  // "'a' (prog.mlu:10, 256 bytes)" for the variable at `offset`, or "".
  std::string describe(Space space, size_t offset) const;
  // After the run: every core notes the on-chip variables initialised for it
  // (CoreContext::touched), which the next launch refills.
  void note_initialised() const;

 private:
  struct Placed {
    const bang::OnchipSite *site;
    size_t offset, bytes;
  };
  struct SpaceLayout {
    std::atomic<size_t> used{0};
    std::vector<Placed> vars;
  };
  static constexpr int kSpaces = 5;

  void add(CoreContext &c, Space space, bang::OnchipSite &site, size_t bytes, size_t align);
  void initialise(Space space, const bang::OnchipSite &site);
  std::string list_variables(Space space) const;
  std::byte *ldram_of(int core);

  size_t capacity(Space space) const;

  const uint64_t serial_;
  const DeviceSpec &spec_;
  const std::vector<CoreContext> &cores_;
  mutable std::mutex mutex_;
  std::array<SpaceLayout, kSpaces> spaces_;
  std::vector<void *> ldram_;  // per core, mapped on first use
  std::vector<Placed> initialised_;  // on-chip variables with an initializer
};

}  // namespace mlusim
