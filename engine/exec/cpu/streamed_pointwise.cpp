// The streamed 1x1 convolution's AVX-512 kernel (compiled for it alone, chosen at run time).
#include "exec/cpu/streamed_pointwise.h"

#include <algorithm>
#include <array>
#include <utility>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {
namespace {

constexpr int64_t kLanes = 16;
constexpr int64_t kPanel = 64;  // output channels of a full panel: four vectors
constexpr int kTile = 7;        // pixels summed at once
constexpr int64_t kLine = 64;   // bytes of a cache line
constexpr int64_t kMaxPixels = 64, kMinWeightBytes = int64_t{256} << 10;

}  // namespace

bool streamedPointwiseRuns(const StreamedPointwiseShape& s) {
  return cpuHasAvx512() && s.pixels >= 1 && s.pixels <= kMaxPixels && s.c >= 1 && s.k >= kLanes && s.k % kLanes == 0 &&
         s.c * s.k * int64_t{sizeof(float)} >= kMinWeightBytes;
}

void StreamedPointwise::prepare(const StreamedPointwiseShape& shape, const float* filter, int threads) {
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, shape.k / kLanes));
  if (shape == m_shape && filter == m_filter && threads == m_threads && m_packed.size()) return;
  m_shape = shape;
  m_filter = filter;
  m_threads = threads;
  m_panels.clear();
  m_threadPanels.assign(1, 0);
  const int64_t vectors = shape.k / kLanes;
  int64_t offset = 0;
  for (int t = 0; t < threads; ++t) {
    const int64_t end = vectors * (t + 1) / threads * kLanes;
    for (int64_t first = vectors * t / threads * kLanes; first < end; first += kPanel) {
      const int64_t width = std::min(kPanel, end - first);
      m_panels.push_back({first, width, offset});
      offset += shape.c * width;
    }
    m_threadPanels.push_back(m_panels.size());
  }
  m_packed = PackedBytes(static_cast<size_t>(offset) * sizeof(float));
  float* packed = static_cast<float*>(m_packed.data());
  for (const Panel& p : m_panels)
    for (int64_t ic = 0; ic < shape.c; ++ic)
      std::copy_n(filter + ic * shape.k + p.first, p.width, packed + p.offset + ic * p.width);
}

#if defined(__x86_64__)
namespace {

#define FS_INLINE_AVX512 __attribute__((always_inline, target("avx512f,fma")))

// One tile's job: R pixels from `in` (rows of c floats) against a panel of V vectors, and the lines of the next panel
// it prefetches (`perStep` at each input channel, `lines` in all).
struct TileJob {
  const float* in;
  int64_t c;
  const float* weights;  // [c][V * 16]
  const char* prefetch;
  int64_t lines, perStep;
};

// out[r][0:16V] = epilogue(bias + sum over ic of in[r][ic] * w[ic][0:16V]) for the tile's R pixels, the sums in
// registers (an array of vectors that GCC keeps in them, every index being a constant after unrolling).
template <int R, int V>
FS_INLINE_AVX512 inline void tile(const TileJob& job, const ConvEpilogue& e, int64_t first, int64_t k, float* out) {
  __m512 sums[R][V];
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) {
    const __m512 b = e.bias ? _mm512_loadu_ps(e.bias + first + v * kLanes) : _mm512_setzero_ps();
#pragma GCC unroll 7
    for (int r = 0; r < R; ++r) sums[r][v] = b;
  }
  for (int64_t ic = 0; ic < job.c; ++ic) {
    for (int64_t l = ic * job.perStep; l < std::min(job.lines, (ic + 1) * job.perStep); ++l)
      _mm_prefetch(job.prefetch + l * kLine, _MM_HINT_T1);
    __m512 w[V];
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) w[v] = _mm512_loadu_ps(job.weights + (ic * V + v) * kLanes);
#pragma GCC unroll 7
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_set1_ps(job.in[r * job.c + ic]);
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) sums[r][v] = _mm512_fmadd_ps(x, w[v], sums[r][v]);
    }
  }
  const __m512 lo = _mm512_set1_ps(e.lo), hi = _mm512_set1_ps(e.hi);
#pragma GCC unroll 7
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      const int64_t at = r * k + first + v * kLanes;
      __m512 s = sums[r][v];
      if (e.addend) s = _mm512_add_ps(s, _mm512_loadu_ps(e.addend + at));
      if (e.clamp)  // the zero-masked forms: GCC 12's plain ones warn of their own operand; max gives lo for a NaN
        s = _mm512_maskz_min_ps(0xffff, _mm512_maskz_max_ps(0xffff, s, lo), hi);
      _mm512_storeu_ps(out + at, s);
    }
}

template <int R, int V>
FS_AVX512 __attribute__((noinline)) void tileOf(const TileJob& job, const ConvEpilogue& e, int64_t first, int64_t k,
                                                float* out) {
  tile<R, V>(job, e, first, k, out);
}

using TileKernel = void (*)(const TileJob&, const ConvEpilogue&, int64_t, int64_t, float*);

// kTiles[V - 1][R - 1]: the tile of R pixels over a panel of V vectors.
template <int V, int... R>
constexpr std::array<TileKernel, kTile> tilesOf(std::integer_sequence<int, R...>) {
  return {tileOf<R + 1, V>...};
}
constexpr std::array<TileKernel, kTile> kTiles[4] = {
    tilesOf<1>(std::make_integer_sequence<int, kTile>{}), tilesOf<2>(std::make_integer_sequence<int, kTile>{}),
    tilesOf<3>(std::make_integer_sequence<int, kTile>{}), tilesOf<4>(std::make_integer_sequence<int, kTile>{})};

#undef FS_INLINE_AVX512

}  // namespace

void StreamedPointwise::run(const float* in, const ConvEpilogue& epilogue, float* out) const {
  const StreamedPointwiseShape& s = m_shape;
  const float* packed = static_cast<const float*>(m_packed.data());
  const int64_t tiles = (s.pixels + kTile - 1) / kTile;
  parallelFor(m_threads, s.pixels * s.c * s.k / m_threads, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const size_t last = m_threadPanels[static_cast<size_t>(t) + 1];
      for (size_t p = m_threadPanels[static_cast<size_t>(t)]; p < last; ++p) {
        const Panel& panel = m_panels[p];
        // The thread's next panel, a tile's share of its lines in each tile.
        const int64_t nextLines = p + 1 < last ? m_panels[p + 1].width * s.c * int64_t{sizeof(float)} / kLine : 0;
        const int64_t share = (nextLines + tiles - 1) / tiles, perStep = (share + s.c - 1) / s.c;
        const char* next = reinterpret_cast<const char*>(packed + (p + 1 < last ? m_panels[p + 1].offset : 0));
        const auto& kernels = kTiles[panel.width / kLanes - 1];
        for (int64_t tile = 0; tile < tiles; ++tile) {
          const int64_t pixel = tile * kTile, rows = std::min<int64_t>(kTile, s.pixels - pixel);
          const int64_t lines = std::clamp(nextLines - tile * share, int64_t{0}, share);
          const TileJob job{in + pixel * s.c, s.c, packed + panel.offset, next + tile * share * kLine, lines, perStep};
          ConvEpilogue e = epilogue;
          if (e.addend) e.addend += pixel * s.k;
          kernels[static_cast<size_t>(rows - 1)](job, e, panel.first, s.k, out + pixel * s.k);
        }
      }
    }
  });
}

#else

void StreamedPointwise::run(const float*, const ConvEpilogue&, float*) const {}

#endif

}  // namespace flowscope
