#include "runtime/sdk/host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#include "runtime/logging.h"

namespace mlusim::sdk {
namespace {

constexpr size_t kHostAlign = 64;

struct HostBlocks {
  std::mutex mutex;
  std::map<uintptr_t, size_t> live;  // start -> bytes
};

HostBlocks &blocks() {
  static HostBlocks b;
  return b;
}

}  // namespace

cnrtRet_t host_alloc(void **ptr, size_t bytes, const char *api) {
  if (ptr == nullptr || bytes == 0) {
    log::runtime().error("{}: {}", api, ptr == nullptr ? "null output pointer" : "zero bytes");
    return cnrtErrorArgsInvalid;
  }
  void *p = std::aligned_alloc(kHostAlign, (bytes + kHostAlign - 1) / kHostAlign * kHostAlign);
  if (p == nullptr) {
    log::runtime().error("{}: host memory exhausted for {} bytes", api, bytes);
    return cnrtErrorSysNoMem;
  }
  HostBlocks &b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.live[reinterpret_cast<uintptr_t>(p)] = bytes;
  *ptr = p;
  return cnrtSuccess;
}

cnrtRet_t host_free(void *ptr, const char *api) {
  if (ptr == nullptr) return cnrtSuccess;
  HostBlocks &b = blocks();
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    if (b.live.erase(reinterpret_cast<uintptr_t>(ptr)) == 0) {
      log::runtime().error("{}: {} is not host memory the runtime allocated (or freed already)",
                           api, ptr);
      return cnrtErrorArgsInvalid;
    }
  }
  std::free(ptr);
  return cnrtSuccess;
}

bool host_find(const void *p, void **start, size_t *bytes) {
  HostBlocks &b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = b.live.upper_bound(addr);
  if (it == b.live.begin()) return false;
  --it;
  if (addr >= it->first + it->second) return false;
  *start = reinterpret_cast<void *>(it->first);
  *bytes = it->second;
  return true;
}

}  // namespace mlusim::sdk
