// The kernel of nchw_input_conv.h. Per output row: the pixels whose windows lie inside the image in groups of P,
// P x V accumulators (V vectors of 16 output channels per pixel) in registers, the last group overlapping the one
// before so none is left over; for each tap, V filter vectors and P input values broadcast from the tap's row of its
// channel plane. The few pixels whose windows cross an edge go one at a time, skipping the taps outside.
#include "exec/cpu/nchw_input_conv.h"

#include <algorithm>
#include <cstring>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

#if defined(__x86_64__)
namespace {

struct RowJob {
  const NchwInputConvShape* s;
  const float* image;   // the batch item's first channel plane
  const float* filter;  // HWIO
  const float* bias;    // oc values, or null
  DepthwiseClamp clamp;
  int64_t oy;
  float* out;  // the output row
};

FS_AVX512 inline __m512 biasVector(const RowJob& job, int v) {
  return job.bias ? _mm512_loadu_ps(job.bias + v * 16) : _mm512_setzero_ps();
}

FS_AVX512 inline void storeClamped(const RowJob& job, float* pixel, __m512 sum) {
  if (job.clamp != DepthwiseClamp::kNone) {  // the zero-masked forms: GCC 12's plain ones warn of their own operand
    sum = _mm512_maskz_max_ps(0xffff, sum, _mm512_setzero_ps());  // a NaN becomes 0, as the C++ ReLU does
    if (job.clamp == DepthwiseClamp::kRelu6) sum = _mm512_maskz_min_ps(0xffff, sum, _mm512_set1_ps(6.0f));
  }
  _mm512_storeu_ps(pixel, sum);
}

// A group's P x V sums: the bias to start, then clamped into the output row from column ox0 (inlined, so that the
// sums stay in registers).
template <int V, int P>
FS_AVX512 __attribute__((always_inline)) inline void startSums(const RowJob& job, __m512 (&sum)[P][V]) {
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) sum[p][v] = biasVector(job, v);
}

template <int V, int P>
FS_AVX512 __attribute__((always_inline)) inline void storeSums(const RowJob& job, int64_t ox0,
                                                               const __m512 (&sum)[P][V]) {
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) storeClamped(job, job.out + (ox0 + p) * job.s->oc + v * 16, sum[p][v]);
}

// P pixels from output column ox0, all of whose windows lie inside the image's columns.
template <int V, int P>
FS_AVX512 void pixelGroup(const RowJob& job, int64_t ox0) {
  const NchwInputConvShape& s = *job.s;
  __m512 sum[P][V];
  startSums<V, P>(job, sum);
  const int64_t ix0 = ox0 * s.sw - s.padLeft;
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    const int64_t iy = job.oy * s.sh + ky - s.padTop;
    if (iy < 0 || iy >= s.h) continue;
    for (int64_t c = 0; c < s.c; ++c) {
      const float* row = job.image + (c * s.h + iy) * s.w + ix0;
      const float* taps = job.filter + (ky * s.kw * s.c + c) * s.oc;
      for (int64_t kx = 0; kx < s.kw; ++kx, taps += s.c * s.oc) {
        __m512 weight[V];
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) weight[v] = _mm512_loadu_ps(taps + v * 16);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
          const __m512 x = _mm512_set1_ps(row[p * s.sw + kx]);
#pragma GCC unroll 4
          for (int v = 0; v < V; ++v) sum[p][v] = _mm512_fmadd_ps(x, weight[v], sum[p][v]);
        }
      }
    }
  }
  storeSums<V, P>(job, ox0, sum);
}

