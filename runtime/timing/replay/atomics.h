// Atomics are ordered on every 64-byte block they cover. An atomic's trip to
// GDRAM (its latency) runs beside every other's; there it takes each of its
// blocks for a read-modify-write of Prices::atomic_hold cycles, once the
// atomic before it at that block has released it, and its bytes move once it
// holds them all. The atomics at a block take it in the order they are
// issued, whichever cores issue them. (That the issue order is the same
// however the replay reaches the cores is the stream's concern:
// Model::others_first.)
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "runtime/timing/replay/core.h"

namespace mlusim::timing {
namespace {

// What the replay knows of a 64-byte block atomics cover: when the last to
// take it releases it, and the line of atomics queued at it (an index into
// AtomicOrder's lines, or kNoLine).
struct AtomicBlock {
  static constexpr uint32_t kNoLine = ~uint32_t{0};
  double free_at = 0;
  uint32_t line = kNoLine;
};

// The blocks atomics covered, a page of kPageBlocks neighbours at a time:
// every atomic looks up each block it covers (a launch's atomics cover many,
// most of them in runs), so a table in open addressing, of pages.
class AtomicBlocks {
 public:
  static constexpr uintptr_t kPageBlocks = 8;

  // The page of `block`: its first block's state and the next ones'.
  AtomicBlock *page_of(uintptr_t block) {
    const uintptr_t page = block / kPageBlocks;
    if (2 * (used_ + 1) > slots_.size()) grow();
    for (size_t i = slot_of(page);; i = (i + 1) & mask_) {
      Slot &s = slots_[i];
      if (s.page == page) return s.blocks;
      if (s.page == kEmpty) {
        s.page = page;
        ++used_;
        return s.blocks;
      }
    }
  }

 private:
  static constexpr uintptr_t kEmpty = ~uintptr_t{0};  // no page (addresses >> 9 never reach it)
  struct Slot {
    uintptr_t page = kEmpty;
    AtomicBlock blocks[kPageBlocks];
  };

  size_t slot_of(uintptr_t page) const {
    return static_cast<size_t>((page * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t size = old.empty() ? 256 : 2 * old.size();
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
    used_ = 0;
    for (const Slot &s : old) {
      if (s.page == kEmpty) continue;
      AtomicBlock *blocks = page_of(s.page * kPageBlocks);
      std::copy(std::begin(s.blocks), std::end(s.blocks), blocks);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0, used_ = 0;
  unsigned shift_ = 63;
};

class AtomicOrder {
 public:
  // Atomic n is issued: it comes after every atomic issued before it.
  void number(Node &n) { n.atomic_cell = next_cell_++; }

  // Atomic n, issued by `core`, could not take its blocks at its issue: it
  // queues at every block it covers, before the atomics issued after it.
  // (Most atomics take their blocks at once, and queue nowhere.)
  void queue(int core, Node &n) {
    n.queued = true;
    ++queued_;
    for_each_block(n, [&](AtomicBlock &b) {
      if (b.line == AtomicBlock::kNoLine) {  // a line, kept for the block's next atomics
        b.line = static_cast<uint32_t>(lines_.size());
        lines_.emplace_back();
      }
      lines_[b.line].atomics.push_back(InLine{n.atomic_cell, core});
    });
  }

  // Whether every atomic issued before n to the blocks it covers has taken
  // them.
  bool first_in_line(const Node &n) {
    if (queued_ == static_cast<size_t>(n.queued)) return true;  // none but n waits anywhere
    bool first = true;
    for_each_block(n, [&](const AtomicBlock &b) {
      if (b.line == AtomicBlock::kNoLine) return;
      const Line &line = lines_[b.line];
      first &= line.head == line.atomics.size() || line.atomics[line.head].cell == n.atomic_cell;
    });
    return first;
  }

  // n, first in line at its blocks, reaches them at `arrival`: it takes each
  // when the one before it released it, for `hold` cycles. Returns when it
  // holds them all; `woken(core)` for the core of each next atomic in line.
  template <class Woken>
  double take(const Node &n, double arrival, double hold, Woken &&woken) {
    double taken = arrival;
    for_each_block(n, [&](AtomicBlock &b) {
      const double at = std::max(arrival, b.free_at);
      b.free_at = at + hold;
      taken = std::max(taken, at);
      if (n.queued) leave_line(lines_[b.line], woken);
    });
    queued_ -= n.queued;
    return taken;
  }

 private:
  struct InLine {
    int64_t cell;
    int core;
  };
  struct Line {  // the atomics queued at a block, from head on not placed yet
    std::vector<InLine> atomics;
    size_t head = 0;
  };

  // The first in line took its block: the next, if any, may go. (An empty
  // line keeps its room for the block's next atomics.)
  template <class Woken>
  static void leave_line(Line &line, Woken &&woken) {
    if (++line.head == line.atomics.size()) {
      line.atomics.clear();
      line.head = 0;
      return;
    }
    woken(line.atomics[line.head].core);
    if (2 * line.head >= line.atomics.size()) {  // a block contended all launch long
      line.atomics.erase(line.atomics.begin(),
                         line.atomics.begin() + static_cast<std::ptrdiff_t>(line.head));
      line.head = 0;
    }
  }

  // Every 64-byte block of n's written range, in address order.
  template <class Visit>
  void for_each_block(const Node &n, Visit &&visit) {
    const Access &a = n.step->access;
    const uintptr_t last = a.w_hi > a.w_lo ? (a.w_hi - 1) >> 6 : a.w_lo >> 6;
    for (uintptr_t block = a.w_lo >> 6; block <= last;) {  // a lookup per page
      AtomicBlock *page = blocks_.page_of(block);
      const uintptr_t in_page = std::min(last, block | (AtomicBlocks::kPageBlocks - 1));
      for (; block <= in_page; ++block) visit(page[block % AtomicBlocks::kPageBlocks]);
    }
  }

  int64_t next_cell_ = 0;
  size_t queued_ = 0;  // atomics queued at their blocks, not placed yet
  AtomicBlocks blocks_;
  std::vector<Line> lines_;
};

}  // namespace
}  // namespace mlusim::timing
