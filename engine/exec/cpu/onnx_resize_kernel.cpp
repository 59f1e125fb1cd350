// ONNX Resize (opsets 10 to 13) and Upsample on float tensors of any rank: nearest (its four rounding modes), linear
// and cubic, with every coordinate_transformation_mode (tf_crop_and_resize's roi and extrapolation_value included) and
// exclude_outside. The interpolation is separable: one pass per resized axis, innermost first, each output coordinate
// a weighted sum of its neighbours (2 for nearest and linear, 4 for cubic) clamped to the edge, exactly as ONNX's
// reference implementation (onnx/backend/test/case/node/resize.py) computes it.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "exec/cpu/onnx_kernels.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

struct Tap {
  int64_t index;
  float weight;
};

struct ResizeMode {
  std::string mode, transform, nearest;
  double cubicA = -0.75;
  bool excludeOutside = false;
  float extrapolation = 0.0f;
};

// Where output coordinate `x` of an axis (input length `len`, scale `scale`) lies in the input; roi is the axis's
// [start, end] for tf_crop_and_resize.
double sourceCoordinate(const ResizeMode& m, double x, int64_t len, double scale, double roiStart, double roiEnd) {
  const double outWidth = scale * static_cast<double>(len);  // as the reference computes it: not rounded
  const double last = static_cast<double>(len - 1);
  if (m.transform == "align_corners") return outWidth == 1 ? 0.0 : x * last / (outWidth - 1);
  if (m.transform == "asymmetric") return x / scale;
  if (m.transform == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  if (m.transform == "pytorch_half_pixel") return outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  if (m.transform == "tf_crop_and_resize")
    return roiStart * last +
           (outWidth == 1 ? (roiEnd - roiStart) * last / 2 : x * (roiEnd - roiStart) * last / (outWidth - 1));
  return (x + 0.5) / scale - 0.5;  // half_pixel
}

// The neighbours' weights for `ratio` in (0, 1], the fraction past the left neighbour.
std::vector<double> coefficients(const ResizeMode& m, double ratio) {
  if (m.mode == "linear") return {1 - ratio, ratio};
  if (m.mode == "cubic") {
    const double a = m.cubicA, r = ratio, s = 1 - ratio;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
  }
  if (ratio == 1) return {0, 1};
  if (m.nearest == "round_prefer_ceil") return {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
  if (m.nearest == "floor") return {1, 0};
  if (m.nearest == "ceil") return {0, 1};
  return {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};  // round_prefer_floor
}

// The taps of one output coordinate; empty when it falls outside the crop (tf_crop_and_resize).
std::vector<Tap> tapsAt(const ResizeMode& m, double x, int64_t len, double scale, double roiStart, double roiEnd) {
  const double src = sourceCoordinate(m, x, len, scale, roiStart, roiEnd);
  if (m.transform == "tf_crop_and_resize" && (src < 0 || src > static_cast<double>(len - 1))) return {};
  const double base = std::floor(src);
  const bool whole = src == base;
  std::vector<double> w = coefficients(m, whole ? 1.0 : src - base);
  const int64_t n = static_cast<int64_t>(w.size());
  const int64_t start = static_cast<int64_t>(base) - (n / 2 - 1) - (whole ? 1 : 0);
  if (m.excludeOutside) {
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (start + k < 0 || start + k >= len) w[static_cast<size_t>(k)] = 0;
      sum += w[static_cast<size_t>(k)];
    }
    for (double& v : w) v /= sum;
  }
  std::vector<Tap> taps;
  for (int64_t k = 0; k < n; ++k)
    if (w[static_cast<size_t>(k)] != 0)
      taps.push_back({std::clamp<int64_t>(start + k, 0, len - 1), static_cast<float>(w[static_cast<size_t>(k)])});
  return taps;
}

// Resizes `x` along `axis` to `outLen`: output row o is the weighted sum of the input rows its taps name.
Tensor resizeAxis(const Tensor& x, int axis, int64_t outLen, const std::vector<std::vector<Tap>>& taps,
                  float extrapolation) {
  std::vector<int64_t> dims = x.shape().dims();
  const AxisSplit split = splitAt(x.shape(), axis);
  const int64_t outer = split.outer, len = split.length, inner = split.inner;
  dims[static_cast<size_t>(axis)] = outLen;
  Tensor out = Tensor::uninitialized(DType::kFloat, Shape(dims));
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(outer * outLen, inner * 4, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / outLen, j = r % outLen;
      float* dst = o + r * inner;
      const auto& t = taps[static_cast<size_t>(j)];
      for (int64_t i = 0; i < inner; ++i) dst[i] = t.empty() ? extrapolation : 0.0f;
      for (const Tap& tap : t) {
        const float* src = in + (b * len + tap.index) * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] += tap.weight * src[i];
      }
    }
  });
  return out;
}

bool identity(const std::vector<std::vector<Tap>>& taps) {
  for (size_t j = 0; j < taps.size(); ++j)
    if (taps[j].size() != 1 || taps[j][0].index != static_cast<int64_t>(j) || taps[j][0].weight != 1.0f) return false;
  return true;
}

