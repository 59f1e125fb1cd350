// The depthwise kernel in AVX-512 (compiled for it alone, chosen at run time; other machines keep oneDNN's).
// An output row goes pixel group by pixel group, each over all channels in 16-lane slices (a pixel's channels are
// contiguous, so the loads stream). Inside the image's columns eight (or four) pixels are summed at once: each input
// vector is loaded once and fed to every pixel of the group whose window holds it, in independent chains of FMAs that
// hide the FMA latency; the row's last group overlaps the one before it rather than leaving pixels over. Window rows
// above and below the image read a row of zeros instead of branching, against a filter row of zeros (an infinite
// tap times a padding zero would make a NaN where the convolution has no term). Pixels whose window crosses the
// image's left or right edge go one by one, a partial sum per window row so that no chain is longer than the kernel's
// width. Rows of 7 pixels, or of a multiple of 14, under a 3x3 window with one column of padding on the left (as
// PyTorch pads it), or none at stride 2 (TensorFlow's SAME), go instead in chunks of up to 14 pixels, one group each,
// edges included (rowChunk).
// Only the last slice of a channel count that is not a multiple of 16 is masked.
#include "exec/cpu/depthwise_nhwc.h"

#include <algorithm>
#include <utility>

#include "base/growing_buffer.h"
#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

DepthwiseShape depthwiseShapeOf(const Shape& nhwc, const Window& w) {
  return {nhwc.dim(0), nhwc.dim(1), nhwc.dim(2), nhwc.dim(3), w.kh, w.sh, w.sw, w.padTop, w.padLeft, w.oh, w.ow};
}

std::optional<DepthwiseClamp> depthwiseClampFor(const std::string& activation) {
  if (activation.empty()) return DepthwiseClamp::kNone;
  if (activation == "Relu") return DepthwiseClamp::kRelu;
  if (activation == "Relu6") return DepthwiseClamp::kRelu6;
  return std::nullopt;
}

#if defined(__x86_64__)
namespace {

constexpr int64_t kLanes = 16;
constexpr int kMaxK = 5;

// f(std::integral_constant<int, I>) for I in [0, N), unrolled. Every lambda it calls is always_inline (GCC 12
// otherwise makes functions of them and passes the sums through memory) and compiled for AVX-512 as its caller is.
#define FS_UNROLLED __attribute__((always_inline, target("avx512f,fma")))
template <int N, class F>
FS_UNROLLED inline void unroll(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) FS_UNROLLED { (f(std::integral_constant<int, I>{}), ...); }
  (std::make_integer_sequence<int, N>{});
}

// Named vectors, not an array: GCC 12 keeps an array of vectors in memory even when every index is a constant.
struct Vectors16 {
  __m512 v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15;
};

template <int I>
FS_UNROLLED inline __m512& at(Vectors16& v) {
  static_assert(I >= 0 && I < 16);
  if constexpr (I == 0) return v.v0;
  if constexpr (I == 1) return v.v1;
  if constexpr (I == 2) return v.v2;
  if constexpr (I == 3) return v.v3;
  if constexpr (I == 4) return v.v4;
  if constexpr (I == 5) return v.v5;
  if constexpr (I == 6) return v.v6;
  if constexpr (I == 7) return v.v7;
  if constexpr (I == 8) return v.v8;
  if constexpr (I == 9) return v.v9;
  if constexpr (I == 10) return v.v10;
  if constexpr (I == 11) return v.v11;
  if constexpr (I == 12) return v.v12;
  if constexpr (I == 13) return v.v13;
  if constexpr (I == 14) return v.v14;
  if constexpr (I == 15) return v.v15;
}

struct Slice {
  int64_t w, c;    // input width and channels
  int64_t c0;      // the slice's first channel
  __mmask16 mask;  // its channels, when Masked
};

// One output row's job: its window rows and their filter rows (both the zero row where a window row lies outside the
// image), bias and clamp.
struct RowJob {
  const float* rows[kMaxK];
  const float* filterRows[kMaxK];  // [k, c] each
  const float* bias;               // null for none
  DepthwiseClamp clamp;
};

template <bool Masked>
FS_UNROLLED inline __m512 load(const Slice& s, const float* p) {
  return Masked ? _mm512_maskz_loadu_ps(s.mask, p) : _mm512_loadu_ps(p);
}

template <bool Masked>
FS_UNROLLED inline void store(const Slice& s, DepthwiseClamp clamp, float* pixel, __m512 v) {
  if (clamp != DepthwiseClamp::kNone) {  // the zero-masked forms: GCC 12's plain ones warn of their own operand
    v = _mm512_maskz_max_ps(0xffff, v, _mm512_setzero_ps());  // a NaN becomes 0, as the C++ epilogue's ReLU does
    if (clamp == DepthwiseClamp::kRelu6) v = _mm512_maskz_min_ps(0xffff, v, _mm512_set1_ps(6.0f));
  }
  if (Masked)
    _mm512_mask_storeu_ps(pixel + s.c0, s.mask, v);
  else
    _mm512_storeu_ps(pixel + s.c0, v);
}

