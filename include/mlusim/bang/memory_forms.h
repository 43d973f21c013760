// The less common __memcpy forms, built on the strided copy of memory.h:
//  - 3-D: segments of `size` bytes, (segnum1 + 1) of them `stride0` apart,
//    repeated (segnum2 + 1) times `stride1` apart; dst and src each have their
//    own strides, in Cambricon's argument order (dst's stride0, segnum1,
//    stride1, segnum2, then src's).
//  - to a cluster: a last argument names the cluster of the UnionN task whose
//    SRAM receives (SRAM2SRAM: Cambricon's bang_device_functions.h).
//  - __gather / __scatter (and _async, masked): elements at offsets an NRAM
//    vector holds, packed at a stride.
#pragma once

#include <string>

#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/memory.h"

namespace mlusim::detail {

// One strided copy per outer segment: each pays its own latency, which is
// what the device's DMA does for a 3-D descriptor at worst.
inline void copy_3d(const char *op, void *dst, const void *src, int size,
                    mluMemcpyDirection_t dir, int dst_stride0, int dst_segnum1, int dst_stride1,
                    int dst_segnum2, int src_stride0, int src_segnum1, int src_stride1,
                    int src_segnum2, bool async) {
  if (dst_segnum1 != src_segnum1 || dst_segnum2 != src_segnum2)
    fault(this_core(), std::string(op) + ": 3-D copy with dst segments (" +
                           std::to_string(dst_segnum1) + ", " + std::to_string(dst_segnum2) +
                           ") and src segments (" + std::to_string(src_segnum1) + ", " +
                           std::to_string(src_segnum2) +
                           ") of different counts is not simulated yet");
  // The outer strides may be negative (mlu-ops v1.5.2's ms_deform_attn_forward
  // steps back a row so, and passes on boards): each outer segment is checked
  // where it lands.
  if (dst_segnum2 < 0)
    fault(this_core(), std::string(op) + ": negative segnum2 " + std::to_string(dst_segnum2));
  auto *to = static_cast<std::byte *>(dst);
  auto *from = static_cast<const std::byte *>(src);
  for (int outer = 0; outer <= dst_segnum2; ++outer)
    copy(op, to + static_cast<ptrdiff_t>(outer) * dst_stride1,
         from + static_cast<ptrdiff_t>(outer) * src_stride1, size, dir, dst_stride0, src_stride0,
         dst_segnum1, async);
}

// A copy from this cluster's SRAM into the same place of cluster `cluster`'s
// SRAM (BANG C's id_dst_cluster: clusterId within the UnionN task; SRAM2SRAM
// only), as a strided copy.
void copy_to_cluster(const char *op, void *dst, const void *src, int size,
                     mluMemcpyDirection_t dir, int dst_stride, int src_stride, int segnum,
                     int cluster, bool async);

// A gather or a scatter: `count` transfers of `size` bytes between the
// packed side (base + i * stride: a gather's dst, a scatter's src) and the
// indexed side (base + offsets[i] bytes: a gather's src, a scatter's dst);
// offsets are `count` unsigned ints in NRAM. With a mask (count bits in NRAM,
// bit i the i % 8-th, least significant first, of byte i / 8) only the
// transfers whose bit is 1 move. One instruction on the direction's DMA
// pipe; async, each transfer lands as an async copy does.
struct IndexedCopy {
  void *dst;
  const void *src;
  const unsigned int *offsets;
  const void *mask;  // or null
  unsigned int size;
  mluMemcpyDirection_t dir;
  unsigned int stride, count;
  bool scatter, async;
};
void indexed_copy(const char *op, const IndexedCopy &x);

}  // namespace mlusim::detail

inline void __memcpy(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                     int dst_stride0, int dst_segnum1, int dst_stride1, int dst_segnum2,
                     int src_stride0, int src_segnum1, int src_stride1, int src_segnum2) {
  mlusim::detail::copy_3d("__memcpy", dst, src, size, dir, dst_stride0, dst_segnum1, dst_stride1,
                          dst_segnum2, src_stride0, src_segnum1, src_stride1, src_segnum2, false);
}
inline void __memcpy_async(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                           int dst_stride0, int dst_segnum1, int dst_stride1, int dst_segnum2,
                           int src_stride0, int src_segnum1, int src_stride1, int src_segnum2) {
  mlusim::detail::copy_3d("__memcpy_async", dst, src, size, dir, dst_stride0, dst_segnum1,
                          dst_stride1, dst_segnum2, src_stride0, src_segnum1, src_stride1,
                          src_segnum2, true);
}

