// The matrix-vector product in AVX-512 (compiled for it alone, chosen at run time). Four independent sums at a time
// hide the FMA latency; the weights stream through once.
//   B transposed ([n, k]): four dot products of a with rows of B, reduced across lanes at the end.
//   B plain ([k, n]): 64 columns of out at a time, each row of B adding a[p] times its 64 values.
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

}  // namespace

bool gemvRowRuns() { return cpuHasAvx512(); }

void gemvRow(const float* a, const float* b, bool bTransposed, int64_t k, int64_t n, float* out) {
  const int64_t width = bTransposed ? 4 : 64;  // output columns per block
  parallelFor((n + width - 1) / width, k * width, [&](int64_t begin, int64_t end) {
    for (int64_t block = begin; block < end; ++block) {
      const int64_t j0 = block * width;
      if (bTransposed)
        fourDots(a, b, k, j0, std::min<int64_t>(4, n - j0), out);
      else
        sixtyFourColumns(a, b, k, n, j0, out);
    }
  });
}

#else

bool gemvRowRuns() { return false; }
void gemvRow(const float*, const float*, bool, int64_t, int64_t, float*) {}

#endif

}  // namespace flowscope
