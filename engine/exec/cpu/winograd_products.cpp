// Winograd's products in AVX2: a block of 6 rows of M by one panel of 16 columns is 12 accumulators; each step over
// C loads the panel's two vectors once and broadcasts one value of each of the 6 rows of V (12 FMAs to 8 loads).
#include "exec/cpu/winograd_products.h"

#include <algorithm>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

void packWinogradWeights(const float* u, int64_t points, int64_t c, int64_t k, float* packed) {
  const int64_t panels = winogradPanels(k);
  for (int64_t p = 0; p < points; ++p)
    for (int64_t j = 0; j < panels; ++j)
      for (int64_t i = 0; i < c; ++i) {
        float* to = packed + ((p * panels + j) * c + i) * kWinogradPanel;
        const float* from = u + (p * c + i) * k + j * kWinogradPanel;
        const int64_t width = std::min(kWinogradPanel, k - j * kWinogradPanel);
        std::copy(from, from + width, to);
        std::fill(to + width, to + kWinogradPanel, 0.0f);
      }
}

#if defined(__x86_64__)
namespace {

// Rows (1 to 6) rows of M from the same rows of V (each c long) and one panel ([c][16]); m's rows are ldm apart.
// Named sums, not an array: GCC 12 keeps an array of vectors in memory even when every index is a constant.
template <int Rows>
FS_AVX2 void block(const float* v, int64_t c, const float* panel, float* m, int64_t ldm) {
  __m256 s0l = _mm256_setzero_ps(), s0h = s0l, s1l = s0l, s1h = s0l, s2l = s0l, s2h = s0l, s3l = s0l, s3h = s0l,
         s4l = s0l, s4h = s0l, s5l = s0l, s5h = s0l;
  for (int64_t i = 0; i < c; ++i) {
    const __m256 lo = _mm256_loadu_ps(panel + i * kWinogradPanel), hi = _mm256_loadu_ps(panel + i * kWinogradPanel + 8);
    __m256 x = _mm256_broadcast_ss(v + i);
    s0l = _mm256_fmadd_ps(x, lo, s0l);
    s0h = _mm256_fmadd_ps(x, hi, s0h);
    if constexpr (Rows > 1) {
      x = _mm256_broadcast_ss(v + c + i);
      s1l = _mm256_fmadd_ps(x, lo, s1l);
      s1h = _mm256_fmadd_ps(x, hi, s1h);
    }
    if constexpr (Rows > 2) {
      x = _mm256_broadcast_ss(v + 2 * c + i);
      s2l = _mm256_fmadd_ps(x, lo, s2l);
      s2h = _mm256_fmadd_ps(x, hi, s2h);
    }
    if constexpr (Rows > 3) {
      x = _mm256_broadcast_ss(v + 3 * c + i);
      s3l = _mm256_fmadd_ps(x, lo, s3l);
      s3h = _mm256_fmadd_ps(x, hi, s3h);
    }
    if constexpr (Rows > 4) {
      x = _mm256_broadcast_ss(v + 4 * c + i);
      s4l = _mm256_fmadd_ps(x, lo, s4l);
      s4h = _mm256_fmadd_ps(x, hi, s4h);
    }
    if constexpr (Rows > 5) {
      x = _mm256_broadcast_ss(v + 5 * c + i);
      s5l = _mm256_fmadd_ps(x, lo, s5l);
      s5h = _mm256_fmadd_ps(x, hi, s5h);
    }
  }
  const __m256 sums[12] = {s0l, s0h, s1l, s1h, s2l, s2h, s3l, s3h, s4l, s4h, s5l, s5h};
  for (int r = 0; r < Rows; ++r) {
    _mm256_storeu_ps(m + r * ldm, sums[2 * r]);
    _mm256_storeu_ps(m + r * ldm + 8, sums[2 * r + 1]);
  }
}

// All rows of M_p for one panel: blocks of 6, then the rest.
FS_AVX2 void panelColumn(const float* v, int64_t tiles, int64_t c, const float* panel, float* m, int64_t ldm) {
  int64_t t = 0;
  for (; t + 6 <= tiles; t += 6) block<6>(v + t * c, c, panel, m + t * ldm, ldm);
  const float* rv = v + t * c;
  float* rm = m + t * ldm;
  switch (tiles - t) {
    case 5:
      return block<5>(rv, c, panel, rm, ldm);
    case 4:
      return block<4>(rv, c, panel, rm, ldm);
    case 3:
      return block<3>(rv, c, panel, rm, ldm);
    case 2:
      return block<2>(rv, c, panel, rm, ldm);
    case 1:
      return block<1>(rv, c, panel, rm, ldm);
    default:
      return;
  }
}

}  // namespace

void winogradProducts(const float* v, const float* packed, int64_t points, int64_t tiles, int64_t c, int64_t panels,
                      float* m) {
  const int64_t ldm = panels * kWinogradPanel;
  parallelFor(points * panels, tiles * c * kWinogradPanel * 2, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t p = item / panels, j = item % panels;
      panelColumn(v + p * tiles * c, tiles, c, packed + (p * panels + j) * c * kWinogradPanel,
                  m + p * tiles * ldm + j * kWinogradPanel, ldm);
    }
  });
}

#else

void winogradProducts(const float*, const float*, int64_t, int64_t, int64_t, int64_t, float*) {}

#endif

}  // namespace flowscope
