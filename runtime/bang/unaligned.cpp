// Aligned copies of an intrinsic's operands when one starts off its element's
// alignment (include/mlusim/bang/detail/unaligned.h): the cold path, taken
// only then.
#include "mlusim/bang/detail/unaligned.h"

#include <algorithm>
#include <cstring>

namespace mlusim::detail {
namespace {

// Every block of copies starts on the widest element's alignment.
constexpr size_t kCopyAlign = alignof(uint64_t);

size_t round_up(size_t n) { return (n + kCopyAlign - 1) / kCopyAlign * kCopyAlign; }

bool share_bytes(const StagedOperand &a, const StagedOperand &b) {
  return a.bytes != 0 && b.bytes != 0 && a.at < b.at + b.bytes && b.at < a.at + a.bytes;
}

// Sets each operand's group: the first operand of those it shares bytes
// with, directly or through others.
void group_overlapping(StagedOperand *operands, size_t count) {
  for (size_t i = 0; i < count; ++i) operands[i].group = i;
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < count; ++i)
      for (size_t j = i + 1; j < count; ++j)
        if (operands[i].group != operands[j].group && share_bytes(operands[i], operands[j])) {
          const size_t from = std::max(operands[i].group, operands[j].group);
          const size_t to = std::min(operands[i].group, operands[j].group);
          for (size_t k = 0; k < count; ++k)
            if (operands[k].group == from) operands[k].group = to;
          merged = true;
        }
  }
}

// Lays out group `first` from offset `end` of the copies: one block, the
// widest member's start aligned, when its members lie whole elements apart
// (as aligned operands always do, so they overlap in the copies as in NRAM);
// otherwise each member apart (no aligned layout has them so: each source
// is read as it was before the instruction). Sets each member's copy to its
// offset; returns the end of the group's copies.
size_t lay_out_group(StagedOperand *operands, size_t count, size_t first, size_t end) {
  size_t widest = first;
  uintptr_t lo = operands[first].at, hi = lo;
  for (size_t m = first; m < count; ++m) {
    if (operands[m].group != first) continue;
    if (operands[m].align > operands[widest].align) widest = m;
    lo = std::min(lo, operands[m].at);
    hi = std::max(hi, operands[m].at + operands[m].bytes);
  }
  bool one_block = true;
  for (size_t m = first; m < count; ++m)
    if (operands[m].group == first &&
        (operands[m].at - operands[widest].at) % operands[m].align != 0)
      one_block = false;
  if (one_block) {
    const size_t align = operands[widest].align;
    const size_t pad = (align - (operands[widest].at - lo) % align) % align;
    for (size_t m = first; m < count; ++m)
      if (operands[m].group == first) operands[m].copy = end + pad + (operands[m].at - lo);
    return round_up(end + pad + (hi - lo));
  }
  for (size_t m = first; m < count; ++m)
    if (operands[m].group == first) {
      operands[m].copy = end;
      end = round_up(end + operands[m].bytes);
    }
  return end;
}

}  // namespace

Staging::Staging(const CoreContext &c, StagedOperand *operands, size_t count)
    : held_(c), operands_(operands), count_(count) {
  group_overlapping(operands, count);
  size_t end = 0;
  for (size_t i = 0; i < count; ++i)
    if (operands[i].group == i && operands[i].bytes != 0)
      end = lay_out_group(operands, count, i, end);
  copies_ = new std::byte[end];  // new's alignment is at least kCopyAlign
  // Each operand's bytes to its place; a block's members cover it whole.
  for (size_t i = 0; i < count; ++i) {
    StagedOperand &o = operands[i];
    if (o.bytes == 0) {
      o.copy = o.at;  // nothing to copy: handed on as it is (a missing source stays null)
      continue;
    }
    o.copy += reinterpret_cast<uintptr_t>(copies_);
    std::memcpy(reinterpret_cast<std::byte *>(o.copy), reinterpret_cast<const std::byte *>(o.at),
                o.bytes);
  }
}

Staging::~Staging() { delete[] copies_; }

void Staging::write_back() const {
  for (size_t i = 0; i < count_; ++i) {
    const StagedOperand &o = operands_[i];
    if (o.written && o.bytes != 0)
      std::memcpy(reinterpret_cast<std::byte *>(o.at), reinterpret_cast<const std::byte *>(o.copy),
                  o.bytes);
  }
}

}  // namespace mlusim::detail
