#include "runtime/scalar_marks.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace mlusim {
namespace {

// One mapping per core context of the launch: the read marks, then the
// store marks. Untouched pages cost no memory.
struct MarkMaps {
  size_t nram_bytes = 0;
  std::vector<uint32_t *> maps;
  uint32_t next_epoch = 1;  // 0 is a fresh mark's value

  size_t map_bytes() const { return 2 * (nram_bytes / 4 + 1) * sizeof(uint32_t); }
  void unmap_all() {
    for (uint32_t *m : maps) munmap(m, map_bytes());
    maps.clear();
  }
  uint32_t *at(size_t index) {
    while (maps.size() <= index) {
      void *m = mmap(nullptr, map_bytes(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      maps.push_back(static_cast<uint32_t *>(m));
    }
    return maps[index];
  }
};

MarkMaps g_marks;  // the launch lock serialises every use

}  // namespace

void begin_scalar_marks(std::vector<CoreContext> &cores, size_t nram_bytes) {
  if (g_marks.nram_bytes != nram_bytes) {  // another device
    g_marks.unmap_all();
    g_marks.nram_bytes = nram_bytes;
  }
  // Far from the end of the epochs: start again from fresh marks.
  if (g_marks.next_epoch > UINT32_MAX / 2) {
    for (uint32_t *m : g_marks.maps) madvise(m, g_marks.map_bytes(), MADV_DONTNEED);
    g_marks.next_epoch = 1;
  }
  for (size_t i = 0; i < cores.size(); ++i) {
    CoreContext &c = cores[i];
    c.scalar_reads = g_marks.at(i);
    c.scalar_stores = c.scalar_reads + nram_bytes / 4 + 1;
    c.fence_epoch = g_marks.next_epoch;
    c.scalar_marked = false;
  }
}

void end_scalar_marks(const std::vector<CoreContext> &cores) {
  for (const CoreContext &c : cores) g_marks.next_epoch = std::max(g_marks.next_epoch, c.fence_epoch + 1);
}

}  // namespace mlusim