template <bool Masked>
FS_UNROLLED inline __m512 biasOf(const Slice& s, const RowJob& job) {
  return job.bias ? load<Masked>(s, job.bias + s.c0) : _mm512_setzero_ps();
}

// P pixels (4, 8, or a whole row of 7 or 14), stride S, the first one's window starting at input column ix0, one
// slice. Input pixel j of the span feeds output pixel (j - kx) / S through tap kx where that divides. The span's
// pixels [Lo, Hi) lie inside the image's columns; the others, in the padding, have no term (for a whole row, whose
// first and last windows cross the image's edges). At stride 1 an input vector feeds K FMAs, and GCC 12, short of
// registers beside the P sums and the K * K filter vectors, folds its load into each of them: K loads per input
// vector, the load ports' limit. An empty asm that may change it keeps it in a register, loaded once: 0.68-0.90x the
// time on MobileNetV2's stride-1 shapes, warm, best of 5 alternating runs. At stride 2 an input vector feeds one or
// two taps, and the register cost more than the loads (0.91-1.11x), so its loads stay folded.
template <int K, int S, int P, bool Masked, int Lo = 0, int Hi = (P - 1) * S + K>
FS_UNROLLED inline void pixelGroup(const Slice& s, const RowJob& job, int64_t ix0, float* out) {
  const __m512 bias = biasOf<Masked>(s, job);
  Vectors16 sums{bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias};
  unroll<K>([&](auto ky) FS_UNROLLED {
    const float* row = job.rows[ky] + (ix0 + Lo) * s.c + s.c0;  // span pixel Lo, the first inside the image
    const float* f = job.filterRows[ky] + s.c0;
    unroll<(P - 1) * S + K>([&](auto j) FS_UNROLLED {
      if constexpr (decltype(j)::value < Lo || decltype(j)::value >= Hi) return;
      __m512 x = load<Masked>(s, row + (decltype(j)::value - Lo) * s.c);
      if constexpr (S == 1) asm("" : "+v"(x));  // in a register for its K taps (see above)
      unroll<K>([&](auto kx) FS_UNROLLED {
        constexpr int d = decltype(j)::value - decltype(kx)::value;
        if constexpr (d >= 0 && d % S == 0 && d / S < P)
          at<d / S>(sums) = _mm512_fmadd_ps(x, load<Masked>(s, f + kx * s.c), at<d / S>(sums));
      });
    });
  });
  unroll<P>([&](auto p) FS_UNROLLED { store<Masked>(s, job.clamp, out + p * s.c, at<p>(sums)); });
}

// One pixel whose window starts at input column ix0 (possibly crossing the image's left or right edge), one slice:
// a partial sum per window row.
template <int K, bool Masked>
FS_UNROLLED inline void onePixel(const Slice& s, const RowJob& job, int64_t ix0, float* out) {
  const int kxLo = static_cast<int>(std::max<int64_t>(0, -ix0));
  const int kxHi = static_cast<int>(std::min<int64_t>(K, s.w - ix0));
  const __m512 zero = _mm512_setzero_ps();
  Vectors16 partial{
      biasOf<Masked>(s, job), zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero};
  unroll<K>([&](auto ky) FS_UNROLLED {
    const float* row = job.rows[ky] + ix0 * s.c + s.c0;
    const float* f = job.filterRows[ky] + s.c0;
    for (int kx = kxLo; kx < kxHi; ++kx)
      at<ky>(partial) =
          _mm512_fmadd_ps(load<Masked>(s, row + kx * s.c), load<Masked>(s, f + kx * s.c), at<ky>(partial));
  });
  __m512 sum = partial.v0;
  unroll<K - 1>([&](auto ky) FS_UNROLLED { sum = _mm512_add_ps(sum, at<ky + 1>(partial)); });
  store<Masked>(s, job.clamp, out, sum);
}

// P pixels from output column ox (P 1: one pixel, any stride; else a group, stride S) over all channels.
template <int K, int S, int P>
FS_AVX512 void pixels(const DepthwiseShape& sh, const RowJob& job, int64_t ox, float* out) {
  Slice s{sh.w, sh.c, 0, 0};
  const int64_t ix0 = ox * sh.sw - sh.padLeft, full = sh.c / kLanes * kLanes;
  for (s.c0 = 0; s.c0 < full; s.c0 += kLanes) {
    if constexpr (P == 1)
      onePixel<K, false>(s, job, ix0, out);
    else
      pixelGroup<K, S, P, false>(s, job, ix0, out);
  }
  if (full == sh.c) return;
  s.c0 = full;
  s.mask = static_cast<__mmask16>((1u << (sh.c - full)) - 1u);
  if constexpr (P == 1)
    onePixel<K, true>(s, job, ix0, out);
  else
    pixelGroup<K, S, P, true>(s, job, ix0, out);
}

