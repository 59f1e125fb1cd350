// Image kernels: ResizeBilinear / ResizeNearestNeighbor (align_corners, half_pixel_centers). Non-max suppression is
// in nms_ops.cpp.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

float sourceCoord(int64_t out, float scale, bool halfPixel) {
  return halfPixel ? (static_cast<float>(out) + 0.5f) * scale - 0.5f : static_cast<float>(out) * scale;
}

// Where output coordinate `o` samples the input along one axis: the two neighbours and the weight of the second.
struct Tap {
  int64_t lo = 0, hi = 0;
  float frac = 0;
};

std::vector<Tap> bilinearTaps(int64_t outSize, int64_t inSize, float scale, bool halfPixel) {
  std::vector<Tap> taps(static_cast<size_t>(outSize));
  for (int64_t o = 0; o < outSize; ++o) {
    const float f = std::max(0.0f, sourceCoord(o, scale, halfPixel));
    Tap& t = taps[static_cast<size_t>(o)];
    t.lo = std::min<int64_t>(static_cast<int64_t>(f), inSize - 1);
    t.hi = std::min(t.lo + 1, inSize - 1);
    t.frac = f - static_cast<float>(t.lo);
  }
  return taps;
}

std::vector<int64_t> nearestTaps(int64_t outSize, int64_t inSize, float scale, bool halfPixel, bool align) {
  std::vector<int64_t> taps(static_cast<size_t>(outSize));
  for (int64_t o = 0; o < outSize; ++o) {
    const float f = halfPixel ? (static_cast<float>(o) + 0.5f) * scale : static_cast<float>(o) * scale;
    const auto v = align ? static_cast<int64_t>(std::round(f)) : static_cast<int64_t>(std::floor(f));
    taps[static_cast<size_t>(o)] = std::min(std::max<int64_t>(v, 0), inSize - 1);
  }
  return taps;
}

struct ResizeGeometry {
  int64_t n = 0, h = 0, w = 0, c = 0, oh = 0, ow = 0;
  float scaleH = 1, scaleW = 1;
  bool align = false, halfPixel = false;
};

// One source row interpolated along x: every output column's blend of its two neighbours, all channels.
template <typename T>
void horizontalPass(const T* source, float* row, const ResizeGeometry& g, const std::vector<Tap>& tx) {
  for (int64_t xo = 0; xo < g.ow; ++xo, row += g.c) {
    const Tap& t = tx[static_cast<size_t>(xo)];
    const T *left = source + t.lo * g.c, *right = source + t.hi * g.c;
    for (int64_t ch = 0; ch < g.c; ++ch)
      row[ch] = static_cast<float>(left[ch]) + (static_cast<float>(right[ch]) - static_cast<float>(left[ch])) * t.frac;
  }
}

// Source rows interpolated along x, the last two kept: upscaling reads each source row for several output rows, and
// the blend along x, the costly part, is then done once per source row instead of once per output row.
template <typename T>
class RowCache {
 public:
  RowCache(const T* image, const ResizeGeometry& g, const std::vector<Tap>& tx)
      : m_image(image),
        m_g(g),
        m_tx(tx),
        m_rows{std::vector<float>(static_cast<size_t>(g.ow * g.c)),
               std::vector<float>(static_cast<size_t>(g.ow * g.c))} {}
  void setImage(const T* image) {
    m_image = image;
    m_index[0] = m_index[1] = -1;
  }
  /// Source row y interpolated along x; `keep` (a row the caller holds) is not evicted to make room.
  const float* row(int64_t y, int64_t keep = -1) {
    for (int k = 0; k < 2; ++k)
      if (m_index[k] == y) return m_rows[k].data();
    const int k = m_index[0] == keep ? 1 : 0;
    m_index[k] = y;
    horizontalPass(m_image + y * m_g.w * m_g.c, m_rows[k].data(), m_g, m_tx);
    return m_rows[k].data();
  }

