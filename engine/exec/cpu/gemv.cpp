// The matrix-vector product in AVX-512, or in AVX2 where the machine has no AVX-512 (each compiled for its
// instructions alone, chosen at run time). Independent sums hide the FMA latency; the weights stream through once.
//   B transposed ([n, k]): four dot products of a with rows of B, reduced across lanes at the end.
//   B plain ([k, n]): 64 columns of out at a time, each row of B adding a[p] times its 64 values.
// The order of the sums depends on k and n only, never on where the operands lie in memory, so a model's runs
// repeat bit for bit (oneDNN's GEMM, which peels to the operands' alignment, gave MobileNetV2's classifier outputs
// that moved in the last bit from run to run on an AVX2 machine).
#include "exec/cpu/gemv.h"

#include <algorithm>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

#if defined(__x86_64__)
namespace {

constexpr int64_t kLanes = 16;

FS_AVX512 inline __mmask16 laneMask(int64_t remaining) {
  return remaining >= kLanes ? __mmask16(0xffff) : static_cast<__mmask16>((1u << std::max<int64_t>(remaining, 0)) - 1u);
}

// The sum of v's lanes. (GCC 12's _mm512_reduce_add_ps warns of an undefined operand of its own.)
FS_AVX512 inline float laneSum(__m512 v) {
  alignas(64) float lanes[kLanes];
  _mm512_store_ps(lanes, v);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}

// out[j0 .. j0+4) = a . B[j0 .. j0+4, :], B [n, k]; rows past n are not read.
FS_AVX512 void fourDots(const float* a, const float* b, int64_t k, int64_t j0, int64_t rows, float* out) {
  const float* r0 = b + j0 * k;
  const float* r1 = rows > 1 ? r0 + k : r0;
  const float* r2 = rows > 2 ? r0 + 2 * k : r0;
  const float* r3 = rows > 3 ? r0 + 3 * k : r0;
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (int64_t p = 0; p < k; p += kLanes) {
    const __mmask16 m = laneMask(k - p);
    const __m512 av = _mm512_maskz_loadu_ps(m, a + p);
    s0 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, r0 + p), s0);
    s1 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, r1 + p), s1);
    s2 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, r2 + p), s2);
    s3 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, r3 + p), s3);
  }
  const float sums[4] = {laneSum(s0), laneSum(s1), laneSum(s2), laneSum(s3)};
  std::copy(sums, sums + rows, out + j0);
}

// out[j0 .. j0+64) = sum_p a[p] * B[p, j0 .. j0+64), B [k, n]; columns past n are neither read nor written.
FS_AVX512 void sixtyFourColumns(const float* a, const float* b, int64_t k, int64_t n, int64_t j0, float* out) {
  const __mmask16 m0 = laneMask(n - j0), m1 = laneMask(n - j0 - 16), m2 = laneMask(n - j0 - 32),
                  m3 = laneMask(n - j0 - 48);
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (int64_t p = 0; p < k; ++p) {
    const __m512 av = _mm512_set1_ps(a[p]);
    const float* row = b + p * n + j0;
    s0 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m0, row), s0);
    s1 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m1, row + 16), s1);
    s2 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m2, row + 32), s2);
    s3 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m3, row + 48), s3);
  }
  _mm512_mask_storeu_ps(out + j0, m0, s0);
  _mm512_mask_storeu_ps(out + j0 + 16, m1, s1);
  _mm512_mask_storeu_ps(out + j0 + 32, m2, s2);
  _mm512_mask_storeu_ps(out + j0 + 48, m3, s3);
}

// The same two blocks in AVX2: 8 lanes, the tails masked (a masked-off lane is never read).
FS_AVX2 inline __m256i laneMask8(int64_t remaining) {
  const int lanes = static_cast<int>(std::clamp<int64_t>(remaining, 0, 8));
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

FS_AVX2 inline float laneSum8(__m256 v) {
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, v);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}