inline void __memcpy(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                     int id_dst_cluster) {
  mlusim::detail::copy_to_cluster("__memcpy", dst, src, size, dir, size, size, 0, id_dst_cluster,
                                  false);
}
inline void __memcpy_async(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                           int id_dst_cluster) {
  mlusim::detail::copy_to_cluster("__memcpy_async", dst, src, size, dir, size, size, 0,
                                  id_dst_cluster, true);
}
inline void __memcpy(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                     int dst_stride, int src_stride, int segnum, int id_dst_cluster) {
  mlusim::detail::copy_to_cluster("__memcpy", dst, src, size, dir, dst_stride, src_stride, segnum,
                                  id_dst_cluster, false);
}

// Gathers and scatters (mlu-ops: generate_proposals_v2, roi_align_rotated,
// fft, and on MLU500 utils/scatter_gather.h's __mluop_gather/_scatter and
// ms_deform_attn): IndexedCopy above says what each moves. The masked forms
// take the mask after the offsets, as Cambricon's do.
inline void __gather(void *dst, const void *src, const unsigned int *offset,
                     unsigned int transfer_size, mluMemcpyDirection_t dir,
                     unsigned int dst_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__gather", {dst, src, offset, nullptr, transfer_size, dir,
                                            dst_stride, transfer_num, false, false});
}
inline void __gather(void *dst, const void *src, const unsigned int *offset, const void *mask,
                     unsigned int transfer_size, mluMemcpyDirection_t dir,
                     unsigned int dst_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__gather", {dst, src, offset, mask, transfer_size, dir,
                                            dst_stride, transfer_num, false, false});
}
inline void __gather_async(void *dst, const void *src, const unsigned int *offset,
                           unsigned int transfer_size, mluMemcpyDirection_t dir,
                           unsigned int dst_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__gather_async", {dst, src, offset, nullptr, transfer_size, dir,
                                                  dst_stride, transfer_num, false, true});
}
inline void __gather_async(void *dst, const void *src, const unsigned int *offset,
                           const void *mask, unsigned int transfer_size,
                           mluMemcpyDirection_t dir, unsigned int dst_stride,
                           unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__gather_async", {dst, src, offset, mask, transfer_size, dir,
                                                  dst_stride, transfer_num, false, true});
}
inline void __scatter(void *dst, const void *src, const unsigned int *offset,
                      unsigned int transfer_size, mluMemcpyDirection_t dir,
                      unsigned int src_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__scatter", {dst, src, offset, nullptr, transfer_size, dir,
                                             src_stride, transfer_num, true, false});
}
inline void __scatter(void *dst, const void *src, const unsigned int *offset, const void *mask,
                      unsigned int transfer_size, mluMemcpyDirection_t dir,
                      unsigned int src_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__scatter", {dst, src, offset, mask, transfer_size, dir,
                                             src_stride, transfer_num, true, false});
}
inline void __scatter_async(void *dst, const void *src, const unsigned int *offset,
                            unsigned int transfer_size, mluMemcpyDirection_t dir,
                            unsigned int src_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__scatter_async", {dst, src, offset, nullptr, transfer_size, dir,
                                                   src_stride, transfer_num, true, true});
}
inline void __scatter_async(void *dst, const void *src, const unsigned int *offset,
                            const void *mask, unsigned int transfer_size,
                            mluMemcpyDirection_t dir, unsigned int src_stride,
                            unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__scatter_async", {dst, src, offset, mask, transfer_size, dir,
                                                   src_stride, transfer_num, true, true});
}
// The masked async gather from GDRAM into NRAM of MLU500's
// ms_deform_attn kernels (no direction argument: GDRAM2NRAM).
inline void __bang_gather_async(void *dst, const void *src, const unsigned int *offset,
                                const void *mask, unsigned int transfer_size,
                                unsigned int dst_stride, unsigned int transfer_num) {
  mlusim::detail::indexed_copy("__bang_gather_async",
                               {dst, src, offset, mask, transfer_size, GDRAM2NRAM, dst_stride,
                                transfer_num, false, true});
}

// MLU500's __extension (mlu-ops r1.11's roi_align_rotated): each of the n
// elements of `size` bytes at src repeated counts[i] times, one run after
// another from dst (counts: n bytes in NRAM). Cambricon does not document
// it; mlu-ops builds a repeated index table with it. One copy per element
// (a source stride of 0 repeats it), each on the direction's pipe.
inline void __extension(void *dst, const void *src, const uint8_t *counts, unsigned int size,
                        mluMemcpyDirection_t dir, unsigned int n) {
  mlusim::CoreContext &c = mlusim::this_core();
  mlusim::require_onchip(c, "__extension", "counts", mlusim::Space::kNram, counts, n);
  mlusim::check_read(c, "__extension", counts, n);
  auto *to = static_cast<char *>(dst);
  const auto *from = static_cast<const char *>(src);
  for (unsigned int i = 0; i < n; ++i) {
    if (counts[i] == 0) continue;
    mlusim::detail::copy("__extension", to, from + size_t{i} * size, static_cast<int>(size), dir,
                         static_cast<int>(size), 0, counts[i] - 1, false);
    to += size_t{counts[i]} * size;
  }
}
