// Winograd F(4x4, 3x3) or F(2x2, 3x3) on NHWC: the transforms in AVX2 (8 channels at a time), the products on weights
// packed once (winograd_products.h). The variants' matrices are in winograd_transforms.h.
#include "exec/cpu/winograd_nhwc.h"

#include <algorithm>
#include <vector>

#include "base/settings.h"
#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"
#include "exec/cpu/streamed_pointwise.h"
#include "exec/cpu/winograd_products.h"
#include "exec/cpu/winograd_transforms.h"

namespace flowscope {

namespace {

using winograd::F2x2;
using winograd::F4x4;

constexpr int64_t kLanes = 8;
constexpr int64_t kMinChunkTiles = 256;

template <typename V>
constexpr int64_t kPoints = V::kAlpha* V::kAlpha;  // the number of matrix products

int64_t tilesAlong(int64_t outputs, int64_t tile) { return (outputs + tile - 1) / tile; }

// Below 28x28 outputs F(2x2, 3x3): F(4x4, 3x3)'s few tiles (16 on 14x14) fill the products' 6-row blocks poorly and
// overhang the image, and its transformed weights (36/9 of the filter's, 37.7 MB for a 512-channel layer) come from
// memory on every run, where F(2x2, 3x3)'s are 16/9. ResNet-18's 14x14 layers took 15% less time with it at 1 thread
// and about the same at 2 (alternating runs, AMD Zen 3); its 7x7 ones 0.74-0.88 of the direct time.
int64_t tileFor(const WinogradShape& s) { return s.oh * s.ow >= 28 * 28 ? F4x4::kTile : F2x2::kTile; }

int64_t tilesPerImage(const WinogradShape& s, int64_t tile) { return tilesAlong(s.oh, tile) * tilesAlong(s.ow, tile); }

// Images go through in chunks of at least kMinChunkTiles tiles (the last chunk may have fewer images).
int64_t imagesPerChunk(const WinogradShape& s, int64_t perImage) {
  return std::clamp<int64_t>((kMinChunkTiles + perImage - 1) / perImage, 1, s.n);
}

// Below 32 tiles each transformed weight serves too few products to pay for reading 16/9 of the direct weights from
// memory: ResNet-18's 7x7 layers (16 tiles) took 2.43-2.49 ms against 1.89-2.0 direct (small_image_conv.h), where
// its 14x14 layers (49 tiles) took 1.16-1.21 ms against oneDNN's Winograd's 1.71-1.81 (Xeon, 1 thread). On more
// threads each one's share of oneDNN's transformed weights (2.1 MB for those layers at 2) about fits its L2 cache,
// and oneDNN's kernel no longer waits on memory: 0.62-0.72 ms a layer at 2 threads against our 0.72-0.84 (and the
// whole model 1.02-1.03 of its time, paired), so only a single-threaded run takes this path.
constexpr int64_t kMinStreamedTiles = 32;

// U[p][ci][ko] = (G g G^T)[p] for the 3x3 filter g of input channel ci and output channel ko (HWIO), in double.
template <typename V>
void transformWeights(const float* filter, int64_t c, int64_t k, float* u) {
  constexpr int64_t alpha = V::kAlpha;
  parallelFor(c, k * 400, [&](int64_t begin, int64_t end) {
    for (int64_t ci = begin; ci < end; ++ci)
      for (int64_t ko = 0; ko < k; ++ko) {
        double gg[alpha][3];  // G g
        for (int64_t a = 0; a < alpha; ++a)
          for (int64_t x = 0; x < 3; ++x) {
            gg[a][x] = 0;
            for (int64_t y = 0; y < 3; ++y) gg[a][x] += V::G[a][y] * filter[((y * 3 + x) * c + ci) * k + ko];
          }
        for (int64_t a = 0; a < alpha; ++a)
          for (int64_t b = 0; b < alpha; ++b) {
            const double v = gg[a][0] * V::G[b][0] + gg[a][1] * V::G[b][1] + gg[a][2] * V::G[b][2];
            u[((a * alpha + b) * c + ci) * k + ko] = static_cast<float>(v);
          }
      }
  });
}

#if defined(__x86_64__)

// Where a chunk's tile `t` lies: its batch item and the top-left corner of its output.
struct TilePlace {
  int64_t image, oy0, ox0;
};

TilePlace placeOf(const WinogradShape& s, int64_t tile, int64_t firstImage, int64_t t) {
  const int64_t perRow = tilesAlong(s.ow, tile), perImage = tilesAlong(s.oh, tile) * perRow;
  const int64_t inImage = t % perImage;
  return {firstImage + t / perImage, inImage / perRow * tile, inImage % perRow * tile};
}

// Row t of the matrices V [T, C]: B^T d B of the input tile, zeros where it overhangs the image.
template <typename V>
FS_AVX2 void inputTile(const WinogradShape& s, const float* in, const TilePlace& at, int64_t t, int64_t tiles,
                       float* v) {
  constexpr int64_t kAlpha = V::kAlpha;
  const float* cell[kAlpha][kAlpha];  // the input pixels under the tile, null in the padding
  for (int64_t i = 0; i < kAlpha; ++i)
    for (int64_t j = 0; j < kAlpha; ++j) {
      const int64_t iy = at.oy0 + i - s.padTop, ix = at.ox0 + j - s.padLeft;
      const bool inside = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
      cell[i][j] = inside ? in + ((at.image * s.h + iy) * s.w + ix) * s.c : nullptr;
    }
  alignas(32) float columns[kAlpha][kAlpha][kLanes];  // B^T d, [row][column]
  for (int64_t c0 = 0; c0 < s.c; c0 += kLanes) {
    __m256 d[kAlpha], r[kAlpha];
    for (int64_t j = 0; j < kAlpha; ++j) {
      for (int64_t i = 0; i < kAlpha; ++i) d[i] = cell[i][j] ? _mm256_loadu_ps(cell[i][j] + c0) : _mm256_setzero_ps();
      V::input(d, r);
      for (int64_t i = 0; i < kAlpha; ++i) _mm256_store_ps(columns[i][j], r[i]);
    }
    for (int64_t i = 0; i < kAlpha; ++i) {
      for (int64_t j = 0; j < kAlpha; ++j) d[j] = _mm256_load_ps(columns[i][j]);
      V::input(d, r);
      for (int64_t j = 0; j < kAlpha; ++j) _mm256_storeu_ps(v + ((i * kAlpha + j) * tiles + t) * s.c + c0, r[j]);
    }
  }
}

// Tile t's output from row t of the matrices M [T, ldm]: A^T m A, plus the epilogue, the pixels inside the image.
template <typename V>
FS_AVX2 void outputTile(const WinogradShape& s, const float* m, int64_t ldm, const TilePlace& at, int64_t t,
                        int64_t tiles, const ConvEpilogue& e, float* out) {
  constexpr int64_t kAlpha = V::kAlpha, kTile = V::kTile;
  const int64_t rows = std::min(kTile, s.oh - at.oy0), cols = std::min(kTile, s.ow - at.ox0);
  alignas(32) float half[kAlpha][kTile][kLanes];  // m A, [row][column]
  for (int64_t k0 = 0; k0 < s.k; k0 += kLanes) {
    __m256 x[kAlpha], y[kTile];
    for (int64_t i = 0; i < kAlpha; ++i) {
      for (int64_t j = 0; j < kAlpha; ++j) x[j] = _mm256_loadu_ps(m + ((i * kAlpha + j) * tiles + t) * ldm + k0);
      V::output(x, y);
      for (int64_t q = 0; q < kTile; ++q) _mm256_store_ps(half[i][q], y[q]);
    }
    const __m256 bias = e.bias ? _mm256_loadu_ps(e.bias + k0) : _mm256_setzero_ps();
    const __m256 lo = _mm256_set1_ps(e.lo), hi = _mm256_set1_ps(e.hi);
    for (int64_t q = 0; q < cols; ++q) {
      for (int64_t i = 0; i < kAlpha; ++i) x[i] = _mm256_load_ps(half[i][q]);
      V::output(x, y);
      for (int64_t p = 0; p < rows; ++p) {
        const int64_t pixel = ((at.image * s.oh + at.oy0 + p) * s.ow + at.ox0 + q) * s.k + k0;
        __m256 value = _mm256_add_ps(y[p], bias);
        if (e.addend) value = _mm256_add_ps(value, _mm256_loadu_ps(e.addend + pixel));
        if (e.clamp) value = _mm256_min_ps(_mm256_max_ps(value, lo), hi);  // max(NaN, lo) is lo
        _mm256_storeu_ps(out + pixel, value);
      }
    }
  }
}

#endif

// The transformed weights, packed for the products: in panels for the AVX2 kernel (winograd_products.h), or where
// winogradStreamsProducts, for one streamed 1x1 kernel per point (streamed_pointwise.h).
struct WinogradWeights {
  std::vector<float> packed;
  std::vector<StreamedPointwise> streamed;  // one per point, or none

