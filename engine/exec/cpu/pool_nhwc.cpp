// Pooling on NHWC: an output row at a time, each pixel's channels summed (or maxed) over the window's pixels, 16
// channels at a time in registers.
#include "exec/cpu/pool_nhwc.h"

#include <algorithm>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/thread_pool.h"

namespace flowscope {
namespace {

struct PoolRow {
  bool max;
  int64_t firstRow;  // the image row its pointer starts at
  int64_t h, width, c;
  const Window& w;
  int64_t blockStride;  // from one 16-channel block of an output pixel to the next: 16 (NHWC) or oh * ow * 16

  const float* pixel(const float* image, int64_t y, int64_t x) const {
    return image + ((y - firstRow) * width + x) * c;
  }
};

constexpr int64_t kBlock = 16;  // channels held in registers at a time, and the blocked layout's channel block

// Where channel c of an output pixel goes, `out` being where its channel 0 goes.
float* channelAt(const PoolRow& r, float* out, int64_t c) { return out + c / kBlock * r.blockStride + c % kBlock; }

// The window's pixels: rows [yBegin, yEnd) and columns [xBegin, xEnd), stepped by the dilations.
struct WindowSpan {
  int64_t yBegin, yEnd, xBegin, xEnd;
  int64_t count(const Window& w) const {
    return ((yEnd - yBegin + w.dh - 1) / w.dh) * ((xEnd - xBegin + w.dw - 1) / w.dw);
  }
};

// One channel c of the window into out[c].
void poolChannel(const PoolRow& r, const float* image, int64_t c, const WindowSpan& s, float* out) {
  float acc = r.max ? std::numeric_limits<float>::lowest() : 0.0f;
  for (int64_t y = s.yBegin; y < s.yEnd; y += r.w.dh)
    for (int64_t x = s.xBegin; x < s.xEnd; x += r.w.dw) {
      const float v = r.pixel(image, y, x)[c];
      acc = r.max ? std::max(acc, v) : acc + v;
    }
  *channelAt(r, out, c) = acc;
}

#if defined(__x86_64__)
// Channels [c0, c0 + 16) in four SSE registers (the x86-64 baseline). max(v, acc) keeps acc where v is NaN, as
// std::max(acc, v) does.
template <bool Max>
void poolBlock(const PoolRow& r, const float* image, int64_t c0, const WindowSpan& s, float* out) {
  const __m128 init = _mm_set1_ps(Max ? std::numeric_limits<float>::lowest() : 0.0f);
  __m128 a0 = init, a1 = init, a2 = init, a3 = init;
  for (int64_t y = s.yBegin; y < s.yEnd; y += r.w.dh)
    for (int64_t x = s.xBegin; x < s.xEnd; x += r.w.dw) {
      const float* p = r.pixel(image, y, x) + c0;
      if constexpr (Max) {
        a0 = _mm_max_ps(_mm_loadu_ps(p), a0);
        a1 = _mm_max_ps(_mm_loadu_ps(p + 4), a1);
        a2 = _mm_max_ps(_mm_loadu_ps(p + 8), a2);
        a3 = _mm_max_ps(_mm_loadu_ps(p + 12), a3);
      } else {
        a0 = _mm_add_ps(_mm_loadu_ps(p), a0);
        a1 = _mm_add_ps(_mm_loadu_ps(p + 4), a1);
        a2 = _mm_add_ps(_mm_loadu_ps(p + 8), a2);
        a3 = _mm_add_ps(_mm_loadu_ps(p + 12), a3);
      }
    }
  float* o = out + c0 / kBlock * r.blockStride;
  _mm_storeu_ps(o, a0);
  _mm_storeu_ps(o + 4, a1);
  _mm_storeu_ps(o + 8, a2);
  _mm_storeu_ps(o + 12, a3);
}
#endif

// Output pixel (oy, ox) of `image` into `out` (c values), 16 channels at a time where the machine has SSE.
void poolPixel(const PoolRow& r, const float* image, int64_t oy, int64_t ox, float* out) {
  const Window& w = r.w;
  const int64_t y0 = oy * w.sh - w.padTop, x0 = ox * w.sw - w.padLeft;
  const WindowSpan s{
      y0 + (std::max<int64_t>(-y0, 0) + w.dh - 1) / w.dh * w.dh, std::min(y0 + (w.kh - 1) * w.dh + 1, r.h),
      x0 + (std::max<int64_t>(-x0, 0) + w.dw - 1) / w.dw * w.dw, std::min(x0 + (w.kw - 1) * w.dw + 1, r.width)};
  int64_t c0 = 0;
#if defined(__x86_64__)
  for (; c0 + kBlock <= r.c; c0 += kBlock) {
    if (r.max)
      poolBlock<true>(r, image, c0, s, out);
    else
      poolBlock<false>(r, image, c0, s, out);
  }
#endif
  for (; c0 < r.c; ++c0) poolChannel(r, image, c0, s, out);
  const int64_t count = s.count(w);
  if (!r.max && count > 0) {
    const float scale = 1.0f / static_cast<float>(count);
    for (int64_t i = 0; i < r.c; ++i) *channelAt(r, out, i) *= scale;
  }
}

}  // namespace

void poolNhwcRows(bool max, const PoolBand& band, const Window& w, int64_t rowBegin, int64_t rowEnd, float* out,
                  bool blockedOutput) {
  const int64_t plane = w.oh * w.ow;
  const PoolRow row{max, band.firstRow, band.h, band.width, band.c, w, blockedOutput ? plane * kBlock : kBlock};
  for (int64_t oy = rowBegin; oy < rowEnd; ++oy)
    for (int64_t ox = 0; ox < w.ow; ++ox) {
      const int64_t pixel = oy * w.ow + ox;
      poolPixel(row, band.data, oy, ox, blockedOutput ? out + pixel * kBlock : out + pixel * band.c);
    }
}

void poolNhwc(bool max, const float* in, int64_t n, int64_t h, int64_t width, int64_t c, const Window& w, float* out,
              bool blockedOutput) {
  parallelFor(n * w.oh, w.ow * c * w.kh * w.kw, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end;) {  // an image's rows at a time
      const int64_t b = r / w.oh, last = std::min(end, (b + 1) * w.oh);
      const PoolBand image{in + b * h * width * c, 0, h, width, c};
      poolNhwcRows(max, image, w, r - b * w.oh, last - b * w.oh, out + b * w.oh * w.ow * c, blockedOutput);
      r = last;
    }
  });
}

}  // namespace flowscope
