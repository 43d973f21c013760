// Kernel-side data movement and synchronisation, as BANG C spells them:
// __memcpy (plain and strided), __memcpy_async, __sync*, atomics on GDRAM.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "mlusim/bang/detail/atomic_lock.h"
#include "mlusim/bang/detail/half_blocks.h"
#include "mlusim/bang/detail/issue.h"

typedef enum {
  GDRAM2NRAM = MLUSIM_GDRAM2NRAM,
  NRAM2GDRAM = MLUSIM_NRAM2GDRAM,
  NRAM2NRAM = MLUSIM_NRAM2NRAM,
  GDRAM2GDRAM = MLUSIM_GDRAM2GDRAM,
  GDRAM2SRAM = MLUSIM_GDRAM2SRAM,
  SRAM2GDRAM = MLUSIM_SRAM2GDRAM,
  SRAM2NRAM = MLUSIM_SRAM2NRAM,
  NRAM2SRAM = MLUSIM_NRAM2SRAM,
  SRAM2SRAM = MLUSIM_SRAM2SRAM,
  NRAM2WRAM = MLUSIM_NRAM2WRAM,
  WRAM2NRAM = MLUSIM_WRAM2NRAM,
  GDRAM2WRAM = MLUSIM_GDRAM2WRAM,
  SRAM2WRAM = MLUSIM_SRAM2WRAM,
} mluMemcpyDirection_t;

namespace mlusim::detail {

struct DirectionInfo {
  Space dst, src;
  Pipe pipe;  // IO-DMA when GDRAM is on either side, Move-DMA otherwise
};
inline DirectionInfo direction_info(mluMemcpyDirection_t dir) {
  using S = Space;
  switch (dir) {
    case GDRAM2NRAM: return {S::kNram, S::kGdram, kIoPipe};
    case NRAM2GDRAM: return {S::kGdram, S::kNram, kIoPipe};
    case NRAM2NRAM: return {S::kNram, S::kNram, kMovePipe};
    case GDRAM2GDRAM: return {S::kGdram, S::kGdram, kIoPipe};
    case GDRAM2SRAM: return {S::kSram, S::kGdram, kIoPipe};
    case SRAM2GDRAM: return {S::kGdram, S::kSram, kIoPipe};
    case SRAM2NRAM: return {S::kNram, S::kSram, kMovePipe};
    case NRAM2SRAM: return {S::kSram, S::kNram, kMovePipe};
    case SRAM2SRAM: return {S::kSram, S::kSram, kMovePipe};
    case NRAM2WRAM: return {S::kWram, S::kNram, kMovePipe};
    case WRAM2NRAM: return {S::kNram, S::kWram, kMovePipe};
    case GDRAM2WRAM: return {S::kWram, S::kGdram, kIoPipe};
    case SRAM2WRAM: return {S::kWram, S::kSram, kMovePipe};
  }
  fault(this_core(), "__memcpy: unknown direction " + std::to_string(static_cast<int>(dir)));
}

// The GDRAM blocks a transfer reads and writes (counted into the launch
// report's traffic): a partly written block is read first, then written.
inline GdramBlocks gdram_blocks(CoreContext &c, const BlockSpan &read, const BlockSpan &written) {
  const GdramBlocks b{static_cast<uint32_t>(read.touched), static_cast<uint32_t>(written.touched),
                      static_cast<uint32_t>(written.partial)};
  c.gdram_traffic += 64.0 * (b.read + b.written + b.partial);
  return b;
}

// segnum + 1 segments of `size` bytes, each `stride` bytes apart (BANG's rule).
void copy(const char *op, void *dst, const void *src, int size, mluMemcpyDirection_t dir,
          int dst_stride, int src_stride, int segnum, bool async);

}  // namespace mlusim::detail

inline void __memcpy(void *dst, const void *src, int size, mluMemcpyDirection_t dir) {
  mlusim::detail::copy("__memcpy", dst, src, size, dir, size, size, 0, false);
}
inline void __memcpy(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                     int dst_stride, int src_stride, int segnum) {
  mlusim::detail::copy("__memcpy", dst, src, size, dir, dst_stride, src_stride, segnum, false);
}
inline void __memcpy_async(void *dst, const void *src, int size, mluMemcpyDirection_t dir) {
  mlusim::detail::copy("__memcpy_async", dst, src, size, dir, size, size, 0, true);
}
inline void __memcpy_async(void *dst, const void *src, int size, mluMemcpyDirection_t dir,
                           int dst_stride, int src_stride, int segnum) {
  mlusim::detail::copy("__memcpy_async", dst, src, size, dir, dst_stride, src_stride, segnum,
                       true);
}