  void prepare(const float* u, int64_t points, const StreamedPointwiseShape& perPoint) {
    if (streamedPointwiseRuns(perPoint)) {
      streamed.resize(static_cast<size_t>(points));
      for (int64_t p = 0; p < points; ++p)
        streamed[static_cast<size_t>(p)].prepare(perPoint, u + p * perPoint.c * perPoint.k, intraOpThreads());
      return;
    }
    packed.resize(points * winogradPanels(perPoint.k) * kWinogradPanel * perPoint.c);
    packWinogradWeights(u, points, perPoint.c, perPoint.k, packed.data());
  }

  // m [points][tiles][panels * 16] = the products of v [points][tiles][c] and the weights.
  void products(const float* v, int64_t points, int64_t tiles, int64_t c, int64_t k, float* m) const {
    if (streamed.empty()) return winogradProducts(v, packed.data(), points, tiles, c, winogradPanels(k), m);
    for (int64_t p = 0; p < points; ++p)
      streamed[static_cast<size_t>(p)].run(v + p * tiles * c, ConvEpilogue{}, m + p * tiles * k);
  }
};

#if defined(__x86_64__)

// One chunk of images, `tiles` tiles from image `first` on, through the three steps; v and m hold its tiles and
// products.
template <typename V>
void runChunk(const WinogradShape& s, const WinogradWeights& weights, const float* in, int64_t first, int64_t tiles,
              const ConvEpilogue& epilogue, float* v, float* m, float* out) {
  const int64_t panels = winogradPanels(s.k);
  parallelFor(tiles, kPoints<V> * s.c * 4, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) inputTile<V>(s, in, placeOf(s, V::kTile, first, t), t, tiles, v);
  });
  weights.products(v, kPoints<V>, tiles, s.c, s.k, m);
  parallelFor(tiles, kPoints<V> * s.k * 4, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t)
      outputTile<V>(s, m, panels * kWinogradPanel, placeOf(s, V::kTile, first, t), t, tiles, epilogue, out);
  });
}

