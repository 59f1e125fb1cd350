// ONNX GridSample (opset 16) on 2-D images, as ONNX's reference computes it: each output pixel samples the input at
// the grid's normalized (x, y) in [-1, 1] (align_corners picks whether -1 and 1 are the corner pixels' centres or
// edges), bilinear, nearest (half to even) or bicubic (A = -0.75), with zeros, border or reflection padding.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

struct Sampler {
  const float* image = nullptr;  // one channel, h x w
  int64_t h = 0, w = 0;
  bool alignCorners = false;
  std::string padding;  // zeros, border, reflection

  double denormalize(double v, int64_t length) const {
    return alignCorners ? (v + 1) / 2 * static_cast<double>(length - 1)
                        : ((v + 1) * static_cast<double>(length) - 1) / 2;
  }
  // The reflection range of an axis: the corner centres with align_corners, else the image's edges.
  std::pair<double, double> range(int64_t length) const {
    return alignCorners ? std::pair{0.0, static_cast<double>(length - 1)}
                        : std::pair{-0.5, static_cast<double>(length) - 0.5};
  }
  static double reflect(double v, double lo, double hi) {
    const double span = hi - lo;
    if (span <= 0) return lo;
    if (v >= lo && v <= hi) return v;
    const double d = v < lo ? lo - v : v - hi;
    const auto flips = static_cast<int64_t>(d / span);
    const double r = d - static_cast<double>(flips) * span;
    return (v < lo) == (flips % 2 == 0) ? lo + r : hi - r;
  }
  // The coordinate on one axis after the border or reflection padding (zeros leaves it).
  double padded(double v, int64_t length) const {
    if (padding == "border") return std::clamp(v, 0.0, static_cast<double>(length - 1));
    if (padding == "reflection") return reflect(v, range(length).first, range(length).second);
    return v;
  }
  double pixel(int64_t y, int64_t x) const {
    if (padding == "zeros") return y >= 0 && y < h && x >= 0 && x < w ? image[y * w + x] : 0.0;
    if (padding == "reflection") {
      x = static_cast<int64_t>(reflect(static_cast<double>(x), range(w).first, range(w).second));
      y = static_cast<int64_t>(reflect(static_cast<double>(y), range(h).first, range(h).second));
    }
    return image[std::clamp<int64_t>(y, 0, h - 1) * w + std::clamp<int64_t>(x, 0, w - 1)];
  }
};

std::array<double, 4> cubicCoefficients(double t) {
  constexpr double a = -0.75;
  return {((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a, ((a + 2) * t - (a + 3)) * t * t + 1,
          ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
          ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a};
}

double sample(const Sampler& s, const std::string& mode, double x, double y) {
  if (mode == "nearest")
    return s.pixel(static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)));
  const auto x0 = static_cast<int64_t>(std::floor(x)), y0 = static_cast<int64_t>(std::floor(y));
  const double fx = x - static_cast<double>(x0), fy = y - static_cast<double>(y0);
  if (mode == "bilinear")
    return (1 - fy) * ((1 - fx) * s.pixel(y0, x0) + fx * s.pixel(y0, x0 + 1)) +
           fy * ((1 - fx) * s.pixel(y0 + 1, x0) + fx * s.pixel(y0 + 1, x0 + 1));
  const auto cx = cubicCoefficients(fx), cy = cubicCoefficients(fy);
  double sum = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      sum += cy[static_cast<size_t>(i)] * cx[static_cast<size_t>(j)] * s.pixel(y0 - 1 + i, x0 - 1 + j);
  return sum;
}

Status gridSample(KernelContext& ctx) {
  const Tensor &x = ctx.inputs[0], &grid = ctx.inputs[1];
  if (x.dtype() != DType::kFloat || grid.dtype() != DType::kFloat || x.shape().rank() != 4 ||
      grid.shape().rank() != 4 || grid.shape().dim(0) != x.shape().dim(0) || grid.shape().dim(3) != 2)
    return ctx.error("expects float32 X [N, C, H, W] and grid [N, H_out, W_out, 2], got " + x.shape().toString() +
                     " and " + grid.shape().toString());
  const std::string mode = attrString(ctx.node, "mode", "bilinear");
  Sampler s;
  s.alignCorners = attrInt(ctx.node, "align_corners", 0) != 0;
  s.padding = attrString(ctx.node, "padding_mode", "zeros");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") return ctx.error("mode '" + mode + "' is unknown");
  if (s.padding != "zeros" && s.padding != "border" && s.padding != "reflection")
    return ctx.error("padding_mode '" + s.padding + "' is unknown");
  const int64_t n = x.shape().dim(0), c = x.shape().dim(1), oh = grid.shape().dim(1), ow = grid.shape().dim(2);
  s.h = x.shape().dim(2);
  s.w = x.shape().dim(3);
  if (s.h == 0 || s.w == 0) {  // nothing to sample: every output is outside the image
    ctx.outputs[0] = Tensor(DType::kFloat, Shape{n, c, oh, ow});
    return Status::ok();
  }
  Tensor out = Tensor::uninitialized(DType::kFloat, Shape{n, c, oh, ow});
  parallelFor(n * c, oh * ow * 16, [&](int64_t begin, int64_t end) {
    Sampler local = s;
    for (int64_t plane = begin; plane < end; ++plane) {
      local.image = x.data<float>() + plane * s.h * s.w;
      const float* g = grid.data<float>() + plane / c * oh * ow * 2;
      float* o = out.data<float>() + plane * oh * ow;
      for (int64_t p = 0; p < oh * ow; ++p) {
        const double px = local.padded(local.denormalize(g[2 * p], s.w), s.w);
        const double py = local.padded(local.denormalize(g[2 * p + 1], s.h), s.h);
        const bool finite = std::isfinite(px) && std::isfinite(py) && std::abs(px) < 1e15 && std::abs(py) < 1e15;
        o[p] = finite ? static_cast<float>(sample(local, mode, px, py)) : 0.0f;
      }
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxGridSampleKernel(KernelTable& r) { r.add("onnx::GridSample", withInputs(2, gridSample)); }

}  // namespace flowscope