// An output row in chunks of P pixels at stride S, over an input row ow * S wide with PadLeft columns of padding on
// the left (a 3x3 window padded as PyTorch pads it, PadLeft 1, or at stride 2 as TensorFlow's SAME pads it, PadLeft
// 0): each chunk one group per slice, the window columns that fall in the padding (the first chunk's left ones, the
// last chunk's right ones) left out at compile time. Otherwise a row took its edge pixels one by one and the rest in
// groups of 8 or 4, the last overlapping the one before: of MobileNetV2's 7-wide rows, two pixels one by one and five
// as two groups of four; of its 14-wide ones, twelve as two groups of eight.
template <int K, int S, int P, int PadLeft, bool First, bool Last>
FS_AVX512 void rowChunk(const DepthwiseShape& sh, const RowJob& job, int64_t ox, float* out) {
  // The last chunk's input column j lies inside the row while j < P * S + PadLeft.
  constexpr int lo = First ? PadLeft : 0, hi = Last ? std::min((P - 1) * S + K, P * S + PadLeft) : (P - 1) * S + K;
  Slice s{sh.w, sh.c, 0, 0};
  const int64_t full = sh.c / kLanes * kLanes, ix0 = ox * S - PadLeft;
  for (s.c0 = 0; s.c0 < full; s.c0 += kLanes) pixelGroup<K, S, P, false, lo, hi>(s, job, ix0, out);
  if (full == sh.c) return;
  s.c0 = full;
  s.mask = static_cast<__mmask16>((1u << (sh.c - full)) - 1u);
  pixelGroup<K, S, P, true, lo, hi>(s, job, ix0, out);
}

template <int K, int S, int P, int PadLeft>
FS_AVX512 void chunkedRow(const DepthwiseShape& sh, const RowJob& job, float* outRow) {
  static_assert(P <= 16, "a sum per pixel, beside K * K filter vectors, in the 32 registers");
  const int64_t last = sh.ow - P;
  if (last == 0) return rowChunk<K, S, P, PadLeft, true, true>(sh, job, 0, outRow);
  rowChunk<K, S, P, PadLeft, true, false>(sh, job, 0, outRow);
  for (int64_t ox = P; ox < last; ox += P) rowChunk<K, S, P, PadLeft, false, false>(sh, job, ox, outRow + ox * sh.c);
  rowChunk<K, S, P, PadLeft, false, true>(sh, job, last, outRow + last * sh.c);
}

using RowKernel = void (*)(const DepthwiseShape&, const RowJob&, float*);

template <int P>
RowKernel chunkedRowOf(const DepthwiseShape& sh) {
  if (sh.padLeft == 1) return sh.sw == 1 ? chunkedRow<3, 1, P, 1> : chunkedRow<3, 2, P, 1>;
  return sh.sw == 2 ? chunkedRow<3, 2, P, 0> : nullptr;
}

// The chunked row for this shape (chunks of 14 pixels, or of 7 for a row of 7), or null.
RowKernel chunkedRowKernel(const DepthwiseShape& sh) {
  if (sh.k != 3 || sh.padLeft < 0 || sh.padLeft > 1 || (sh.sw != 1 && sh.sw != 2) || sh.w != sh.ow * sh.sw)
    return nullptr;
  if (sh.ow % 14 == 0) return chunkedRowOf<14>(sh);
  if (sh.ow == 7) return chunkedRowOf<7>(sh);
  return nullptr;
}

// Where an output row's pixels lie: [inBegin, inEnd) have windows inside the image's columns.
struct ColumnSpan {
  int64_t inBegin, inEnd;
};

ColumnSpan columnSpan(const DepthwiseShape& sh) {
  ColumnSpan span;
  span.inBegin = std::min(sh.ow, (sh.padLeft + sh.sw - 1) / sh.sw);
  const int64_t lastStart = sh.w - sh.k + sh.padLeft;
  span.inEnd = lastStart < 0 ? span.inBegin : std::clamp(lastStart / sh.sw + 1, span.inBegin, sh.ow);
  return span;
}

// The inner pixels [begin, end) of a row in groups of 8, then 4; the last group overlaps the one before it where
// the span is wide enough, so only a span narrower than 4 leaves pixels to go one by one. Returns where those start.
template <int K, int S, int P>
FS_AVX512 int64_t groups(const DepthwiseShape& sh, const RowJob& job, int64_t begin, int64_t end, float* outRow) {
  int64_t ox = begin;
  for (; ox + P <= end; ox += P) pixels<K, S, P>(sh, job, ox, outRow + ox * sh.c);
  if (ox < end && end - begin >= P) {
    pixels<K, S, P>(sh, job, end - P, outRow + (end - P) * sh.c);
    return end;
  }
  return ox;
}