#endif

// The calling thread's buffer for a chunk's tiles and products, grown to `floats`: every Winograd convolution a thread
// runs shares it, so it stays in the caches (a buffer per node was 23 MB for ResNet-18, and evicted the weights of the
// direct layers after them).
float* threadScratch(int64_t floats) {
  thread_local std::vector<float> buffer;
  if (static_cast<int64_t>(buffer.size()) < floats) buffer.resize(floats);
  return buffer.data();
}

template <typename V>
int64_t flopsOf(const WinogradShape& s) {
  const int64_t tiles = s.n * tilesAlong(s.oh, V::kTile) * tilesAlong(s.ow, V::kTile);
  return 2 * kPoints<V> * tiles * s.c * s.k + tiles * s.c * 2 * V::kAlpha * V::kInputFlops +
         tiles * s.k * (V::kAlpha + V::kTile) * V::kOutputFlops;
}

}  // namespace

struct WinogradNhwc::State {
  WinogradShape shape;
  const float* filter = nullptr;
  int64_t tile = 0;  // F4x4::kTile or F2x2::kTile
  int threads = 0;   // the intra-op threads the weights were packed for
  WinogradWeights weights;
  int64_t imagesPerChunk = 1;    // the last chunk may have fewer
  int64_t vSize = 0, mSize = 0;  // one chunk's transformed tiles [points][T][C] and products [points][T][panels * 16]
};

