// Shape functions for matrix products, convolutions, pooling, normalization and resizing.
#include "ops/shape_functions.h"

namespace flowscope {
namespace {

struct Layout {
  int batch = 0, height = 1, width = 2, channels = 3;
};

Layout layoutOf(const ShapeContext& ctx) {
  return ctx.stringAttr("data_format", "NHWC") == "NCHW" ? Layout{0, 2, 3, 1} : Layout{};
}

int64_t at(const std::vector<int64_t>& v, int i, int64_t fallback) {
  return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : fallback;
}

// Spatial output for conv and pool: window dims come from a filter shape or ksize.
void spatialOutput(ShapeContext& ctx, int64_t windowH, int64_t windowW, int64_t channels) {
  const Shape& x = ctx.in(0);
  if (x.rank() != 4) return;
  Layout l = layoutOf(ctx);
  auto strides = ctx.intsAttr("strides");
  auto dilations = ctx.intsAttr("dilations");
  auto explicitPads = ctx.intsAttr("explicit_paddings");
  std::string padding = ctx.stringAttr("padding", "VALID");
  std::vector<int64_t> out(4);
  out[static_cast<size_t>(l.batch)] = x.dim(l.batch);
  out[static_cast<size_t>(l.channels)] = channels;
  out[static_cast<size_t>(l.height)] =
      convOutputSize(x.dim(l.height), windowH, at(strides, l.height, 1), at(dilations, l.height, 1), padding,
                     at(explicitPads, 2 * l.height, 0), at(explicitPads, 2 * l.height + 1, 0));
  out[static_cast<size_t>(l.width)] =
      convOutputSize(x.dim(l.width), windowW, at(strides, l.width, 1), at(dilations, l.width, 1), padding,
                     at(explicitPads, 2 * l.width, 0), at(explicitPads, 2 * l.width + 1, 0));
  ctx.set(0, Shape(out));
}

}  // namespace

void shapeMatMul(ShapeContext& ctx) {
  const Shape& a = ctx.in(0);
  const Shape& b = ctx.in(1);
  if (a.rank() != 2 || b.rank() != 2) return;
  bool ta = ctx.boolAttr("transpose_a", false), tb = ctx.boolAttr("transpose_b", false);
  ctx.set(0, Shape{ta ? a.dim(1) : a.dim(0), tb ? b.dim(0) : b.dim(1)});
}

void shapeBatchMatMul(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  const Shape& y = ctx.in(1);
  if (x.rank() < 2 || y.rank() < 2) return;
  bool ax = ctx.boolAttr("adj_x", false), ay = ctx.boolAttr("adj_y", false);
  std::vector<int64_t> bx(x.dims().begin(), x.dims().end() - 2), by(y.dims().begin(), y.dims().end() - 2);
  Shape batch;
  if (!broadcastShapes(Shape(bx), Shape(by), &batch)) return;
  std::vector<int64_t> out = batch.dims();
  int rx = x.rank(), ry = y.rank();
  out.push_back(ax ? x.dim(rx - 1) : x.dim(rx - 2));
  out.push_back(ay ? y.dim(ry - 2) : y.dim(ry - 1));
  ctx.set(0, Shape(out));
}

void shapeConv2D(ShapeContext& ctx) {
  const Shape& f = ctx.in(1);
  if (f.rank() != 4) return;
  spatialOutput(ctx, f.dim(0), f.dim(1), f.dim(3));
}

void shapeDepthwiseConv2D(ShapeContext& ctx) {
  const Shape& f = ctx.in(1);
  if (f.rank() != 4) return;
  int64_t channels = f.dim(2) < 0 || f.dim(3) < 0 ? -1 : f.dim(2) * f.dim(3);
  spatialOutput(ctx, f.dim(0), f.dim(1), channels);
}

void shapePool(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  if (x.rank() != 4) return;
  Layout l = layoutOf(ctx);
  auto ksize = ctx.intsAttr("ksize");
  spatialOutput(ctx, at(ksize, l.height, 1), at(ksize, l.width, 1), x.dim(l.channels));
}

void shapeFusedBatchNorm(ShapeContext& ctx) {
  ctx.set(0, ctx.in(0));
  const Shape& x = ctx.in(0);
  int64_t channels = x.rank() == 4 ? x.dim(layoutOf(ctx).channels) : -1;
  for (size_t k = 1; k < ctx.outputs.size(); ++k) ctx.set(k, Shape{channels});
}

void shapeResize(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  if (x.rank() != 4) return;
  auto size = ctx.constInts(1);
  int64_t h = size && size->size() == 2 ? (*size)[0] : -1;
  int64_t w = size && size->size() == 2 ? (*size)[1] : -1;
  ctx.set(0, Shape{x.dim(0), h, w, x.dim(3)});
}

void shapeDecodeWav(ShapeContext& ctx) {
  int64_t samples = ctx.intAttr("desired_samples", -1), channels = ctx.intAttr("desired_channels", -1);
  ctx.set(0, Shape{samples, channels});
  ctx.set(1, Shape{});
}

void shapeAudioSpectrogram(ShapeContext& ctx) {
  const Shape& audio = ctx.in(0);  // [samples, channels]
  int64_t window = ctx.intAttr("window_size", 0), stride = ctx.intAttr("stride", 1);
  if (audio.rank() != 2 || window <= 0 || stride <= 0) return;
  int64_t samples = audio.dim(0);
  int64_t frames = samples < 0 ? -1 : samples < window ? 0 : 1 + (samples - window) / stride;
  int64_t fft = 1;
  while (fft < window) fft <<= 1;
  ctx.set(0, Shape{audio.dim(1), frames, fft / 2 + 1});
}

void shapeMfcc(ShapeContext& ctx) {
  const Shape& spectrogram = ctx.in(0);
  if (spectrogram.rank() != 3) return;
  ctx.set(0, Shape{spectrogram.dim(0), spectrogram.dim(1), ctx.intAttr("dct_coefficient_count", 13)});
}

}  // namespace flowscope