// pixelGroup for a window KW wide at column stride SW over C channels, all known at compile time (an RGB image's
// 3x3 window). It sweeps a window row's input columns once: each value, broadcast, feeds every (pixel, tap) that
// reads it, against KW x V filter vectors held in registers, so a stride-2 row costs 2P + 1 broadcasts instead of 3P.
// (pixelGroup, with the widths and strides known only at run time, spent more instructions on its loops and
// addresses than on the FMAs of the 3-wide rows: 36% of the FMA peak on MobileNetV2's stem.)
template <int V, int P, int KW, int C, int SW>
FS_AVX512 void sweptPixelGroup(const RowJob& job, int64_t ox0) {
  static_assert(KW * V + P * V < 32, "the filter vectors, the sums and a broadcast must fit in the registers");
  const NchwInputConvShape& s = *job.s;
  __m512 sum[P][V];
  startSums<V, P>(job, sum);
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    const int64_t iy = job.oy * s.sh + ky - s.padTop;
    if (iy < 0 || iy >= s.h) continue;
    for (int c = 0; c < C; ++c) {
      const float* row = job.image + (c * s.h + iy) * s.w + ox0 * SW - s.padLeft;
      const float* taps = job.filter + (ky * KW * C + c) * s.oc;
      __m512 weight[KW][V];
#pragma GCC unroll 8
      for (int kx = 0; kx < KW; ++kx)
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) weight[kx][v] = _mm512_loadu_ps(taps + kx * C * s.oc + v * 16);
#pragma GCC unroll 64
      for (int j = 0; j < (P - 1) * SW + KW; ++j) {
        const __m512 x = _mm512_set1_ps(row[j]);
#pragma GCC unroll 8
        for (int kx = 0; kx < KW; ++kx) {
          const int p = (j - kx) / SW;
          if (j < kx || (j - kx) % SW != 0 || p >= P) continue;
#pragma GCC unroll 4
          for (int v = 0; v < V; ++v) sum[p][v] = _mm512_fmadd_ps(x, weight[kx][v], sum[p][v]);
        }
      }
    }
  }
  storeSums<V, P>(job, ox0, sum);
}

using PixelGroup = void (*)(const RowJob&, int64_t);

// The pixel group for this shape: swept for an image's 3 channels under a 3x3 window at stride 1 or 2, where the
// filter vectors fit in the registers beside the sums.
template <int V, int P>
PixelGroup groupFor(const NchwInputConvShape& s) {
  if constexpr (3 * V + P * V < 32) {
    if (s.c == 3 && s.kw == 3 && s.sw == 2) return sweptPixelGroup<V, P, 3, 3, 2>;
    if (s.c == 3 && s.kw == 3 && s.sw == 1) return sweptPixelGroup<V, P, 3, 3, 1>;
  }
  return pixelGroup<V, P>;
}

// One pixel, any column: taps outside the image are skipped.
template <int V>
FS_AVX512 void onePixel(const RowJob& job, int64_t ox) {
  const NchwInputConvShape& s = *job.s;
  __m512 sum[V];
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) sum[v] = biasVector(job, v);
  const int64_t ix0 = ox * s.sw - s.padLeft;
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    const int64_t iy = job.oy * s.sh + ky - s.padTop;
    if (iy < 0 || iy >= s.h) continue;
    for (int64_t kx = std::max<int64_t>(0, -ix0); kx < std::min(s.kw, s.w - ix0); ++kx)
      for (int64_t c = 0; c < s.c; ++c) {
        const __m512 x = _mm512_set1_ps(job.image[(c * s.h + iy) * s.w + ix0 + kx]);
        const float* taps = job.filter + ((ky * s.kw + kx) * s.c + c) * s.oc;
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) sum[v] = _mm512_fmadd_ps(x, _mm512_loadu_ps(taps + v * 16), sum[v]);
      }
  }
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) storeClamped(job, job.out + ox * s.oc + v * 16, sum[v]);
}

template <int V>
FS_AVX512 void outputRow(const RowJob& job) {
  constexpr int P = V == 1 ? 12 : 24 / V;  // 12-24 accumulators, leaving registers for the filter vectors
  const NchwInputConvShape& s = *job.s;
  // Columns [first, last) have windows inside the image (none where the window is wider than the padded left part).
  const int64_t first = std::min(s.ow, (s.padLeft + s.sw - 1) / s.sw), lastStart = s.w - s.kw + s.padLeft;
  const int64_t last = lastStart < 0 ? first : std::max(first, std::min(s.ow, lastStart / s.sw + 1));
  int64_t ox = 0;
  for (; ox < first; ++ox) onePixel<V>(job, ox);
  if (last - first >= P) {
    const PixelGroup group = groupFor<V, P>(s);
    for (ox = first; ox + P <= last; ox += P) group(job, ox);
    if (ox < last) group(job, last - P);  // overlaps the group before: same values, written again
    ox = last;
  }
  for (; ox < s.ow; ++ox) onePixel<V>(job, ox);
}

