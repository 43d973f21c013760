// __bang_transpose's data movement (include/mlusim/bang/vector.h): only the
// element's size matters, so it lives here once instead of in every kernel.
//
// The matrix goes in 16 x 16 tiles, so that each destination row of a tile
// gets a whole 64-byte line at once: a tall matrix puts its destination rows
// 4 KiB apart, where sixteen of them would evict each other from the cache
// if each were written a few bytes at a time. 4- and 2-byte elements are
// turned in registers (AVX, SSE2) 8 x 8 at a time; other sizes go through a
// block on the stack.
// The edges past the last whole tile go one element at a time.
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "mlusim/bang/vector.h"

namespace mlusim::detail {
namespace {

constexpr size_t kTile = 16;

// An integer standing for any element of its size (may_alias: the elements
// are floats, halves and integers of the kernel's types).
template <size_t Bytes> struct Word;
template <> struct Word<1> { using type [[gnu::may_alias]] = uint8_t; };
template <> struct Word<2> { using type [[gnu::may_alias]] = uint16_t; };
template <> struct Word<4> { using type [[gnu::may_alias]] = uint32_t; };
template <> struct Word<8> { using type [[gnu::may_alias]] = uint64_t; };

template <typename T>
void tile_through_stack(T *__restrict dst, const T *__restrict src, size_t rows, size_t cols,
                        size_t i0, size_t j0) {
  T tile[kTile][kTile];
  for (size_t i = 0; i < kTile; ++i)
    for (size_t j = 0; j < kTile; ++j) tile[j][i] = src[(i0 + i) * cols + j0 + j];
  for (size_t j = 0; j < kTile; ++j)
    std::memcpy(&dst[(j0 + j) * rows + i0], tile[j], sizeof(tile[j]));
}

#if defined(__AVX__)
// The 8 x 8 block of floats at src (rows `cols` apart) transposed into dst
// (rows `rows` apart).
void block8_in_registers(float *dst, const float *src, size_t rows, size_t cols) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * cols);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4)
    for (int k = 0; k < 2; ++k) {
      r[i + k] = _mm256_shuffle_ps(t[i + k], t[i + k + 2], _MM_SHUFFLE(1, 0, 1, 0));
      r[i + k + 2] = _mm256_shuffle_ps(t[i + k], t[i + k + 2], _MM_SHUFFLE(3, 2, 3, 2));
    }
  // r[i] holds rows 0-3 of two columns, column c in its low lane and c + 4
  // in its high one, and r[i + 4] rows 4-7 of the same two; c is 0, 2, 1, 3
  // for i = 0, 1, 2, 3.
  static constexpr int kColumnOf[8] = {0, 2, 1, 3, 4, 6, 5, 7};
  for (int i = 0; i < 4; ++i) {
    const __m256 low = r[i], high = r[i + 4];
    _mm256_storeu_ps(dst + kColumnOf[i] * rows, _mm256_permute2f128_ps(low, high, 0x20));
    _mm256_storeu_ps(dst + kColumnOf[i + 4] * rows, _mm256_permute2f128_ps(low, high, 0x31));
  }
}
#endif

#if defined(__SSE2__)
// The same for 16-bit elements: pairs, then quads, then halves of registers
// interleaved.
void block8_in_registers(uint16_t *dst, const uint16_t *src, size_t rows, size_t cols) {
  __m128i r[8], t[8];
  for (int i = 0; i < 8; ++i)
    r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i * cols));
  for (int i = 0; i < 8; i += 2) {
    t[i / 2] = _mm_unpacklo_epi16(r[i], r[i + 1]);      // columns 0-3 of rows i, i + 1
    t[i / 2 + 4] = _mm_unpackhi_epi16(r[i], r[i + 1]);  // columns 4-7
  }
  for (int h = 0; h < 8; h += 4)
    for (int i = 0; i < 4; i += 2) {
      r[h + i] = _mm_unpacklo_epi32(t[h + i], t[h + i + 1]);      // 2 columns of 4 rows
      r[h + i + 1] = _mm_unpackhi_epi32(t[h + i], t[h + i + 1]);  // the next 2
    }
  // r[h + q] holds columns h + 2(q % 2) and the next, of rows 0-3 (q < 2) or 4-7.
  for (int h = 0; h < 8; h += 4)
    for (int q = 0; q < 2; ++q) {
      const int column = h + 2 * q;
      const __m128i top = r[h + q], bottom = r[h + q + 2];
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + column * rows),
                       _mm_unpacklo_epi64(top, bottom));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + (column + 1) * rows),
                       _mm_unpackhi_epi64(top, bottom));
    }
}

template <typename T>
constexpr bool kTurnsInRegisters = sizeof(T) == 2
#if defined(__AVX__)
                                   || sizeof(T) == 4
#endif
    ;

template <typename T>
void tile_in_registers(T *__restrict dst, const T *__restrict src, size_t rows, size_t cols,
                       size_t i0, size_t j0) {
  using Lane = std::conditional_t<sizeof(T) == 4, float, uint16_t>;
  const auto *s = reinterpret_cast<const Lane *>(src);
  auto *d = reinterpret_cast<Lane *>(dst);
  for (size_t j = j0; j < j0 + kTile; j += 8)
    for (size_t i = i0; i < i0 + kTile; i += 8)
      block8_in_registers(d + j * rows + i, s + i * cols + j, rows, cols);
}
#endif

template <typename T>
void turn_tile(T *__restrict dst, const T *__restrict src, size_t rows, size_t cols, size_t i0,
               size_t j0) {
#if defined(__SSE2__)
  if constexpr (kTurnsInRegisters<T>) return tile_in_registers(dst, src, rows, cols, i0, j0);
#endif
  tile_through_stack(dst, src, rows, cols, i0, j0);
}

// The tiles go along the longer side: a tall matrix column band by column
// band, so that a band's destination rows fill in sequence. Row band by row
// band, every destination row of a tall matrix would take a few bytes per
// band, rows*sizeof(T) apart: a 1024 x 64 matrix of halves turned that way
// ran 9 times slower, its destination lines evicting each other.
template <typename T>
void transpose_words(T *__restrict dst, const T *__restrict src, size_t rows, size_t cols) {
  const size_t full_rows = rows - rows % kTile, full_cols = cols - cols % kTile;
  if (rows > cols) {
    for (size_t j0 = 0; j0 < full_cols; j0 += kTile)
      for (size_t i0 = 0; i0 < full_rows; i0 += kTile) turn_tile(dst, src, rows, cols, i0, j0);
  } else {
    for (size_t i0 = 0; i0 < full_rows; i0 += kTile)
      for (size_t j0 = 0; j0 < full_cols; j0 += kTile) turn_tile(dst, src, rows, cols, i0, j0);
  }
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = i < full_rows ? full_cols : 0; j < cols; ++j)
      dst[j * rows + i] = src[i * cols + j];
}

template <size_t Bytes>
void transpose_as(void *dst, const void *src, size_t rows, size_t cols) {
  using T = typename Word<Bytes>::type;
  transpose_words(static_cast<T *>(dst), static_cast<const T *>(src), rows, cols);
}

}  // namespace

void transpose(void *dst, const void *src, size_t rows, size_t cols, size_t element_bytes) {
  switch (element_bytes) {
    case 1: return transpose_as<1>(dst, src, rows, cols);
    case 2: return transpose_as<2>(dst, src, rows, cols);
    case 4: return transpose_as<4>(dst, src, rows, cols);
    default: return transpose_as<8>(dst, src, rows, cols);
  }
}

}  // namespace mlusim::detail