// One output row; S 0 for a stride without a grouped form (every pixel one by one).
template <int K, int S>
FS_AVX512 void depthwiseRow(const DepthwiseShape& sh, const RowJob& job, const ColumnSpan& span, float* outRow) {
  for (int64_t ox = 0; ox < span.inBegin; ++ox) pixels<K, S, 1>(sh, job, ox, outRow + ox * sh.c);
  int64_t ox = span.inBegin;
  if constexpr (S > 0) {
    ox = span.inEnd - span.inBegin >= 8 ? groups<K, S, 8>(sh, job, ox, span.inEnd, outRow)
                                        : groups<K, S, 4>(sh, job, ox, span.inEnd, outRow);
  }
  for (; ox < sh.ow; ++ox) pixels<K, S, 1>(sh, job, ox, outRow + ox * sh.c);
}

template <int K>
FS_AVX512 void depthwiseRowOfStride(const DepthwiseShape& sh, const RowJob& job, const ColumnSpan& span,
                                    float* outRow) {
  if (sh.sw == 1)
    depthwiseRow<K, 1>(sh, job, span, outRow);
  else if (sh.sw == 2)
    depthwiseRow<K, 2>(sh, job, span, outRow);
  else
    depthwiseRow<K, 0>(sh, job, span, outRow);
}

#undef FS_UNROLLED

// A row of zeros as wide as an input row and a filter row, for window rows above and below the image (one per
// thread), on a cache line as the rows it stands for are: a vector's load from it would otherwise cross two lines.
const float* zeroRow(int64_t floats) {
  thread_local GrowingBuffer buffer;
  thread_local int64_t zeroed = 0;  // a larger buffer keeps nothing of the smaller one
  float* zeros = reinterpret_cast<float*>(buffer.atLeast(static_cast<size_t>(floats) * sizeof(float)));
  if (zeroed < floats) std::fill(zeros, zeros + floats, 0.0f);
  zeroed = std::max(zeroed, floats);
  return zeros;
}

}  // namespace

bool depthwiseNhwcRuns(const DepthwiseShape& shape) {
  return cpuHasAvx512() && (shape.k == 3 || shape.k == 5) && shape.c > 0 && shape.sh > 0 && shape.sw > 0;
}

void depthwiseNhwcRows(const DepthwiseShape& shape, const float* in, const float* filter, const float* bias,
                       DepthwiseClamp clamp, int64_t rowBegin, int64_t rowEnd, float* out, int64_t inFirstRow) {
  const ColumnSpan span = columnSpan(shape);
  const RowKernel rowKernel = chunkedRowKernel(shape);
  const int64_t rowFloats = shape.w * shape.c;
  const float* zeros = zeroRow(std::max(rowFloats, shape.k * shape.c));
  for (int64_t row = rowBegin; row < rowEnd; ++row) {
    const int64_t n = row / shape.oh, oy = row % shape.oh;
    RowJob job{{}, {}, bias, clamp};
    for (int64_t ky = 0; ky < shape.k; ++ky) {
      const int64_t iy = oy * shape.sh - shape.padTop + ky;
      const bool inside = iy >= 0 && iy < shape.h;
      job.rows[ky] = inside ? in + (n * shape.h + iy - inFirstRow) * rowFloats : zeros;
      job.filterRows[ky] = inside ? filter + ky * shape.k * shape.c : zeros;
    }
    float* outRow = out + (row - rowBegin) * shape.ow * shape.c;
    if (rowKernel)
      rowKernel(shape, job, outRow);
    else if (shape.k == 3)
      depthwiseRowOfStride<3>(shape, job, span, outRow);
    else
      depthwiseRowOfStride<5>(shape, job, span, outRow);
  }
}

void depthwiseNhwc(const DepthwiseShape& shape, const float* in, const float* filter, const float* bias,
                   DepthwiseClamp clamp, float* out) {
  parallelFor(shape.n * shape.oh, shape.ow * shape.c * shape.k * shape.k / 4, [&](int64_t begin, int64_t end) {
    depthwiseNhwcRows(shape, in, filter, bias, clamp, begin, end, out + begin * shape.ow * shape.c);
  });
}

#else

bool depthwiseNhwcRuns(const DepthwiseShape&) { return false; }
void depthwiseNhwc(const DepthwiseShape&, const float*, const float*, const float*, DepthwiseClamp, float*) {}
void depthwiseNhwcRows(const DepthwiseShape&, const float*, const float*, const float*, DepthwiseClamp, int64_t,
                       int64_t, float*, int64_t) {}

#endif

}  // namespace flowscope
