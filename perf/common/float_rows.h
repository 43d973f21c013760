// Rows of an operator's data type as float, for the plain OpenMP versions
// (perf/<op>/*_omp.h), which compute in float whatever they store. GCC 12
// turns a loop that converts _Float16 one value at a time into scalar
// conversions, each waiting on the register the one before wrote: a plain
// version over half data then ran 3-17x slower than over float, and the
// simulator looked faster than it is. These convert a row with the host's
// vector instructions (sixteen values to one AVX-512 instruction, eight with
// F16C; Eigen's cast, which does it with integer arithmetic, is 5x slower
// here).
#pragma once

#include <algorithm>
#include <cstddef>

#include <immintrin.h>

namespace mlusim::perf {

// `row` as n floats: float rows as they are, half rows converted into `room`.
inline const float *as_float(const float *row, float *, size_t) { return row; }

inline const float *as_float(const _Float16 *row, float *room, size_t n) {
  size_t i = 0;
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(room + i, _mm512_cvtph_ps(_mm256_loadu_si256(
                                   reinterpret_cast<const __m256i *>(row + i))));
#elif defined(__F16C__)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(room + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(row + i))));
#endif
  for (; i < n; ++i) room[i] = static_cast<float>(row[i]);
  return room;
}

// n floats stored as the operator's type (rounded to nearest even).
inline void store_as(const float *row, float *out, size_t n) {
  std::copy(row, row + n, out);
}

inline void store_as(const float *row, _Float16 *out, size_t n) {
  size_t i = 0;
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(row + i), _MM_FROUND_TO_NEAREST_INT));
#elif defined(__F16C__)
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(row + i), _MM_FROUND_TO_NEAREST_INT));
#endif
  for (; i < n; ++i) out[i] = static_cast<_Float16>(row[i]);
}

}  // namespace mlusim::perf
