// The SyncBatchNorm kernels as the host launches them, and the tiling both
// sides agree on. Every data tensor is channel-last, seen as [rows, channels];
// a task works on tiles of `rb` rows by `cb` channels, kept in NRAM `cp`
// elements apart (cb rounded up to 64, so that float and half tiles are whole
// vector granules). Per-channel tensors are float [channels].
#pragma once

#include <cstdint>

#include "cnnl/plan.h"
#include "cnrt.h"

namespace cnnlsim::bn {

constexpr int kPitchAlign = 64;  // elements: a half row of 64 is one 128-byte granule

struct Tiling {
  int64_t rows = 0, channels = 0;
  int64_t cb = 0, cp = 0, rb = 0;  // channels per block, their NRAM pitch, rows per tile
  bool half = false;                // the data tensors are half (else float)
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};  // a UNION1 launch

  int64_t channel_blocks() const { return ceil_div(channels, cb); }
  int64_t row_tiles() const { return ceil_div(rows, rb); }
};

// What one kernel keeps in NRAM: `vectors` float vectors of cp, `tiles` float
// tiles of rb x cp and, for half data, `staged` half tiles of rb x cp that
// loads and stores pass through.
struct NramUse {
  int vectors, tiles, staged;
  int64_t bytes(const Tiling &t) const {
    return (vectors * t.cp + tiles * t.rb * t.cp) * 4 + (t.half ? staged * t.rb * t.cp * 2 : 0);
  }
};
constexpr NramUse kStatsNram{4, 1, 1};
constexpr NramUse kGatherNram{7, 2, 0};
constexpr NramUse kElemtNram{4, 1, 1};
constexpr NramUse kBackwardReduceNram{4, 2, 1};
constexpr NramUse kBackwardElemtNram{5, 2, 1};

struct StatsArgs {
  Tiling t;
  const void *x;
  float eps;
  float *mean, *invstd;
};

// rows = devices; count_all float or half (count_half); moving tensors
// float or half (moving_half), both NULL when absent.
struct GatherArgs {
  Tiling t;
  const float *mean_all, *invstd_all;
  const void *count_all;
  bool count_half;
  void *moving_mean, *moving_var;
  bool moving_half;
  float momentum, eps;
  float *mean, *invstd;
};

struct ElemtArgs {
  Tiling t;
  const void *x;
  const float *mean, *invstd, *filter, *bias;  // filter and bias may be NULL
  void *y;
};

struct BackwardReduceArgs {
  Tiling t;
  const void *dz, *x;
  const float *mean, *invstd;
  float *dfilter, *dbias, *sum_dy, *sum_dy_xmu;  // NULL when not asked for
};

// v1: mean_dy, mean_dy_xmu given, count NULL. v2: the same pointers hold
// sum_dy and sum_dy_xmu, divided by the sum of count's count_len entries.
struct BackwardElemtArgs {
  Tiling t;
  const void *diff_y, *x;
  const float *mean, *invstd, *filter;  // filter may be NULL
  const float *mean_dy, *mean_dy_xmu;
  const int32_t *count;
  int64_t count_len;
  void *diff_x;
};

cnrtRet_t launch_stats(cnrtQueue_t queue, const StatsArgs &args);
cnrtRet_t launch_gather(cnrtQueue_t queue, const GatherArgs &args);
cnrtRet_t launch_elemt(cnrtQueue_t queue, const ElemtArgs &args);
cnrtRet_t launch_backward_reduce(cnrtQueue_t queue, const BackwardReduceArgs &args);
cnrtRet_t launch_backward_elemt(cnrtQueue_t queue, const BackwardElemtArgs &args);

}  // namespace cnnlsim::bn