// Reads the input rows that output rows [oyBegin, oyEnd) of one image take, channel plane by channel plane, one load a
// cache line, before the kernel does. The kernel reads C x KH rows at once, a hundred bytes from each in turn, which
// the hardware prefetchers did not follow when the image came from memory (as a model's input does, the run's other
// layers having filled the caches since): in MobileNetV2 the stem took 2.1-2.4x its cycles on warm data, and
// software prefetches of the rows ahead changed nothing. Read in order, the rows stream in at the memory's speed:
// the stem and features.1 (a row chain) in 242-266 us instead of 298-349, the model in 0.955x the time at 1 thread
// and 0.914x at 2 (24 pairs against the build before).
void stageInputRows(const NchwInputConvShape& s, const float* image, int64_t oyBegin, int64_t oyEnd) {
  constexpr int64_t kFloatsPerLine = 64 / sizeof(float);
  const int64_t first = std::max<int64_t>(0, oyBegin * s.sh - s.padTop);
  const int64_t last = std::min<int64_t>(s.h, (oyEnd - 1) * s.sh - s.padTop + s.kh);
  if (last <= first) return;
  uint32_t sink = 0;
  for (int64_t c = 0; c < s.c; ++c) {
    const float* plane = image + (c * s.h + first) * s.w;
    for (int64_t i = 0; i < (last - first) * s.w; i += kFloatsPerLine) {
      uint32_t bits;
      std::memcpy(&bits, plane + i, sizeof bits);
      sink |= bits;
    }
  }
  asm volatile("" : : "r"(sink));  // the loads are the point: keep them
}

template <int V>
void rowRange(const NchwInputConvShape& s, const float* in, const float* filter, const float* bias,
              DepthwiseClamp clamp, int64_t begin, int64_t end, float* out) {
  for (int64_t r = begin; r < end;) {  // each image's share of the rows, staged
    const int64_t b = r / s.oh, imageEnd = std::min(end, (b + 1) * s.oh);
    stageInputRows(s, in + b * s.c * s.h * s.w, r % s.oh, (imageEnd - 1) % s.oh + 1);
    r = imageEnd;
  }
  for (int64_t r = begin; r < end; ++r) {
    const int64_t b = r / s.oh;
    const RowJob job{&s, in + b * s.c * s.h * s.w, filter, bias, clamp, r % s.oh, out + (r - begin) * s.ow * s.oc};
    outputRow<V>(job);
  }
}

void anyRows(const NchwInputConvShape& s, const float* in, const float* filter, const float* bias, DepthwiseClamp clamp,
             int64_t begin, int64_t end, float* out) {
  switch (s.oc / 16) {
    case 1:
      return rowRange<1>(s, in, filter, bias, clamp, begin, end, out);
    case 2:
      return rowRange<2>(s, in, filter, bias, clamp, begin, end, out);
    case 3:
      return rowRange<3>(s, in, filter, bias, clamp, begin, end, out);
    default:
      return rowRange<4>(s, in, filter, bias, clamp, begin, end, out);
  }
}

}  // namespace

bool nchwInputConvRuns(const NchwInputConvShape& s) {
  return cpuHasAvx512() && s.c >= 1 && s.c <= 4 && s.oc % 16 == 0 && s.oc >= 16 && s.oc <= 64 && s.kh >= 1 &&
         s.kw >= 1 && s.kh <= kMaxWindow && s.kw <= kMaxWindow && s.sh >= 1 && s.sw >= 1 && s.padTop >= 0 &&
         s.padLeft >= 0 && s.oh > 0 && s.ow > 0;
}

void nchwInputConv(const NchwInputConvShape& s, const float* in, const float* filter, const float* bias,
                   DepthwiseClamp clamp, float* out) {
  parallelFor(s.n * s.oh, s.ow * s.oc * s.c * s.kh * s.kw, [&](int64_t begin, int64_t end) {
    anyRows(s, in, filter, bias, clamp, begin, end, out + begin * s.ow * s.oc);
  });
}

void nchwInputConvRows(const NchwInputConvShape& s, const float* in, const float* filter, const float* bias,
                       DepthwiseClamp clamp, int64_t rowBegin, int64_t rowEnd, float* out) {
  anyRows(s, in, filter, bias, clamp, rowBegin, rowEnd, out);
}

#else

bool nchwInputConvRuns(const NchwInputConvShape&) { return false; }
void nchwInputConv(const NchwInputConvShape&, const float*, const float*, const float*, DepthwiseClamp, float*) {}
void nchwInputConvRows(const NchwInputConvShape&, const float*, const float*, const float*, DepthwiseClamp, int64_t,
                       int64_t, float*) {}

#endif

}  // namespace flowscope