ResizeMode modeOf(const Node& node) {
  const bool v11 = onnxOpset(node, 11) >= 11;  // opset 10 resizes as Upsample: asymmetric, nearest rounds down
  ResizeMode m;
  m.mode = attrString(node, "mode", "nearest");
  m.transform = attrString(node, "coordinate_transformation_mode", v11 ? "half_pixel" : "asymmetric");
  m.nearest = attrString(node, "nearest_mode", v11 ? "round_prefer_floor" : "floor");
  m.cubicA = attrFloat(node, "cubic_coeff_a", -0.75f);
  m.excludeOutside = attrInt(node, "exclude_outside", 0) != 0;
  m.extrapolation = attrFloat(node, "extrapolation_value", 0.0f);
  return m;
}

// Output lengths and scales from `sizes` (when given) or `scales`, as the reference computes them.
Status outputGeometry(KernelContext& ctx, const Tensor* scaleInput, std::vector<int64_t>* outLens,
                      std::vector<double>* scales) {
  const bool v11 = onnxOpset(ctx.node, 11) >= 11;
  if (!scaleInput) scaleInput = onnxInput(ctx, v11 ? 2 : 1);
  const Tensor* sizeInput = v11 ? onnxInput(ctx, 3) : nullptr;
  const Shape& x = ctx.inputs[0].shape();
  const auto rank = static_cast<int64_t>(x.rank());
  if (sizeInput && sizeInput->numElements() == rank) {
    for (int d = 0; d < x.rank(); ++d) {
      outLens->push_back(static_cast<int64_t>(elementAsFloat(*sizeInput, d)));
      scales->push_back(static_cast<double>(outLens->back()) / static_cast<double>(x.dim(d)));
    }
  } else if (scaleInput && scaleInput->numElements() == rank) {
    for (int d = 0; d < x.rank(); ++d) {
      scales->push_back(static_cast<double>(elementAsFloat(*scaleInput, d)));
      outLens->push_back(static_cast<int64_t>(scales->back() * static_cast<double>(x.dim(d))));
    }
  } else {
    return ctx.error("needs scales or sizes with one value per dimension of " + x.toString());
  }
  for (int d = 0; d < x.rank(); ++d)
    if ((*scales)[static_cast<size_t>(d)] <= 0 || (*outLens)[static_cast<size_t>(d)] < 0)
      return ctx.error("scales and sizes must be positive");
  return Status::ok();
}

// Resize with the scales from `scaleInput` where given, else from the node's inputs.
Status resizeWith(KernelContext& ctx, const Tensor* scaleInput) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("runs in float32, got " + std::string(dtypeName(x.dtype())));
  const ResizeMode m = modeOf(ctx.node);
  if (m.mode != "nearest" && m.mode != "linear" && m.mode != "cubic")
    return ctx.error("mode '" + m.mode + "' is not supported");
  std::vector<int64_t> outLens;
  std::vector<double> scales;
  FS_RETURN_IF_ERROR(outputGeometry(ctx, scaleInput, &outLens, &scales));
  const Tensor* roi = onnxOpset(ctx.node, 11) >= 11 ? onnxInput(ctx, 1) : nullptr;
  const int rank = x.shape().rank();
  if (m.transform == "tf_crop_and_resize" && (!roi || roi->numElements() != 2 * rank))
    return ctx.error("tf_crop_and_resize needs a roi of " + std::to_string(2 * rank) + " values");
  Tensor y = x;
  for (int d = rank - 1; d >= 0; --d) {  // innermost first, as the reference nests its 1-D interpolations
    const double start = roi && roi->numElements() == 2 * rank ? elementAsFloat(*roi, d) : 0.0;
    const double end = roi && roi->numElements() == 2 * rank ? elementAsFloat(*roi, d + rank) : 1.0;
    std::vector<std::vector<Tap>> taps;
    for (int64_t j = 0; j < outLens[static_cast<size_t>(d)]; ++j)
      taps.push_back(tapsAt(m, static_cast<double>(j), x.shape().dim(d), scales[static_cast<size_t>(d)], start, end));
    if (outLens[static_cast<size_t>(d)] != x.shape().dim(d) || !identity(taps))
      y = resizeAxis(y, d, outLens[static_cast<size_t>(d)], taps, m.extrapolation);
  }
  ctx.outputs[0] = std::move(y);
  return Status::ok();
}

Status resize(KernelContext& ctx) { return resizeWith(ctx, nullptr); }

// Upsample (deprecated at opset 10 for Resize-10, which resizes the same way: asymmetric, nearest rounding down): its
// scales are input 1 from opset 9 on, the scales attr before.
Status upsample(KernelContext& ctx) {
  if (onnxOpset(ctx.node, 9) >= 9) return resize(ctx);
  Tensor scaleInput(DType::kFloat, Shape{ctx.inputs[0].shape().rank()});
  const AttrValue* attr = ctx.node.attr("scales");
  const std::vector<float> scales =
      attr && attr->kind() == AttrValue::Kind::kList ? attr->list().f : std::vector<float>{};
  if (static_cast<int64_t>(scales.size()) != ctx.inputs[0].shape().rank())
    return ctx.error("scales must have one value per dimension of " + ctx.inputs[0].shape().toString());
  std::copy(scales.begin(), scales.end(), scaleInput.data<float>());
  return resizeWith(ctx, &scaleInput);
}

}  // namespace

void registerOnnxResizeKernels(KernelTable& r) {
  r.add("onnx::Resize", withInputs(1, resize));
  r.add("onnx::Upsample", withInputs(1, upsample));
}

}  // namespace flowscope