namespace mlusim::detail {
// A scalar load (write false) or store of `bytes` at p in `space` (a store's
// bytes at `stored`): bounds (any start: an element off its alignment is
// moved and noted once per launch), then what any scalar access of kernel
// code is (detail/scalar_code.h): charged by the space it lies in,
// checked against unfenced async copies, logged for the race check in GDRAM
// and shared SRAM.
void scalar_transfer(const char *op, Space space, const void *p, size_t bytes, bool write,
                     const void *stored = nullptr);

// The element at p, wherever it starts (memcpy: the host may not load a
// misaligned T; at an aligned p it is one load).
template <typename T>
T element_at(const T *p) {
  std::remove_cv_t<T> value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
}  // namespace mlusim::detail

// Scalar loads and stores naming the space the pointer lies in.
template <typename T>
T __load_nram(const T *p) {
  mlusim::detail::scalar_transfer("__load_nram", mlusim::Space::kNram, p, sizeof(T), false);
  return mlusim::detail::element_at(p);
}
template <typename T>
T __load_sram(const T *p) {
  mlusim::detail::scalar_transfer("__load_sram", mlusim::Space::kSram, p, sizeof(T), false);
  return mlusim::detail::element_at(p);
}
template <typename T>
T __load_gdram(const T *p) {
  mlusim::detail::scalar_transfer("__load_gdram", mlusim::Space::kGdram, p, sizeof(T), false);
  return mlusim::detail::element_at(p);
}
template <typename T>
void __store_sram(T *p, std::type_identity_t<T> value) {
  mlusim::detail::scalar_transfer("__store_sram", mlusim::Space::kSram, p, sizeof(T), true,
                                  &value);
  std::memcpy(p, &value, sizeof(T));
}
template <typename T>
void __store_gdram(T *p, std::type_identity_t<T> value) {
  mlusim::detail::scalar_transfer("__store_gdram", mlusim::Space::kGdram, p, sizeof(T), true,
                                  &value);
  std::memcpy(p, &value, sizeof(T));
}

// Fences (guide 3.3.5.1): the instruction stream waits until the named pipes
// drain, and the async copies queued on them land (their data becomes visible
// here, in issue order per queue). A task's end fences everything.
void __sync();                 // every pipe
void __sync_io();              // IO-DMA
void __sync_move();            // Move-DMA
void __sync_compute();         // vector and tensor
void __sync_io_move_compute(); // every pipe, as __sync()
// MLU500's form with six flags, each asking one pipe to wait for another
// (mlu-ops r1.11's ms_deform_attn). Cambricon documents neither the flags'
// order nor their pairs: any flag set fences every pipe, which waits for at
// least what was asked (a program's data are right; its time may come out
// longer than the board's); none set does nothing.
void __sync_io_move_compute(bool, bool, bool, bool, bool, bool);
// Barriers (guide 3.3.5.2); each fences the calling core first.
void __sync_cluster();  // the 4 cores and the memory core of this physical cluster
void __sync_all();      // every core and memory core of this UnionN task's N clusters
void __sync_all_ipu();  // the compute cores (not the memory cores) of this UnionN task
void __sync_all_ipu_within_cluster();  // the compute cores of this physical cluster

// UNION launches run one memory core (MPU) per cluster beside its compute
// cores (IPUs); it has no NRAM/WRAM and moves data between GDRAM and SRAM.
inline bool __is_mpu() { return mlusim::this_core().is_mpu; }
inline bool __is_ipu() { return !mlusim::this_core().is_mpu; }

// Which memory a pointer points into, as the calling core sees it: kernels
// pick a scalar load's space with these (mlu-ops' nms_rotated: __is_dram).
namespace mlusim::detail {
inline bool points_into(Space space, const void *p) {
  const CoreContext &c = this_core();
  const std::byte *base = onchip_base(c, space);
  const size_t capacity = space == Space::kNram   ? c.nram_capacity
                          : space == Space::kSram ? c.sram_capacity
                                                  : c.wram_capacity;
  return base != nullptr &&
         reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base) < capacity;
}
}  // namespace mlusim::detail
inline bool __is_nram(const void *p) { return mlusim::detail::points_into(mlusim::Space::kNram, p); }
inline bool __is_sram(const void *p) { return mlusim::detail::points_into(mlusim::Space::kSram, p); }
inline bool __is_wram(const void *p) { return mlusim::detail::points_into(mlusim::Space::kWram, p); }
// Off chip: GDRAM (or LDRAM).
inline bool __is_dram(const void *p) { return !__is_nram(p) && !__is_sram(p) && !__is_wram(p); }

