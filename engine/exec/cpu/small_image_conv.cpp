// The small-image convolution's AVX-512 kernel (compiled for it alone, chosen at run time).
#include "exec/cpu/small_image_conv.h"

#include <algorithm>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {
namespace {

constexpr int64_t kBlock = 64;  // output channels of a weight block: four vectors
constexpr int kWidth = 7;       // output pixels of a row
constexpr int64_t kLine = 64;   // bytes of a cache line

// The output pixels [first, end) of a row whose window column kx lies inside the image.
struct PixelRange {
  int first = 0, end = 0;
};

PixelRange pixelRange(const SmallImageConvShape& s, int64_t kx) {
  PixelRange r{0, kWidth};
  while (r.first < kWidth && r.first * s.stride - s.padLeft + kx < 0) ++r.first;
  while (r.end > r.first && (r.end - 1) * s.stride - s.padLeft + kx >= s.w) --r.end;
  return r;
}

bool rangeHasKernel(const PixelRange& r) { return (r.first == 0 || r.first == 1) && (r.end == 6 || r.end == 7); }

}  // namespace

bool smallImageConvRuns(const SmallImageConvShape& s) {
  if (!cpuHasAvx512() || (s.stride != 1 && s.stride != 2) || s.ow != kWidth || s.oh < 1 || s.n < 1 || s.c < 1 ||
      s.k % kBlock != 0 || s.c * s.k * 9 * int64_t{sizeof(float)} < (int64_t{2} << 20))
    return false;
  for (int64_t kx = 0; kx < 3; ++kx)
    if (!rangeHasKernel(pixelRange(s, kx))) return false;
  return true;
}

void SmallImageConv::prepare(const SmallImageConvShape& shape, const float* filter) {
  if (shape == m_shape && filter == m_filter && !m_packed.empty()) return;
  m_shape = shape;
  m_filter = filter;
  const int64_t c = shape.c, k = shape.k;
  m_packed.resize(static_cast<size_t>(9 * c * k));
  float* packed = m_packed.data();
  for (int64_t nb = 0; nb < k / kBlock; ++nb)
    for (int64_t t = 0; t < 9; ++t)
      for (int64_t ic = 0; ic < c; ++ic)
        std::copy_n(filter + (t * c + ic) * k + nb * kBlock, kBlock, packed + ((nb * 9 + t) * c + ic) * kBlock);
}

#if defined(__x86_64__)
namespace {

#define FS_INLINE_AVX512 __attribute__((always_inline, target("avx512f,fma")))

// Where a tap's row of sums reads its inputs and weights, and which of the next tap's weight lines it prefetches.
struct TapRow {
  const float* pixels;   // the first pixel's input
  int64_t step;          // floats from one pixel's input to the next
  const float* weights;  // [C][64]
  int64_t c;
  const char* prefetch;  // null for none
  int64_t prefetchLines;
};

// One tap over one output row, pixels [First, End): sums[x] += in[x][ic] * w[ic][0:64] over the input channels, the
// sums in registers (an array of vectors GCC keeps in them, every index being a constant after unrolling; with 7
// pixels, 28 sums, 4 weight vectors and the broadcast need 33 of the 32, and one sum goes through the stack).
template <int First, int End>
FS_INLINE_AVX512 inline void tapRow(const TapRow& job, float* rowSums) {
  __m512 sums[kWidth][4];
#pragma GCC unroll 7
  for (int x = First; x < End; ++x)
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) sums[x][j] = _mm512_loadu_ps(rowSums + x * kBlock + 16 * j);
  for (int64_t ic = 0; ic < job.c; ++ic) {
    if (ic < job.prefetchLines) _mm_prefetch(job.prefetch + ic * kLine, _MM_HINT_T1);
    const float* w = job.weights + ic * kBlock;
    const __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + 16), w2 = _mm512_loadu_ps(w + 32),
                 w3 = _mm512_loadu_ps(w + 48);
#pragma GCC unroll 7
    for (int x = First; x < End; ++x) {
      const __m512 in = _mm512_set1_ps(job.pixels[(x - First) * job.step + ic]);
      sums[x][0] = _mm512_fmadd_ps(in, w0, sums[x][0]);
      sums[x][1] = _mm512_fmadd_ps(in, w1, sums[x][1]);
      sums[x][2] = _mm512_fmadd_ps(in, w2, sums[x][2]);
      sums[x][3] = _mm512_fmadd_ps(in, w3, sums[x][3]);
    }
  }
#pragma GCC unroll 7
  for (int x = First; x < End; ++x)
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) _mm512_storeu_ps(rowSums + x * kBlock + 16 * j, sums[x][j]);
}

FS_AVX512 __attribute__((noinline)) void tapRowOver(const PixelRange& r, const TapRow& job, float* rowSums) {
  if (r.first == 0 && r.end == 7)
    tapRow<0, 7>(job, rowSums);
  else if (r.first == 1 && r.end == 7)
    tapRow<1, 7>(job, rowSums);
  else if (r.first == 0)
    tapRow<0, 6>(job, rowSums);
  else
    tapRow<1, 6>(job, rowSums);
}

