// Image kernels: ResizeBilinear / ResizeNearestNeighbor (align_corners, half_pixel_centers) and
// NonMaxSuppressionV5 (greedy, with optional soft-NMS sigma 0 only).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

float sourceCoord(int64_t out, float scale, bool halfPixel) {
  return halfPixel ? (static_cast<float>(out) + 0.5f) * scale - 0.5f : static_cast<float>(out) * scale;
}

template <bool Bilinear>
Status resize(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> size = intValues(ctx.inputs[1]);
  if (x.shape().rank() != 4 || size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return ctx.error("expects a 4-D image and a positive size [h, w]");
  const bool align = attrBool(ctx.node, "align_corners", false), half = attrBool(ctx.node, "half_pixel_centers", false);
  const int64_t n = x.shape().dim(0), h = x.shape().dim(1), w = x.shape().dim(2), c = x.shape().dim(3);
  const int64_t oh = size[0], ow = size[1];
  auto scaleOf = [&](int64_t in, int64_t out) {
    return align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                            : static_cast<float>(in) / static_cast<float>(out);
  };
  const float sh = scaleOf(h, oh), sw = scaleOf(w, ow);
  DType outType = Bilinear ? DType::kFloat : x.dtype();
  Tensor out = Tensor::uninitialized(outType, Shape{n, oh, ow, c});
  Status status;
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          status = ctx.error("unsupported dtype");
        } else {
          const T* in = x.data<T>();
          parallelFor(n * oh, ow * c * (Bilinear ? 8 : 1) + 4, [&](int64_t rowBegin, int64_t rowEnd) {
            for (int64_t row = rowBegin; row < rowEnd; ++row)  // output row (image b, line y)
              for (int64_t xo = 0, b = row / oh, y = row % oh; xo < ow; ++xo) {
                if constexpr (Bilinear) {
                  float fy = std::max(0.0f, sourceCoord(y, sh, half)), fx = std::max(0.0f, sourceCoord(xo, sw, half));
                  int64_t y0 = std::min<int64_t>(static_cast<int64_t>(fy), h - 1),
                          x0 = std::min<int64_t>(static_cast<int64_t>(fx), w - 1);
                  int64_t y1 = std::min(y0 + 1, h - 1), x1 = std::min(x0 + 1, w - 1);
                  float dy = fy - static_cast<float>(y0), dx = fx - static_cast<float>(x0);
                  float* o = out.data<float>() + ((b * oh + y) * ow + xo) * c;
                  auto at = [&](int64_t yy, int64_t xx, int64_t ch) {
                    return static_cast<float>(in[((b * h + yy) * w + xx) * c + ch]);
                  };
                  for (int64_t ch = 0; ch < c; ++ch) {
                    float top = at(y0, x0, ch) + (at(y0, x1, ch) - at(y0, x0, ch)) * dx;
                    float bottom = at(y1, x0, ch) + (at(y1, x1, ch) - at(y1, x0, ch)) * dx;
                    o[ch] = top + (bottom - top) * dy;
                  }
                } else {
                  auto pick = [&](int64_t o2, float s, int64_t lim) {
                    float f = half ? (static_cast<float>(o2) + 0.5f) * s : static_cast<float>(o2) * s;
                    int64_t v = align ? static_cast<int64_t>(std::round(f)) : static_cast<int64_t>(std::floor(f));
                    return std::min(std::max<int64_t>(v, 0), lim - 1);
                  };
                  int64_t yy = pick(y, sh, h), xx = pick(xo, sw, w);
                  std::copy_n(in + ((b * h + yy) * w + xx) * c, c, out.data<T>() + ((b * oh + y) * ow + xo) * c);
                }
              }
          });
        }
      }))
    return ctx.error("unsupported dtype");
  if (!status.isOk()) return status;
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

float iou(const float* a, const float* b) {
  float ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]), ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
  float by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]), bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
  float areaA = (ay1 - ay0) * (ax1 - ax0), areaB = (by1 - by0) * (bx1 - bx0);
  if (areaA <= 0 || areaB <= 0) return 0;
  float ih = std::max(0.0f, std::min(ay1, by1) - std::max(ay0, by0)),
        iw = std::max(0.0f, std::min(ax1, bx1) - std::max(ax0, bx0));
  float inter = ih * iw;
  return inter / (areaA + areaB - inter);
}

Status nonMaxSuppression(KernelContext& ctx) {
  const Tensor& boxes = ctx.inputs[0];
  const Tensor& scores = ctx.inputs[1];
  int64_t maxOut;
  if (boxes.dtype() != DType::kFloat || boxes.shape().rank() != 2 || boxes.shape().dim(1) != 4)
    return ctx.error("boxes must be float32 [n, 4]");
  if (!scalarInt(ctx.inputs[2], &maxOut) || maxOut < 0)
    return ctx.error("max_output_size must be a non-negative scalar");
  const float iouThreshold = ctx.inputs[3].data<float>()[0], scoreThreshold = ctx.inputs[4].data<float>()[0];
  if (ctx.inputs[5].data<float>()[0] != 0.0f) return ctx.error("soft-NMS (sigma > 0) is not supported");
  const int64_t n = boxes.shape().dim(0);
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const float* s = scores.data<float>();
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return s[a] > s[b]; });
  std::vector<int32_t> selected;
  for (int32_t i : order) {
    if (static_cast<int64_t>(selected.size()) >= maxOut || s[i] <= scoreThreshold) break;
    bool keep = true;
    for (int32_t j : selected) keep &= iou(boxes.data<float>() + 4 * i, boxes.data<float>() + 4 * j) <= iouThreshold;
    if (keep) selected.push_back(i);
  }
  const bool pad = attrBool(ctx.node, "pad_to_max_output_size", false);
  const auto count = static_cast<int64_t>(selected.size());
  const int64_t len = pad ? maxOut : count;
  Tensor idx(DType::kInt32, Shape{len}), sc(DType::kFloat, Shape{len});
  for (int64_t i = 0; i < count; ++i) {
    idx.data<int32_t>()[i] = selected[static_cast<size_t>(i)];
    sc.data<float>()[i] = s[selected[static_cast<size_t>(i)]];
  }
  ctx.outputs[0] = std::move(idx);
  ctx.outputs[1] = std::move(sc);
  ctx.outputs[2] = Tensor::scalar<int32_t>(DType::kInt32, static_cast<int32_t>(count));
  return Status::ok();
}

}  // namespace

void registerImageKernels(KernelTable& r) {
  r.addFn("ResizeBilinear", resize<true>);
  r.addFn("ResizeNearestNeighbor", resize<false>);
  r.addFn("NonMaxSuppressionV5", nonMaxSuppression);
}

}  // namespace flowscope
