// Winograd F(4x4, 3x3) on NHWC: the transforms in AVX2 (8 channels at a time), the 36 products on weights packed once
// (winograd_products.h). B^T, G and A^T are Lavin and Gray's for the points 0, 1, -1, 2, -2 and infinity.
#include "exec/cpu/winograd_nhwc.h"

#include <algorithm>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/cpu_features.h"
#include "exec/cpu/winograd_products.h"

namespace flowscope {

namespace {

constexpr int64_t kTile = 4;     // output tile side
constexpr int64_t kAlpha = 6;    // input tile side
constexpr int64_t kPoints = 36;  // kAlpha * kAlpha: the number of matrix products
constexpr int64_t kLanes = 8;
constexpr int64_t kMinChunkTiles = 256;

int64_t tilesAlong(int64_t outputs) { return (outputs + kTile - 1) / kTile; }

// U[p][ci][ko] = (G g G^T)[p] for the 3x3 filter g of input channel ci and output channel ko (HWIO), in double.
void transformWeights(const float* filter, int64_t c, int64_t k, float* u) {
  static constexpr double G[kAlpha][3] = {{1.0 / 4, 0, 0},
                                          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                          {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                          {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                          {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                          {0, 0, 1}};
  parallelFor(c, k * 400, [&](int64_t begin, int64_t end) {
    for (int64_t ci = begin; ci < end; ++ci)
      for (int64_t ko = 0; ko < k; ++ko) {
        double gg[kAlpha][3];  // G g
        for (int64_t a = 0; a < kAlpha; ++a)
          for (int64_t x = 0; x < 3; ++x) {
            gg[a][x] = 0;
            for (int64_t y = 0; y < 3; ++y) gg[a][x] += G[a][y] * filter[((y * 3 + x) * c + ci) * k + ko];
          }
        for (int64_t a = 0; a < kAlpha; ++a)
          for (int64_t b = 0; b < kAlpha; ++b) {
            const double v = gg[a][0] * G[b][0] + gg[a][1] * G[b][1] + gg[a][2] * G[b][2];
            u[((a * kAlpha + b) * c + ci) * k + ko] = static_cast<float>(v);
          }
      }
  });
}

#if defined(__x86_64__)

// B^T times the six vectors d (a column or a row of a tile), into t.
FS_AVX2 inline void inputTransform(const __m256* d, __m256* t) {
  const __m256 two = _mm256_set1_ps(2), four = _mm256_set1_ps(4), five = _mm256_set1_ps(5);
  t[0] = _mm256_fmadd_ps(four, d[0], _mm256_fnmadd_ps(five, d[2], d[4]));
  t[1] = _mm256_fnmadd_ps(four, _mm256_add_ps(d[1], d[2]), _mm256_add_ps(d[3], d[4]));
  t[2] = _mm256_fmadd_ps(four, _mm256_sub_ps(d[1], d[2]), _mm256_sub_ps(d[4], d[3]));
  t[3] = _mm256_fmadd_ps(two, _mm256_sub_ps(d[3], d[1]), _mm256_sub_ps(d[4], d[2]));
  t[4] = _mm256_fmadd_ps(two, _mm256_sub_ps(d[1], d[3]), _mm256_sub_ps(d[4], d[2]));
  t[5] = _mm256_fmadd_ps(four, d[1], _mm256_fnmadd_ps(five, d[3], d[5]));
}

// A^T times the six vectors m, into y (four).
FS_AVX2 inline void outputTransform(const __m256* m, __m256* y) {
  const __m256 two = _mm256_set1_ps(2), four = _mm256_set1_ps(4), eight = _mm256_set1_ps(8);
  const __m256 sum12 = _mm256_add_ps(m[1], m[2]), diff12 = _mm256_sub_ps(m[1], m[2]);
  const __m256 sum34 = _mm256_add_ps(m[3], m[4]), diff34 = _mm256_sub_ps(m[3], m[4]);
  y[0] = _mm256_add_ps(_mm256_add_ps(m[0], sum12), sum34);
  y[1] = _mm256_fmadd_ps(two, diff34, diff12);
  y[2] = _mm256_fmadd_ps(four, sum34, sum12);
  y[3] = _mm256_add_ps(_mm256_fmadd_ps(eight, diff34, diff12), m[5]);
}

// Where a chunk's tile `t` lies: its batch item and the top-left corner of its output.
struct TilePlace {
  int64_t image, oy0, ox0;
};

TilePlace placeOf(const WinogradShape& s, int64_t firstImage, int64_t t) {
  const int64_t perRow = tilesAlong(s.ow), perImage = tilesAlong(s.oh) * perRow;
  const int64_t inImage = t % perImage;
  return {firstImage + t / perImage, inImage / perRow * kTile, inImage % perRow * kTile};
}

// Row t of the 36 matrices V [T, C]: B^T d B of the input tile, zeros where it overhangs the image.
FS_AVX2 void inputTile(const WinogradShape& s, const float* in, const TilePlace& at, int64_t t, int64_t tiles,
                       float* v) {
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
      inputTransform(d, r);
      for (int64_t i = 0; i < kAlpha; ++i) _mm256_store_ps(columns[i][j], r[i]);
    }
    for (int64_t i = 0; i < kAlpha; ++i) {
      for (int64_t j = 0; j < kAlpha; ++j) d[j] = _mm256_load_ps(columns[i][j]);
      inputTransform(d, r);
      for (int64_t j = 0; j < kAlpha; ++j) _mm256_storeu_ps(v + ((i * kAlpha + j) * tiles + t) * s.c + c0, r[j]);
    }
  }
}

// Tile t's output from row t of the 36 matrices M [T, ldm]: A^T m A, plus the epilogue, the pixels inside the image.
FS_AVX2 void outputTile(const WinogradShape& s, const float* m, int64_t ldm, const TilePlace& at, int64_t t,
                        int64_t tiles, const WinogradEpilogue& e, float* out) {
  const int64_t rows = std::min(kTile, s.oh - at.oy0), cols = std::min(kTile, s.ow - at.ox0);
  alignas(32) float half[kAlpha][kTile][kLanes];  // m A, [row][column]
  for (int64_t k0 = 0; k0 < s.k; k0 += kLanes) {
    __m256 x[kAlpha], y[kTile];
    for (int64_t i = 0; i < kAlpha; ++i) {
      for (int64_t j = 0; j < kAlpha; ++j) x[j] = _mm256_loadu_ps(m + ((i * kAlpha + j) * tiles + t) * ldm + k0);
      outputTransform(x, y);
      for (int64_t q = 0; q < kTile; ++q) _mm256_store_ps(half[i][q], y[q]);
    }
    const __m256 bias = e.bias ? _mm256_loadu_ps(e.bias + k0) : _mm256_setzero_ps();
    const __m256 lo = _mm256_set1_ps(e.lo), hi = _mm256_set1_ps(e.hi);
    for (int64_t q = 0; q < cols; ++q) {
      for (int64_t i = 0; i < kAlpha; ++i) x[i] = _mm256_load_ps(half[i][q]);
      outputTransform(x, y);
      for (int64_t p = 0; p < rows; ++p) {
        const int64_t at_ = ((at.image * s.oh + at.oy0 + p) * s.ow + at.ox0 + q) * s.k + k0;
        __m256 value = _mm256_add_ps(y[p], bias);
        if (e.addend) value = _mm256_add_ps(value, _mm256_loadu_ps(e.addend + at_));
        if (e.clamp) value = _mm256_min_ps(_mm256_max_ps(value, lo), hi);  // max(NaN, lo) is lo
        _mm256_storeu_ps(out + at_, value);
      }
    }
  }
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

}  // namespace

struct WinogradNhwc::State {
  WinogradShape shape;
  const float* filter = nullptr;
  std::vector<float> packed;     // the transformed weights in panels (winograd_products.h)
  int64_t imagesPerChunk = 1;    // the last chunk may have fewer
  int64_t vSize = 0, mSize = 0;  // one chunk's transformed tiles [36][T][C] and products [36][T][panels * 16]
};

WinogradNhwc::WinogradNhwc() = default;
WinogradNhwc::~WinogradNhwc() = default;

bool winogradNhwcRuns(const WinogradShape& shape) {
  return cpuHasAvx2Fma() && shape.c > 0 && shape.k > 0 && shape.c % kLanes == 0 && shape.k % kLanes == 0 &&
         shape.oh > 0 && shape.ow > 0;
}

Status WinogradNhwc::prepare(const WinogradShape& shape, const float* filter) {
  if (m_state && m_state->shape == shape && m_state->filter == filter) return Status::ok();
  auto state = std::make_unique<State>();
  state->shape = shape;
  state->filter = filter;
  const int64_t perImage = tilesAlong(shape.oh) * tilesAlong(shape.ow);
  state->imagesPerChunk = std::clamp<int64_t>((kMinChunkTiles + perImage - 1) / perImage, 1, shape.n);
  const int64_t chunkTiles = state->imagesPerChunk * perImage, panels = winogradPanels(shape.k);
  std::vector<float> u(kPoints * shape.c * shape.k);
  transformWeights(filter, shape.c, shape.k, u.data());
  state->packed.resize(kPoints * panels * kWinogradPanel * shape.c);
  packWinogradWeights(u.data(), kPoints, shape.c, shape.k, state->packed.data());
  state->vSize = kPoints * chunkTiles * shape.c;
  state->mSize = kPoints * chunkTiles * panels * kWinogradPanel;
  m_state = std::move(state);
  return Status::ok();
}

void WinogradNhwc::run(const float* in, const WinogradEpilogue& epilogue, float* out) {
#if defined(__x86_64__)
  State& st = *m_state;
  const WinogradShape& s = st.shape;
  const int64_t perImage = tilesAlong(s.oh) * tilesAlong(s.ow), panels = winogradPanels(s.k);
  float* v = threadScratch(st.vSize + st.mSize);
  float* m = v + st.vSize;
  for (int64_t first = 0; first < s.n; first += st.imagesPerChunk) {
    const int64_t tiles = std::min(st.imagesPerChunk, s.n - first) * perImage;
    parallelFor(tiles, kPoints * s.c * 4, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) inputTile(s, in, placeOf(s, first, t), t, tiles, v);
    });
    winogradProducts(v, st.packed.data(), kPoints, tiles, s.c, panels, m);
    parallelFor(tiles, kPoints * s.k * 4, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t)
        outputTile(s, m, panels * kWinogradPanel, placeOf(s, first, t), t, tiles, epilogue, out);
    });
  }
#else
  (void)in, (void)epilogue, (void)out;
#endif
}

}  // namespace flowscope