FS_AVX2 void fourDotsAvx2(const float* a, const float* b, int64_t k, int64_t j0, int64_t rows, float* out) {
  const float* r0 = b + j0 * k;
  const float* r1 = rows > 1 ? r0 + k : r0;
  const float* r2 = rows > 2 ? r0 + 2 * k : r0;
  const float* r3 = rows > 3 ? r0 + 3 * k : r0;
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  int64_t p = 0;
  for (; p + 8 <= k; p += 8) {  // plain loads; the tail masked
    const __m256 av = _mm256_loadu_ps(a + p);
    s0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(r0 + p), s0);
    s1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(r1 + p), s1);
    s2 = _mm256_fmadd_ps(av, _mm256_loadu_ps(r2 + p), s2);
    s3 = _mm256_fmadd_ps(av, _mm256_loadu_ps(r3 + p), s3);
  }
  if (p < k) {
    const __m256i m = laneMask8(k - p);
    const __m256 av = _mm256_maskload_ps(a + p, m);
    s0 = _mm256_fmadd_ps(av, _mm256_maskload_ps(r0 + p, m), s0);
    s1 = _mm256_fmadd_ps(av, _mm256_maskload_ps(r1 + p, m), s1);
    s2 = _mm256_fmadd_ps(av, _mm256_maskload_ps(r2 + p, m), s2);
    s3 = _mm256_fmadd_ps(av, _mm256_maskload_ps(r3 + p, m), s3);
  }
  const float sums[4] = {laneSum8(s0), laneSum8(s1), laneSum8(s2), laneSum8(s3)};
  std::copy(sums, sums + rows, out + j0);
}

template <bool Masked>
FS_AVX2 inline __m256 load8(const float* p, __m256i mask) {
  if constexpr (Masked) return _mm256_maskload_ps(p, mask);
  return _mm256_loadu_ps(p);  // a masked load costs several times a plain one on some machines (Zen)
}

template <bool Masked>
FS_AVX2 inline void store8(float* p, __m256i mask, __m256 v) {
  if constexpr (Masked)
    _mm256_maskstore_ps(p, mask, v);
  else
    _mm256_storeu_ps(p, v);
}

// Eight named sums: GCC 12 keeps an array of vectors in memory even when every index is a constant. Masked: the
// block is the last one, with fewer than 64 columns.
template <bool Masked>
FS_AVX2 void sixtyFourColumnsAvx2(const float* a, const float* b, int64_t k, int64_t n, int64_t j0, float* out) {
  const __m256i m0 = laneMask8(n - j0), m1 = laneMask8(n - j0 - 8), m2 = laneMask8(n - j0 - 16),
                m3 = laneMask8(n - j0 - 24), m4 = laneMask8(n - j0 - 32), m5 = laneMask8(n - j0 - 40),
                m6 = laneMask8(n - j0 - 48), m7 = laneMask8(n - j0 - 56);
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  for (int64_t p = 0; p < k; ++p) {
    const __m256 av = _mm256_set1_ps(a[p]);
    const float* row = b + p * n + j0;
    s0 = _mm256_fmadd_ps(av, load8<Masked>(row, m0), s0);
    s1 = _mm256_fmadd_ps(av, load8<Masked>(row + 8, m1), s1);
    s2 = _mm256_fmadd_ps(av, load8<Masked>(row + 16, m2), s2);
    s3 = _mm256_fmadd_ps(av, load8<Masked>(row + 24, m3), s3);
    s4 = _mm256_fmadd_ps(av, load8<Masked>(row + 32, m4), s4);
    s5 = _mm256_fmadd_ps(av, load8<Masked>(row + 40, m5), s5);
    s6 = _mm256_fmadd_ps(av, load8<Masked>(row + 48, m6), s6);
    s7 = _mm256_fmadd_ps(av, load8<Masked>(row + 56, m7), s7);
  }
  store8<Masked>(out + j0, m0, s0);
  store8<Masked>(out + j0 + 8, m1, s1);
  store8<Masked>(out + j0 + 16, m2, s2);
  store8<Masked>(out + j0 + 24, m3, s3);
  store8<Masked>(out + j0 + 32, m4, s4);
  store8<Masked>(out + j0 + 40, m5, s5);
  store8<Masked>(out + j0 + 48, m6, s6);
  store8<Masked>(out + j0 + 56, m7, s7);
}

// A block of 16 columns of a packed transposed B, [k rounded up to 16][16]: the same sums as fourDots makes for each
// of its columns, in the same order. Partial sum l takes the inputs p = l, l + 16, ... (the padding's as zeros times
// zeros, as fourDots' masked loads make them), and the partial sums are added one after another from zero.
FS_AVX512 void packedSixteenDots(const float* a, const float* weights, int64_t k, float* out) {
  __m512 partial[kLanes];
#pragma GCC unroll 16
  for (int l = 0; l < kLanes; ++l) partial[l] = _mm512_setzero_ps();
  int64_t p = 0;
  for (; p + kLanes <= k; p += kLanes)
#pragma GCC unroll 16
    for (int l = 0; l < kLanes; ++l)
      partial[l] = _mm512_fmadd_ps(_mm512_set1_ps(a[p + l]), _mm512_loadu_ps(weights + (p + l) * kLanes), partial[l]);
  if (p < k)
#pragma GCC unroll 16
    for (int l = 0; l < kLanes; ++l) {
      const float x = p + l < k ? a[p + l] : 0.0f;
      partial[l] = _mm512_fmadd_ps(_mm512_set1_ps(x), _mm512_loadu_ps(weights + (p + l) * kLanes), partial[l]);
    }
  __m512 sum = _mm512_setzero_ps();
#pragma GCC unroll 16
  for (int l = 0; l < kLanes; ++l) sum = _mm512_add_ps(sum, partial[l]);
  _mm512_storeu_ps(out, sum);
}

}  // namespace