namespace mlusim::detail {
// Checks and charges an atomic on `bytes` of GDRAM at gdram_dst that reads as
// many bytes of NRAM at nram_src (a null source is an operand outside NRAM).
// False when it does not run: on a memory core, which has no NRAM
// (runtime/memory_core.h).
[[nodiscard]] bool account_atomic(const char *op, const void *gdram_dst, const void *nram_src,
                                  size_t bytes, size_t elements);
// The same for the forms whose operand is a scalar value: no NRAM is read.
void account_scalar_atomic(const char *op, const void *gdram_dst, size_t bytes, size_t elements);

// Adds value to *dst and returns what *dst held before (the caller holds
// the AtomicLock of *dst). Integers wrap, as the board's adder does.
template <typename T>
T add_element(T *dst, T value) {
  const T old = *dst;
  if constexpr (std::is_integral_v<T>)
    *dst = static_cast<T>(static_cast<std::make_unsigned_t<T>>(old) +
                          static_cast<std::make_unsigned_t<T>>(value));
  else
    *dst = static_cast<T>(old + value);
  return old;
}

template <typename T>
constexpr bool is_atomic_dtype =
    std::is_same_v<T, float> || std::is_same_v<T, _Float16> || std::is_same_v<T, int32_t>;

// gdram_dst[i] = better(nram_src[i], gdram_dst[i]) ? nram_src[i] : gdram_dst[i],
// each element atomically.
template <typename T, typename Better>
void atomic_reduce_extreme(const char *op, T *gdram_dst, const T *nram_src, int count,
                           Better better) {
  static_assert(is_atomic_dtype<T>, "__bang_atomic_reduce_max/min: float, half and int32");
  const size_t bytes = sizeof(T) * static_cast<size_t>(count);
  if (!account_atomic(op, gdram_dst, nram_src, bytes, count)) return;
  const AtomicLock lock(gdram_dst, bytes);
  for (int i = 0; i < count; ++i)
    if (better(nram_src[i], gdram_dst[i])) gdram_dst[i] = nram_src[i];
}
}  // namespace mlusim::detail

namespace mlusim::detail {
// -0.0, the one value adding +0.0 changes (to +0.0); no integer is.
template <typename T>
bool is_negative_zero(T x) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    Bits<T> b;
    std::memcpy(&b, &x, sizeof(T));
    return b == Bits<T>(Bits<T>(1) << (8 * sizeof(T) - 1));
  }
}

// Adding +0 changes nothing but a -0.0: skipping it leaves every other
// value's bits as they were and stores nothing for the masked lanes that make
// up most of border_align_backward's adds.
template <typename T>
bool adds_nothing(T now, T value) {
  Bits<T> v;
  std::memcpy(&v, &value, sizeof(T));
  return v == 0 && !is_negative_zero(now);
}

// The adds go sixteen bytes at a time.
template <typename T>
constexpr int kAddLanes = 16 / static_cast<int>(sizeof(T));

// d[j] += v[j] for the kAddLanes elements of a block (the caller holds their
// AtomicLock). Halves in float, rounded once, as add_element does.
template <typename T>
void add_block(T *d, const T *v) {
  if constexpr (std::is_same_v<T, _Float16>) {
    float sum[kAddLanes<T>], add[kAddLanes<T>];
    half_to_float(sum, d, kAddLanes<T>);
    half_to_float(add, v, kAddLanes<T>);
    for (int j = 0; j < kAddLanes<T>; ++j) sum[j] += add[j];
    float_to_half(d, sum, kAddLanes<T>);
  } else {
    for (int j = 0; j < kAddLanes<T>; ++j) add_element(d + j, v[j]);
  }
}

// Whether every add of a block changes nothing: its values all +0 (all bits
// clear) and, for floating types, no -0 where they go.
template <typename T>
bool block_adds_nothing(const T *d, const T *v) {
  uint64_t value_bits[2];
  std::memcpy(value_bits, v, 16);
  if ((value_bits[0] | value_bits[1]) != 0) return false;
  bool none = true;
  for (int j = 0; j < kAddLanes<T>; ++j) none &= !is_negative_zero(d[j]);
  return none;
}