FS_AVX512 void prefetchLines(const char* p, int64_t lines) {
  for (int64_t l = 0; l < lines; ++l) _mm_prefetch(p + l * kLine, _MM_HINT_T1);
}

// One thread's share: weight block nb of image b, output rows [rowBegin, rowEnd).
struct BlockJob {
  int64_t b, nb, rowBegin, rowEnd;
};

// sums[row][x][0:64] = the bias, or zeros.
void startSums(const ConvEpilogue& e, const BlockJob& job, float* sums) {
  for (int64_t px = 0; px < (job.rowEnd - job.rowBegin) * kWidth; ++px)
    for (int64_t j = 0; j < kBlock; ++j) sums[px * kBlock + j] = e.bias ? e.bias[job.nb * kBlock + j] : 0.0f;
}

FS_AVX512 void writeSums(const SmallImageConvShape& s, const ConvEpilogue& e, const BlockJob& job, const float* sums,
                         float* out) {
  const __m512 lo = _mm512_set1_ps(e.lo), hi = _mm512_set1_ps(e.hi);
  for (int64_t px = 0; px < (job.rowEnd - job.rowBegin) * kWidth; ++px) {
    const int64_t at = ((job.b * s.oh + job.rowBegin) * kWidth + px) * s.k + job.nb * kBlock;
    for (int64_t j = 0; j < kBlock; j += 16) {
      __m512 v = _mm512_loadu_ps(sums + px * kBlock + j);
      if (e.addend) v = _mm512_add_ps(v, _mm512_loadu_ps(e.addend + at + j));
      if (e.clamp)  // the zero-masked forms: GCC 12's plain ones warn of their own operand; max gives lo for a NaN
        v = _mm512_maskz_min_ps(0xffff, _mm512_maskz_max_ps(0xffff, v, lo), hi);
      _mm512_storeu_ps(out + at + j, v);
    }
  }
}

// A job's taps one after another over its rows, the next tap's weights prefetched a row's share at a time (the
// block after a block's last tap is the next block's first).
FS_AVX512 void convolveBlock(const SmallImageConvShape& s, const std::vector<float>& packed, const float* in,
                             const ConvEpilogue& e, const BlockJob& job, float* sums, float* out) {
  startSums(e, job, sums);
  const int64_t rows = job.rowEnd - job.rowBegin;
  const int64_t tapFloats = s.c * kBlock, tapLines = tapFloats * int64_t{sizeof(float)} / kLine;
  const int64_t share = (tapLines + rows - 1) / rows;
  const float* end = packed.data() + packed.size();
  for (int64_t t = 0; t < 9; ++t) {
    const int64_t ky = t / 3, kx = t % 3;
    const PixelRange range = pixelRange(s, kx);
    const float* weights = packed.data() + (job.nb * 9 + t) * tapFloats;
    const char* next = weights + tapFloats < end ? reinterpret_cast<const char*>(weights + tapFloats) : nullptr;
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t lines = next ? std::clamp(tapLines - row * share, int64_t{0}, share) : 0;
      const char* prefetch = next ? next + row * share * kLine : nullptr;
      const int64_t iy = (job.rowBegin + row) * s.stride - s.padTop + ky;
      if (iy < 0 || iy >= s.h) {
        prefetchLines(prefetch, lines);
        continue;
      }
      const int64_t ix = range.first * s.stride - s.padLeft + kx;
      const TapRow tap{in + ((job.b * s.h + iy) * s.w + ix) * s.c, s.stride * s.c, weights, s.c, prefetch, lines};
      tapRowOver(range, tap, sums + row * kWidth * kBlock);
    }
  }
  writeSums(s, e, job, sums, out);
}

#undef FS_INLINE_AVX512

}  // namespace

void SmallImageConv::run(const float* in, const ConvEpilogue& epilogue, float* out) const {
  const SmallImageConvShape& s = m_shape;
  // Blocks of every image first; where they are fewer than the threads (ResNet's 512 outputs are 8 blocks), each
  // block's rows are split too, and those threads read its weights once each.
  const int64_t blocks = s.k / kBlock, items = s.n * blocks;
  const int64_t wanted = std::clamp<int64_t>((intraOpThreads() + items - 1) / items, 1, s.oh);  // row groups
  const int64_t groupRows = (s.oh + wanted - 1) / wanted, groups = (s.oh + groupRows - 1) / groupRows;
  parallelFor(items * groups, groupRows * kWidth * kBlock * 9 * s.c, [&](int64_t begin, int64_t end) {
    thread_local std::vector<float> sums;
    sums.resize(static_cast<size_t>(groupRows * kWidth * kBlock));
    for (int64_t i = begin; i < end; ++i) {
      const int64_t item = i / groups, rowBegin = i % groups * groupRows;
      const BlockJob job{item / blocks, item % blocks, rowBegin, std::min(s.oh, rowBegin + groupRows)};
      convolveBlock(s, m_packed, in, epilogue, job, sums.data(), out);
    }
  });
}

#else

void SmallImageConv::run(const float*, const ConvEpilogue&, float*) const {}

#endif

}  // namespace flowscope
