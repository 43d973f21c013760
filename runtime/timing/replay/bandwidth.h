// Bandwidth shared in time: the transfers whose bytes move at one moment
// share the device's bandwidth equally, no cluster above its cap, and each
// moves at its share until the set changes. A transfer is a GDRAM request's
// bytes, past its latency (what they cost in bandwidth is costs.h's), or an
// on-chip copy's to or from SRAM at its cluster's SRAM port.
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay.h"
#include "runtime/timing/replay/core.h"

namespace mlusim::timing {
namespace {

// A GDRAM transfer moving its bytes at its share of the bandwidth.
struct Transfer {
  int core;
  Pipe pipe;
  uint64_t seq;
  int cluster;
  double remaining;  // bytes
  double rate = 0;   // bytes per cycle
  double done = 0;   // when its last byte moves at this rate
};

struct Pending {  // a transfer whose bytes begin to move at `time`
  double time;
  Transfer transfer;
  bool operator>(const Pending &o) const { return time > o.time; }
};

// The replay's transfers of one kind, those moving and those still to begin.
// The times are the replay's clock's: the caller says what `now` is.
class Bandwidth {
 public:
  Bandwidth(double device_bytes_per_cycle, double cluster_bytes_per_cycle, int clusters)
      : device_bytes_per_cycle_(device_bytes_per_cycle),
        cluster_bytes_per_cycle_(cluster_bytes_per_cycle),
        per_cluster_(static_cast<size_t>(clusters), 0),
        capped_(static_cast<size_t>(clusters), 0),
        cluster_rate_(static_cast<size_t>(clusters), 0),
        moving_at_(static_cast<size_t>(clusters), 0) {}

  // Transfer t's bytes begin to move at `from`: now, or later (pending).
  void begin(const Transfer &t, double from, double now) {
    if (from <= now) {
      start_moving(t);
    } else {
      begins_.push(Pending{from, t});
    }
  }

  // When the next pending transfer begins to move.
  double next_begin() const { return begins_.empty() ? kNever : begins_.top().time; }

  // The earliest end of the moving transfers, at shares up to date.
  double next_done(double now) {
    if (shares_stale_) share_bandwidth(now);
    return next_done_;
  }

  // The clock moves from `from` to `to`: the moving transfers' bytes move at
  // their rates, and the pending ones due by then begin.
  void elapse(double from, double to) {
    if (to > from)  // most rounds run a core at the time reached
      for (Transfer &x : active_) x.remaining -= x.rate * (to - from);
    while (!begins_.empty() && begins_.top().time <= to) {
      start_moving(begins_.top().transfer);
      begins_.pop();
    }
  }

  // Whether a transfer moves its last byte by `now` (most rounds: none).
  bool any_done(double now) { return next_done(now) <= now; }

  // Takes the transfers that moved their last byte by `now` out of the moving
  // set. The shares change: they are worked out at the next read, which comes
  // after the caller has begun whatever these transfers' ends let begin now.
  const std::vector<Transfer> &take_done(double now) {
    finished_.clear();
    for (size_t i = 0; i < active_.size();) {
      if (active_[i].done > now) {
        ++i;
        continue;
      }
      finished_.push_back(active_[i]);
      stop_moving(i);
    }
    if (!finished_.empty()) shares_changed();
    return finished_;
  }

 private:
  // The set of moving transfers changed: their shares are worked out when
  // next read, once for every change at one moment (several requests often
  // begin or end together). share_bandwidth() depends only on the set and
  // the time, which moves only after a read: the same shares as working
  // them out at every change.
  void shares_changed() { shares_stale_ = true; }

  // A transfer's bytes begin to move now: the shares change.
  void start_moving(const Transfer &t) {
    active_.push_back(t);
    const int c = t.cluster;
    if (per_cluster_[c]++ == 0) {
      moving_at_[c] = moving_.size();
      moving_.push_back(c);
    }
    shares_changed();
  }

  // Transfer i of active_ moved its last byte (the caller says the shares changed).
  void stop_moving(size_t i) {
    const int c = active_[i].cluster;
    active_[i] = active_.back();
    active_.pop_back();
    if (--per_cluster_[c] > 0) return;
    const int last = moving_.back();
    moving_[moving_at_[c]] = last;
    moving_at_[last] = moving_at_[c];
    moving_.pop_back();
  }

  // Equal shares of the device's bandwidth, no cluster above its cap: the
  // capped clusters' transfers split the cap, the others what is left. Which
  // clusters move data, and how many transfers each, is kept as transfers
  // begin and end: only those clusters are looked at, and each once, however
  // many transfers it has.
  void share_bandwidth(double now) {
    shares_stale_ = false;
    double left = device_bytes_per_cycle_;
    size_t sharing = active_.size();
    cap_clusters(left, sharing);
    const double share = sharing > 0 ? left / static_cast<double>(sharing) : 0;
    for (const int c : moving_) {
      cluster_rate_[c] = capped_[c] ? cluster_bytes_per_cycle_ / per_cluster_[c] : share;
      capped_[c] = 0;
    }
    next_done_ = kNever;
    for (Transfer &x : active_) {
      x.rate = cluster_rate_[x.cluster];
      x.done = now + x.remaining / x.rate;
      next_done_ = std::min(next_done_, x.done);
    }
  }

  // Caps every cluster whose transfers would draw more than its cap at an
  // equal share of what is left (`left` bytes per cycle for `sharing`
  // transfers), until none does; each cap leaves the rest less to share. In
  // what order the clusters are looked at does not matter, as each round
  // caps every cluster above the round's share (and every cap takes the same
  // amount from what is left).
  void cap_clusters(double &left, size_t &sharing) {
    const double cap = cluster_bytes_per_cycle_;
    for (bool changed = true; changed && sharing > 0;) {
      changed = false;
      const double share = left / static_cast<double>(sharing);
      for (const int c : moving_) {
        if (capped_[c] || share * per_cluster_[c] <= cap) continue;
        capped_[c] = 1;
        left -= cap;
        sharing -= static_cast<size_t>(per_cluster_[c]);
        changed = true;
      }
    }
  }

  const double device_bytes_per_cycle_;   // the whole device's
  const double cluster_bytes_per_cycle_;  // the most one cluster draws
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> begins_;
  std::vector<Transfer> active_;
  std::vector<Transfer> finished_;  // the transfers take_done() takes now
  double next_done_ = kNever;  // the earliest `done` of the active transfers
  bool shares_stale_ = false;  // next_done_, rates and dones await share_bandwidth()
  std::vector<int> per_cluster_;  // the active transfers of each cluster
  std::vector<uint8_t> capped_;  // set by cap_clusters(), zero between share_bandwidth()s (not vector<bool>)
  std::vector<double> cluster_rate_;  // share_bandwidth()'s rate per transfer of each cluster
  std::vector<int> moving_;           // the clusters with an active transfer, in no order
  std::vector<size_t> moving_at_;     // per cluster in moving_, its place there
};

}  // namespace
}  // namespace mlusim::timing