WinogradNhwc::WinogradNhwc() = default;
WinogradNhwc::~WinogradNhwc() = default;

bool winogradNhwcRuns(const WinogradShape& shape) {
  return cpuHasAvx2Fma() && shape.c > 0 && shape.k > 0 && shape.c % kLanes == 0 && shape.k % kLanes == 0 &&
         shape.oh > 0 && shape.ow > 0;
}

bool winogradStreamsProducts(const WinogradShape& shape) {
  static const bool enabled = settingOn("FLOWSCOPE_STREAMED_WINOGRAD");
  if (!enabled || intraOpThreads() != 1 || !winogradNhwcRuns(shape) || tileFor(shape) != F2x2::kTile) return false;
  const int64_t perImage = tilesPerImage(shape, F2x2::kTile), images = imagesPerChunk(shape, perImage);
  return images == shape.n && images * perImage >= kMinStreamedTiles &&
         streamedPointwiseRuns({images * perImage, shape.c, shape.k});
}

int64_t winogradFlops(const WinogradShape& shape, int64_t tile) {
  return tile == F4x4::kTile ? flopsOf<F4x4>(shape) : flopsOf<F2x2>(shape);
}

Status WinogradNhwc::prepare(const WinogradShape& shape, const float* filter) {
  if (m_state && m_state->shape == shape && m_state->filter == filter && m_state->threads == intraOpThreads())
    return Status::ok();
  auto state = std::make_unique<State>();
  state->shape = shape;
  state->filter = filter;
  state->threads = intraOpThreads();
  state->tile = tileFor(shape);
  const bool four = state->tile == F4x4::kTile;
  const int64_t points = four ? kPoints<F4x4> : kPoints<F2x2>;
  const int64_t perImage = tilesPerImage(shape, state->tile);
  state->imagesPerChunk = imagesPerChunk(shape, perImage);
  const int64_t chunkTiles = state->imagesPerChunk * perImage, panels = winogradPanels(shape.k);
  std::vector<float> u(points * shape.c * shape.k);
  if (four)
    transformWeights<F4x4>(filter, shape.c, shape.k, u.data());
  else
    transformWeights<F2x2>(filter, shape.c, shape.k, u.data());
  state->weights.prepare(u.data(), points, {winogradStreamsProducts(shape) ? chunkTiles : 0, shape.c, shape.k});
  state->vSize = points * chunkTiles * shape.c;
  state->mSize = points * chunkTiles * panels * kWinogradPanel;
  m_state = std::move(state);
  return Status::ok();
}

int64_t WinogradNhwc::tile() const { return m_state ? m_state->tile : 0; }

void WinogradNhwc::run(const float* in, const ConvEpilogue& epilogue, float* out) {
#if defined(__x86_64__)
  State& st = *m_state;
  const WinogradShape& s = st.shape;
  const int64_t perImage = tilesPerImage(s, st.tile);
  float* v = threadScratch(st.vSize + st.mSize);
  float* m = v + st.vSize;
  for (int64_t first = 0; first < s.n; first += st.imagesPerChunk) {
    const int64_t tiles = std::min(st.imagesPerChunk, s.n - first) * perImage;
    if (st.tile == F4x4::kTile)
      runChunk<F4x4>(s, st.weights, in, first, tiles, epilogue, v, m, out);
    else
      runChunk<F2x2>(s, st.weights, in, first, tiles, epilogue, v, m, out);
  }
#else
  (void)in, (void)epilogue, (void)out;
#endif
}

}  // namespace flowscope
