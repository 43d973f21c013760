#include "runtime/gdram_image.h"

#include <algorithm>
#include <cstring>

#include <spdlog/fmt/fmt.h>

namespace mlusim {
namespace {

// Up to 8 bytes from `at`, in hex, for a difference report.
std::string bytes_at(const std::vector<std::byte> &v, size_t at) {
  std::string out;
  for (size_t i = at; i < std::min(v.size(), at + 8); ++i)
    out += fmt::format("{:02x}", static_cast<unsigned>(v[i]));
  return out;
}

}  // namespace

GdramImage::GdramImage(const GdramSnapshot &allocations) : allocations_(allocations) {
  for (const GdramRange &r : allocations) {
    const auto *p = reinterpret_cast<const std::byte *>(r.begin);
    contents_.emplace_back(p, p + (r.end - r.begin));
  }
}

void GdramImage::restore() const {
  for (size_t i = 0; i < allocations_.size(); ++i)
    std::memcpy(reinterpret_cast<void *>(allocations_[i].begin), contents_[i].data(),
                contents_[i].size());
}

std::string GdramImage::difference(const GdramImage &other, const std::string &mine,
                                   const std::string &theirs) const {
  for (size_t i = 0; i < contents_.size(); ++i) {
    const std::vector<std::byte> &a = contents_[i], &b = other.contents_[i];
    const auto first = std::mismatch(a.begin(), a.end(), b.begin());
    if (first.first == a.end()) continue;
    size_t differing = 0;
    for (size_t k = 0; k < a.size(); ++k) differing += a[k] != b[k];
    const auto offset = static_cast<size_t>(first.first - a.begin()), at = offset / 8 * 8;
    return fmt::format("GDRAM allocation #{} ({} bytes) differs in {} bytes, first at +{:#x}; "
                       "bytes from +{:#x}: {} under {}, {} under {}",
                       allocations_[i].id, a.size(), differing, offset, at, bytes_at(a, at), mine,
                       bytes_at(b, at), theirs);
  }
  return "";
}

}  // namespace mlusim