bool gemvRowRuns() { return cpuHasAvx512() || cpuHasAvx2Fma(); }

void gemvRow(const float* a, const float* b, bool bTransposed, int64_t k, int64_t n, float* out) {
  const int64_t width = bTransposed ? 4 : 64;  // output columns per block
  const bool wide = cpuHasAvx512();
  parallelFor((n + width - 1) / width, k * width, [&](int64_t begin, int64_t end) {
    for (int64_t block = begin; block < end; ++block) {
      const int64_t j0 = block * width;
      if (bTransposed && wide)
        fourDots(a, b, k, j0, std::min<int64_t>(4, n - j0), out);
      else if (bTransposed)
        fourDotsAvx2(a, b, k, j0, std::min<int64_t>(4, n - j0), out);
      else if (wide)
        sixtyFourColumns(a, b, k, n, j0, out);
      else if (n - j0 >= 64)
        sixtyFourColumnsAvx2<false>(a, b, k, n, j0, out);
      else
        sixtyFourColumnsAvx2<true>(a, b, k, n, j0, out);
    }
  });
}

bool gemvPacks(bool bTransposed) { return gemvRowRuns() && (!bTransposed || cpuHasAvx512()); }

namespace {

// A packed B's blocks: `width` columns each, of `rows` rows (k, rounded up to the lanes for a transposed B).
struct PackedLayout {
  int64_t width, rows;
};

PackedLayout packedLayout(bool bTransposed, int64_t k) {
  return bTransposed ? PackedLayout{kLanes, (k + kLanes - 1) / kLanes * kLanes} : PackedLayout{64, k};
}

}  // namespace

void gemvPackedRow(const float* a, const float* packed, bool bTransposed, int64_t k, int64_t n, float* out) {
  const bool wide = cpuHasAvx512();
  // Plain names, not a structured binding: clang 14 (the sanitizer trees) cannot capture one in the lambda.
  const PackedLayout layout = packedLayout(bTransposed, k);
  const int64_t width = layout.width, rows = layout.rows;
  parallelFor((n + width - 1) / width, k * width, [&](int64_t begin, int64_t end) {
    for (int64_t block = begin; block < end; ++block) {
      const int64_t j0 = block * width;
      alignas(64) float tail[64];
      float* to = n - j0 >= width ? out + j0 : tail;  // the last block's padding columns are computed, not kept
      const float* weights = packed + j0 * rows;
      if (bTransposed)
        packedSixteenDots(a, weights, k, to);
      else if (wide)
        sixtyFourColumns(a, weights, k, 64, 0, to);
      else
        sixtyFourColumnsAvx2<false>(a, weights, k, 64, 0, to);
      if (to == tail) std::copy(tail, tail + (n - j0), out + j0);
    }
  });
}

int64_t gemvPackedFloats(bool bTransposed, int64_t k, int64_t n) {
  const auto [width, rows] = packedLayout(bTransposed, k);
  return (n + width - 1) / width * width * rows;
}

void packGemvWeights(const float* b, bool bTransposed, int64_t k, int64_t n, float* packed) {
  const auto [width, rows] = packedLayout(bTransposed, k);
  for (int64_t j0 = 0; j0 < n; j0 += width)
    for (int64_t p = 0; p < rows; ++p) {
      float* row = packed + j0 * rows + p * width;
      for (int64_t c = 0; c < width; ++c) {
        const int64_t j = j0 + c;
        row[c] = j >= n || p >= k ? 0.0f : bTransposed ? b[j * k + p] : b[p * n + j];
      }
    }
}

#else

bool gemvRowRuns() { return false; }
void gemvRow(const float*, const float*, bool, int64_t, int64_t, float*) {}
bool gemvPacks(bool) { return false; }
void gemvPackedRow(const float*, const float*, bool, int64_t, int64_t, float*) {}
int64_t gemvPackedFloats(bool, int64_t, int64_t) { return 0; }
void packGemvWeights(const float*, bool, int64_t, int64_t, float*) {}

#endif

}  // namespace flowscope
