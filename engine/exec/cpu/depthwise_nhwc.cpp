// The depthwise kernel in AVX-512 (compiled for it alone, chosen at run time; other machines keep oneDNN's).
// An output row goes pixel group by pixel group, each over all channels in 16-lane slices (a pixel's channels are
// contiguous, so the loads stream). Inside the image's columns eight pixels are summed at once: eight independent
// chains of FMAs hide the FMA latency and share each filter vector; border pixels go one by one with bounds checks.
// Only the last slice of a channel count that is not a multiple of 16 is masked.
#include "exec/cpu/depthwise_nhwc.h"

#include <algorithm>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

#if defined(__x86_64__)
namespace {

constexpr int64_t kLanes = 16;

struct Slice {
  const float* image;  // the batch item's input
  int64_t w, c;        // input width and channels
  int64_t c0;          // the slice's first channel
  __mmask16 mask;      // its channels, when Masked
};

template <bool Masked>
FS_AVX512 inline __m512 load(const Slice& s, const float* p) {
  return Masked ? _mm512_maskz_loadu_ps(s.mask, p) : _mm512_loadu_ps(p);
}

template <bool Masked>
FS_AVX512 inline void store(const Slice& s, float* pixel, __m512 v, DepthwiseClamp clamp) {
  if (clamp != DepthwiseClamp::kNone) {  // the zero-masked forms: GCC 12's plain ones warn of their own operand
    v = _mm512_maskz_max_ps(0xffff, v, _mm512_setzero_ps());  // a NaN becomes 0, as the C++ epilogue's ReLU does
    if (clamp == DepthwiseClamp::kRelu6) v = _mm512_maskz_min_ps(0xffff, v, _mm512_set1_ps(6.0f));
  }
  if (Masked)
    _mm512_mask_storeu_ps(pixel + s.c0, s.mask, v);
  else
    _mm512_storeu_ps(pixel + s.c0, v);
}

// The window of one pixel starting at (iy0, ix0): rows outside [kyLo, kyHi) and columns outside [kxLo, kxHi) are
// padding.
template <int K, bool Masked>
FS_AVX512 inline __m512 window(const Slice& s, const float* filter, __m512 acc, int64_t iy0, int kyLo, int kyHi,
                               int64_t ix0, int kxLo, int kxHi) {
  for (int ky = kyLo; ky < kyHi; ++ky) {
    const float* row = s.image + ((iy0 + ky) * s.w + ix0) * s.c + s.c0;
    const float* f = filter + ky * K * s.c + s.c0;
    for (int kx = kxLo; kx < kxHi; ++kx)
      acc = _mm512_fmadd_ps(load<Masked>(s, row + kx * s.c), load<Masked>(s, f + kx * s.c), acc);
  }
  return acc;
}

// Named sums, not an array: GCC 12 keeps an array of vectors in memory even when every index is a constant.
struct Sums {
  __m512 a0, a1, a2, a3, a4, a5, a6, a7;
};

// The windows of P (4 or 8) pixels inside the image's columns, sw apart, the first starting at (iy0, ix0).
template <int K, int P, bool Masked>
FS_AVX512 inline void windows(const Slice& s, const float* filter, Sums& sums, int64_t iy0, int kyLo, int kyHi,
                              int64_t ix0, int64_t sw) {
  const int64_t step = sw * s.c;
  for (int ky = kyLo; ky < kyHi; ++ky) {
    const float* row = s.image + ((iy0 + ky) * s.w + ix0) * s.c + s.c0;
    const float* f = filter + ky * K * s.c + s.c0;
#pragma GCC unroll 8
    for (int kx = 0; kx < K; ++kx) {
      const __m512 w = load<Masked>(s, f + kx * s.c);
      const float* p = row + kx * s.c;
      sums.a0 = _mm512_fmadd_ps(load<Masked>(s, p), w, sums.a0);
      sums.a1 = _mm512_fmadd_ps(load<Masked>(s, p + step), w, sums.a1);
      sums.a2 = _mm512_fmadd_ps(load<Masked>(s, p + 2 * step), w, sums.a2);
      sums.a3 = _mm512_fmadd_ps(load<Masked>(s, p + 3 * step), w, sums.a3);
      if constexpr (P == 8) {
        sums.a4 = _mm512_fmadd_ps(load<Masked>(s, p + 4 * step), w, sums.a4);
        sums.a5 = _mm512_fmadd_ps(load<Masked>(s, p + 5 * step), w, sums.a5);
        sums.a6 = _mm512_fmadd_ps(load<Masked>(s, p + 6 * step), w, sums.a6);
        sums.a7 = _mm512_fmadd_ps(load<Masked>(s, p + 7 * step), w, sums.a7);
      }
    }
  }
}

struct RowJob {
  const DepthwiseShape& shape;
  const float* in;
  const float* filter;
  const float* bias;
  DepthwiseClamp clamp;
  float* out;
};

// Where an output row's window lies: rows [kyLo, kyHi) of it inside the image, and the pixels [inBegin, inEnd)
// whose window lies inside the image's columns.
struct RowSpan {
  int64_t iy0;
  int kyLo, kyHi;
  int64_t inBegin, inEnd;
};

template <int K>
RowSpan rowSpan(const DepthwiseShape& sh, int64_t oy) {
  RowSpan r;
  r.iy0 = oy * sh.sh - sh.padTop;
  r.kyLo = static_cast<int>(std::max<int64_t>(0, -r.iy0));
  r.kyHi = static_cast<int>(std::min<int64_t>(K, sh.h - r.iy0));
  r.inBegin = std::min(sh.ow, (sh.padLeft + sh.sw - 1) / sh.sw);
  const int64_t lastStart = sh.w - K + sh.padLeft;
  r.inEnd = lastStart < 0 ? r.inBegin : std::clamp(lastStart / sh.sw + 1, r.inBegin, sh.ow);
  return r;
}

// P pixels from output column ox, one slice.
template <int K, int P, bool Masked>
FS_AVX512 inline void pixelGroup(const RowJob& job, const Slice& s, const RowSpan& r, int64_t ox, float* out) {
  const DepthwiseShape& sh = job.shape;
  const __m512 bias = job.bias ? load<Masked>(s, job.bias + s.c0) : _mm512_setzero_ps();
  Sums sums{bias, bias, bias, bias, bias, bias, bias, bias};
  windows<K, P, Masked>(s, job.filter, sums, r.iy0, r.kyLo, r.kyHi, ox * sh.sw - sh.padLeft, sh.sw);
  store<Masked>(s, out, sums.a0, job.clamp);
  store<Masked>(s, out + sh.c, sums.a1, job.clamp);
  store<Masked>(s, out + 2 * sh.c, sums.a2, job.clamp);
  store<Masked>(s, out + 3 * sh.c, sums.a3, job.clamp);
  if constexpr (P == 8) {
    store<Masked>(s, out + 4 * sh.c, sums.a4, job.clamp);
    store<Masked>(s, out + 5 * sh.c, sums.a5, job.clamp);
    store<Masked>(s, out + 6 * sh.c, sums.a6, job.clamp);
    store<Masked>(s, out + 7 * sh.c, sums.a7, job.clamp);
  }
}

// One pixel (a border one, or one left over from the groups), one slice.
template <int K, bool Masked>
FS_AVX512 inline void onePixel(const RowJob& job, const Slice& s, const RowSpan& r, int64_t ox, float* out) {
  const DepthwiseShape& sh = job.shape;
  const int64_t ix0 = ox * sh.sw - sh.padLeft;
  const int kxLo = static_cast<int>(std::max<int64_t>(0, -ix0));
  const int kxHi = static_cast<int>(std::min<int64_t>(K, sh.w - ix0));
  const __m512 bias = job.bias ? load<Masked>(s, job.bias + s.c0) : _mm512_setzero_ps();
  store<Masked>(s, out, window<K, Masked>(s, job.filter, bias, r.iy0, r.kyLo, r.kyHi, ix0, kxLo, kxHi), job.clamp);
}

// P pixels (1, 4 or 8) from output column ox over all channels.
template <int K, int P>
FS_AVX512 void pixels(const RowJob& job, Slice& s, const RowSpan& r, int64_t ox, float* out) {
  const int64_t full = job.shape.c / kLanes * kLanes;
  for (s.c0 = 0; s.c0 < full; s.c0 += kLanes) {
    if constexpr (P == 1)
      onePixel<K, false>(job, s, r, ox, out);
    else
      pixelGroup<K, P, false>(job, s, r, ox, out);
  }
  if (full == job.shape.c) return;
  s.c0 = full;
  s.mask = static_cast<__mmask16>((1u << (job.shape.c - full)) - 1u);
  if constexpr (P == 1)
    onePixel<K, true>(job, s, r, ox, out);
  else
    pixelGroup<K, P, true>(job, s, r, ox, out);
}

// One output row (batch item n, row oy).
template <int K>
FS_AVX512 void depthwiseRow(const RowJob& job, int64_t n, int64_t oy) {
  const DepthwiseShape& sh = job.shape;
  const RowSpan r = rowSpan<K>(sh, oy);
  Slice s{job.in + n * sh.h * sh.w * sh.c, sh.w, sh.c, 0, 0};
  float* outRow = job.out + (n * sh.oh + oy) * sh.ow * sh.c;
  for (int64_t ox = 0; ox < sh.ow;) {
    float* out = outRow + ox * sh.c;
    if (ox >= r.inBegin && ox + 8 <= r.inEnd) {
      pixels<K, 8>(job, s, r, ox, out);
      ox += 8;
    } else if (ox >= r.inBegin && ox + 4 <= r.inEnd) {
      pixels<K, 4>(job, s, r, ox, out);
      ox += 4;
    } else {
      pixels<K, 1>(job, s, r, ox, out);
      ++ox;
    }
  }
}

}  // namespace

bool depthwiseNhwcRuns(const DepthwiseShape& shape) {
  return cpuHasAvx512() && (shape.k == 3 || shape.k == 5) && shape.c > 0 && shape.sh > 0 && shape.sw > 0;
}

void depthwiseNhwc(const DepthwiseShape& shape, const float* in, const float* filter, const float* bias,
                   DepthwiseClamp clamp, float* out) {
  const RowJob job{shape, in, filter, bias, clamp, out};
  parallelFor(shape.n * shape.oh, shape.ow * shape.c * shape.k * shape.k / 4, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      if (shape.k == 3)
        depthwiseRow<3>(job, row / shape.oh, row % shape.oh);
      else
        depthwiseRow<5>(job, row / shape.oh, row % shape.oh);
    }
  });
}

#else

bool depthwiseNhwcRuns(const DepthwiseShape&) { return false; }
void depthwiseNhwc(const DepthwiseShape&, const float*, const float*, const float*, DepthwiseClamp, float*) {}

#endif

}  // namespace flowscope