// gdram_dst[i] += src[i] for i < count, as one atomic (checked and charged by
// the caller). A block whose adds all change nothing is skipped.
template <typename T>
void atomic_add_array(T *gdram_dst, const T *src, int count) {
  const AtomicLock lock(gdram_dst, sizeof(T) * static_cast<size_t>(count));
  constexpr int kLanes = kAddLanes<T>;
  int i = 0;
  for (; i + kLanes <= count; i += kLanes)
    if (!block_adds_nothing(gdram_dst + i, src + i)) add_block(gdram_dst + i, src + i);
  for (; i < count; ++i)
    if (!adds_nothing(gdram_dst[i], src[i])) add_element(gdram_dst + i, src[i]);
}

// gdram_dst[i] += value for i < count, as one atomic.
template <typename T>
void atomic_add_value(T *gdram_dst, T value, int count) {
  const AtomicLock lock(gdram_dst, sizeof(T) * static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    if (!adds_nothing(gdram_dst[i], value)) add_element(gdram_dst + i, value);
}
}  // namespace mlusim::detail

// Adds `count` elements from NRAM into GDRAM atomically (element-wise).
template <typename T>
void __bang_atomic_reduce_add(T *gdram_dst, const T *nram_src, int count) {
  if (!mlusim::detail::account_atomic("__bang_atomic_reduce_add", gdram_dst, nram_src,
                                      sizeof(T) * static_cast<size_t>(count), count))
    return;
  mlusim::detail::atomic_add_array(gdram_dst, nram_src, count);
}
// The 3-D form (mlu-ops r1.11's ms_deform_attn backward adds a gradient to the
// four corners of a bilinear cell so): (segnum1 + 1) x (segnum2 + 1) segments
// of `count` elements, the i-th, j-th at i * stride1 + j * stride2 bytes from
// dst and from src; each segment is one atomic add.
template <typename T>
void __bang_atomic_reduce_add(T *gdram_dst, const T *nram_src, int count, int segnum1,
                              int segnum2, int dst_stride1, int dst_stride2, int src_stride1,
                              int src_stride2) {
  for (int j = 0; j <= segnum2; ++j)
    for (int i = 0; i <= segnum1; ++i) {
      const ptrdiff_t to = ptrdiff_t{i} * dst_stride1 + ptrdiff_t{j} * dst_stride2;
      const ptrdiff_t from = ptrdiff_t{i} * src_stride1 + ptrdiff_t{j} * src_stride2;
      __bang_atomic_reduce_add(reinterpret_cast<T *>(reinterpret_cast<char *>(gdram_dst) + to),
                               reinterpret_cast<const T *>(
                                   reinterpret_cast<const char *>(nram_src) + from),
                               count);
    }
}
// The form with a scalar source (mlu-ops' psroipool backward): adds `value`
// to each of `count` GDRAM elements atomically.
template <typename T>
void __bang_atomic_reduce_add(T *gdram_dst, std::type_identity_t<T> value, int count) {
  mlusim::detail::account_scalar_atomic("__bang_atomic_reduce_add", gdram_dst,
                                        sizeof(T) * static_cast<size_t>(count), count);
  mlusim::detail::atomic_add_value(gdram_dst, value, count);
}
// The spelling of the design documents' pseudo-code.
template <typename T>
void __bang_atomic_add_reduce(T *gdram_dst, const T *nram_src, int count) {
  __bang_atomic_reduce_add(gdram_dst, nram_src, count);
}

// Element-wise atomic maximum / minimum of `count` NRAM elements into GDRAM.
// A NaN element of nram_src never wins, and a NaN already in GDRAM stays
// (every comparison with a NaN is false).
template <typename T>
void __bang_atomic_reduce_max(T *gdram_dst, const T *nram_src, int count) {
  mlusim::detail::atomic_reduce_extreme("__bang_atomic_reduce_max", gdram_dst, nram_src, count,
                                        [](T v, T old) { return v > old; });
}
template <typename T>
void __bang_atomic_reduce_min(T *gdram_dst, const T *nram_src, int count) {
  mlusim::detail::atomic_reduce_extreme("__bang_atomic_reduce_min", gdram_dst, nram_src, count,
                                        [](T v, T old) { return v < old; });
}

// Scalar atomic add on GDRAM; returns the value before the add.
template <typename T>
T __bang_atomic_add(T *gdram_dst, T value) {
  mlusim::detail::account_scalar_atomic("__bang_atomic_add", gdram_dst, sizeof(T), 1);
  mlusim::await_result(mlusim::this_core(), mlusim::kIoPipe, "__bang_atomic_add");
  const mlusim::detail::AtomicLock lock(gdram_dst, sizeof(T));
  return mlusim::detail::add_element(gdram_dst, value);
}