 private:
  const T* m_image;
  const ResizeGeometry& m_g;
  const std::vector<Tap>& m_tx;
  std::vector<float> m_rows[2];
  int64_t m_index[2] = {-1, -1};
};

template <typename T>
void resizeBilinear(const T* in, float* out, const ResizeGeometry& g) {
  const std::vector<Tap> ty = bilinearTaps(g.oh, g.h, g.scaleH, g.halfPixel);
  const std::vector<Tap> tx = bilinearTaps(g.ow, g.w, g.scaleW, g.halfPixel);
  const int64_t rowSize = g.ow * g.c;
  parallelFor(g.n * g.oh, rowSize * 4 + 4, [&](int64_t begin, int64_t end) {
    RowCache<T> cache(in, g, tx);
    int64_t image = -1;
    for (int64_t row = begin; row < end; ++row) {  // output row: image b, line y
      const int64_t b = row / g.oh, y = row % g.oh;
      if (b != image) cache.setImage(in + b * g.h * g.w * g.c), image = b;
      const Tap& t = ty[static_cast<size_t>(y)];
      const float* top = cache.row(t.lo);
      const float* bottom = cache.row(t.hi, t.lo);
      float* o = out + row * rowSize;
      for (int64_t j = 0; j < rowSize; ++j) o[j] = top[j] + (bottom[j] - top[j]) * t.frac;
    }
  });
}

template <typename T>
void resizeNearest(const T* in, T* out, const ResizeGeometry& g) {
  const std::vector<int64_t> ty = nearestTaps(g.oh, g.h, g.scaleH, g.halfPixel, g.align);
  const std::vector<int64_t> tx = nearestTaps(g.ow, g.w, g.scaleW, g.halfPixel, g.align);
  parallelFor(g.n * g.oh, g.ow * g.c + 4, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / g.oh, y = row % g.oh;
      const T* source = in + (b * g.h + ty[static_cast<size_t>(y)]) * g.w * g.c;
      T* o = out + row * g.ow * g.c;
      for (int64_t xo = 0; xo < g.ow; ++xo) std::copy_n(source + tx[static_cast<size_t>(xo)] * g.c, g.c, o + xo * g.c);
    }
  });
}

template <bool Bilinear>
Status resize(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> size = intValues(ctx.inputs[1]);
  if (x.shape().rank() != 4 || size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return ctx.error("expects a 4-D image and a positive size [h, w]");
  ResizeGeometry g;
  g.align = attrBool(ctx.node, "align_corners", false);
  g.halfPixel = attrBool(ctx.node, "half_pixel_centers", false);
  g.n = x.shape().dim(0), g.h = x.shape().dim(1), g.w = x.shape().dim(2), g.c = x.shape().dim(3);
  g.oh = size[0], g.ow = size[1];
  auto scaleOf = [&](int64_t in, int64_t out) {
    return g.align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                              : static_cast<float>(in) / static_cast<float>(out);
  };
  g.scaleH = scaleOf(g.h, g.oh), g.scaleW = scaleOf(g.w, g.ow);
  Tensor out = Tensor::uninitialized(Bilinear ? DType::kFloat : x.dtype(), Shape{g.n, g.oh, g.ow, g.c});
  if (out.numElements() == 0) {
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }
  if (x.numElements() == 0) return ctx.error("cannot resize an empty image " + x.shape().toString());
  bool supported = true;
  if (!dispatchNumeric(x.dtype(),
                       [&](auto tag) {
                         using T = typename decltype(tag)::type;
                         if constexpr (std::is_same_v<T, bool>)
                           supported = false;
                         else if constexpr (Bilinear)
                           resizeBilinear(x.data<T>(), out.data<float>(), g);
                         else
                           resizeNearest(x.data<T>(), out.data<T>(), g);
                       }) ||
      !supported)
    return ctx.error("unsupported dtype " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerImageKernels(KernelTable& r) {
  r.addFn("ResizeBilinear", resize<true>);
  r.addFn("ResizeNearestNeighbor", resize<false>);
}

}  // namespace flowscope
