// ONNX quantization: QuantizeLinear, DequantizeLinear, QLinearConv and QLinearMatMul (int32 accumulation), and ONNX
// Runtime's QLinearAdd and QLinearGlobalAveragePool. Requantization rounds half to even and saturates, in float32 as
// ONNX Runtime computes it, so outputs match its integers.
#include <algorithm>
#include <cmath>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/onnx_conv_window.h"
#include "exec/cpu/onnx_integer_products.h"
#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

bool isQuantType(DType t) { return t == DType::kUInt8 || t == DType::kInt8; }

int32_t quantMin(DType t) { return t == DType::kUInt8 ? 0 : -128; }
int32_t quantMax(DType t) { return t == DType::kUInt8 ? 255 : 127; }

int32_t quantAt(const Tensor& t, int64_t i) { return integerAt(t, i); }

void storeQuant(Tensor& t, int64_t i, int32_t v) {
  v = std::clamp(v, quantMin(t.dtype()), quantMax(t.dtype()));
  if (t.dtype() == DType::kUInt8)
    t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
  else
    t.data<int8_t>()[i] = static_cast<int8_t>(v);
}

// round(value) half to even, saturated to the type's range, plus the zero point.
int32_t requantize(float value, int32_t zeroPoint) {
  const float r = std::nearbyint(value);
  if (r > 1e9f) return 1000000000;
  if (r < -1e9f) return -1000000000;
  return static_cast<int32_t>(r) + zeroPoint;
}

// Per-tensor or per-axis parameters: the index into scale / zero point for element i.
struct AxisParams {
  int64_t inner = 1, dim = 1;
  bool perAxis = false;
  int64_t at(int64_t i) const { return perAxis ? (i / inner) % dim : 0; }
};

Expected<AxisParams> axisParams(const KernelContext& ctx, const Tensor& x, const Tensor& scale) {
  AxisParams p;
  if (scale.numElements() == 1) return p;
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", 1), x.shape().rank(), &axis)) return ctx.error("axis out of range");
  p.perAxis = true;
  p.dim = x.shape().dim(static_cast<int>(axis));
  if (scale.numElements() != p.dim) return ctx.error("scale must have 1 or " + std::to_string(p.dim) + " values");
  for (int i = static_cast<int>(axis) + 1; i < x.shape().rank(); ++i) p.inner *= x.shape().dim(i);
  return p;
}

Status quantizeLinear(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& scale = ctx.inputs[1];
  const Tensor* zp = onnxInput(ctx, 2);
  const DType outType = zp ? zp->dtype() : DType::kUInt8;
  if (!isQuantType(outType) || scale.dtype() != DType::kFloat) return ctx.error("quantizes float32 to uint8 or int8");
  if (zp && zp->numElements() != scale.numElements())
    return ctx.error("y_zero_point must have as many values as y_scale");
  FS_ASSIGN_OR_RETURN(AxisParams p, axisParams(ctx, x, scale));
  Tensor out = Tensor::uninitialized(outType, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    const int64_t k = p.at(i);
    storeQuant(out, i, requantize(elementAsFloat(x, i) / scale.data<float>()[k], zp ? quantAt(*zp, k) : 0));
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status dequantizeLinear(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& scale = ctx.inputs[1];
  const Tensor* zp = onnxInput(ctx, 2);
  if ((!isQuantType(x.dtype()) && x.dtype() != DType::kInt32) || scale.dtype() != DType::kFloat)
    return ctx.error("dequantizes uint8, int8 or int32 with a float32 scale");
  if (zp && (zp->dtype() != x.dtype() || zp->numElements() != scale.numElements()))
    return ctx.error("x_zero_point must be " + std::string(dtypeName(x.dtype())) + " with as many values as x_scale");
  FS_ASSIGN_OR_RETURN(AxisParams p, axisParams(ctx, x, scale));
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    const int64_t k = p.at(i);
    const int32_t v = x.dtype() == DType::kInt32 ? x.data<int32_t>()[i] : quantAt(x, i);
    const int32_t z = zp ? (zp->dtype() == DType::kInt32 ? zp->data<int32_t>()[k] : quantAt(*zp, k)) : 0;
    out.data<float>()[i] = static_cast<float>(v - z) * scale.data<float>()[k];
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// The scales and zero points of a QLinear op whose inputs are (data, scale, zero point) triples at `triples`, then
// (y_scale, y_zero_point) at `y`: float32 scales of 1 value (or, for the second triple, `perAxis`), zero points of
// their data's dtype and count.
Status checkQuantParams(const KernelContext& ctx, std::initializer_list<size_t> triples, size_t y, int64_t perAxis) {
  bool second = false;
  for (size_t t : triples) {
    const Tensor &scale = ctx.inputs[t + 1], &zero = ctx.inputs[t + 2];
    const int64_t count = second ? perAxis : 1;
    if (scale.dtype() != DType::kFloat || (scale.numElements() != 1 && scale.numElements() != count))
      return ctx.error("input " + std::to_string(t + 1) + " must be a float32 scale of 1 or " + std::to_string(count) +
                       " values");
    if (Status s = checkZeroPoint(zero, ctx.inputs[t].dtype(), count, "a zero point"); !s.isOk())
      return ctx.error(s.message());
    second = true;
  }
  if (ctx.inputs[y].dtype() != DType::kFloat || ctx.inputs[y].numElements() != 1 ||
      !isQuantType(ctx.inputs[y + 1].dtype()) || ctx.inputs[y + 1].numElements() != 1)
    return ctx.error("y_scale must be one float32 value and y_zero_point one uint8 or int8 value");
  return Status::ok();
}

Status qlinearConv(KernelContext& ctx) {
  if (ctx.inputs.size() < 8)
    return ctx.error("needs x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zp");
  const Tensor &x = ctx.inputs[0], &w = ctx.inputs[3], &yzp = ctx.inputs[7];
  if (x.shape().rank() != 4 || w.shape().rank() != 4) return ctx.error("runs 2-D convolutions only");
  if (!isQuantType(x.dtype()) || !isQuantType(w.dtype()) || !isQuantType(yzp.dtype()))
    return ctx.error("takes uint8 or int8 tensors");
  const int64_t group = attrInt(ctx.node, "group", 1), c = x.shape().dim(1), m = w.shape().dim(0);
  if (group <= 0 || c % group || m % group || w.shape().dim(1) * group != c) return ctx.error("channels do not match");
  auto win = onnxWindow(ctx.node, x.shape(), {w.shape().dim(2), w.shape().dim(3)});
  if (!win) return ctx.error(win.status().message());
  FS_RETURN_IF_ERROR(checkQuantParams(ctx, {0, 3}, 6, m));
  if (const Tensor* bias = onnxInput(ctx, 8); bias && (bias->dtype() != DType::kInt32 || bias->numElements() != m))
    return ctx.error("B must be int32 with " + std::to_string(m) + " values");
  const Tensor& wScale = ctx.inputs[4];
  const float xScale = ctx.inputs[1].data<float>()[0], yScale = ctx.inputs[6].data<float>()[0];
  const int32_t zy = quantAt(yzp, 0);
  const int64_t p = win->out[0] * win->out[1];
  Tensor out = Tensor::uninitialized(yzp.dtype(), Shape{x.shape().dim(0), m, win->out[0], win->out[1]});
  integerConv(x, quantAt(ctx.inputs[2], 0), w, ctx.inputs[5], onnxInput(ctx, 8), group, *win,
              [&](int64_t n, int64_t oc, const int32_t* sums) {
                const float scale = xScale * wScale.data<float>()[wScale.numElements() == 1 ? 0 : oc] / yScale;
                for (int64_t j = 0; j < p; ++j)
                  storeQuant(out, (n * m + oc) * p + j, requantize(static_cast<float>(sums[j]) * scale, zy));
              });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status qlinearMatMul(KernelContext& ctx) {
  if (ctx.inputs.size() < 8) return ctx.error("needs a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp");
  const Tensor &a = ctx.inputs[0], &b = ctx.inputs[3], &yzp = ctx.inputs[7];
  auto dims = integerMatMulDims(a.shape(), b.shape());
  if (!dims) return ctx.error(dims.status().message());
  const int64_t n = b.shape().dims().back();
  if (!isQuantType(a.dtype()) || !isQuantType(b.dtype())) return ctx.error("takes uint8 or int8 tensors");
  FS_RETURN_IF_ERROR(checkQuantParams(ctx, {0, 3}, 6, n));
  const Tensor& bScale = ctx.inputs[4];
  const float aScale = ctx.inputs[1].data<float>()[0], yScale = ctx.inputs[6].data<float>()[0];
  const int32_t zy = quantAt(yzp, 0);
  Tensor out = Tensor::uninitialized(yzp.dtype(), Shape(*dims));
  integerMatMul(a, quantAt(ctx.inputs[2], 0), b, ctx.inputs[5], [&](int64_t r, int64_t j, int32_t sum) {
    const float scale = aScale * bScale.data<float>()[bScale.numElements() == 1 ? 0 : j] / yScale;
    storeQuant(out, r * n + j, requantize(static_cast<float>(sum) * scale, zy));
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// QLinearAdd: both inputs rescaled to C's scale and added in float32, with NumPy broadcasting.
Status qlinearAdd(KernelContext& ctx) {
  if (ctx.inputs.size() < 8) return ctx.error("needs A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp");
  const Tensor &a = ctx.inputs[0], &b = ctx.inputs[3], &czp = ctx.inputs[7];
  if (!isQuantType(a.dtype()) || !isQuantType(b.dtype()) || !isQuantType(czp.dtype()))
    return ctx.error("takes uint8 or int8 tensors");
  FS_RETURN_IF_ERROR(checkQuantParams(ctx, {0, 3}, 6, 1));
  Shape shape;
  BroadcastPlan plan;
  if (!planBroadcast({a.shape(), b.shape()}, &shape, &plan))
    return ctx.error("A " + a.shape().toString() + " and B " + b.shape().toString() + " do not broadcast");
  const float cScale = ctx.inputs[6].data<float>()[0];
  const float ra = ctx.inputs[1].data<float>()[0] / cScale, rb = ctx.inputs[4].data<float>()[0] / cScale;
  const int32_t za = quantAt(ctx.inputs[2], 0), zb = quantAt(ctx.inputs[5], 0), zc = quantAt(czp, 0);
  // As ONNX Runtime's kernel computes it (its compiler fuses the constant's multiply-add too): the zero points folded
  // into one constant, then B's and A's terms by fused multiply-adds. Ties then round the same way.
  const float fixed = static_cast<float>(zc) - std::fma(ra, static_cast<float>(za), rb * static_cast<float>(zb));
  Tensor out = Tensor::uninitialized(czp.dtype(), shape);
  plan.forEachRun([&](int64_t at, int64_t len, const int64_t* off, const int64_t* inner) {
    for (int64_t i = 0; i < len; ++i) {
      const auto va = static_cast<float>(quantAt(a, off[0] + i * inner[0]));
      const auto vb = static_cast<float>(quantAt(b, off[1] + i * inner[1]));
      storeQuant(out, at + i, requantize(std::fma(ra, va, std::fma(rb, vb, fixed)), 0));
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status qlinearGlobalAveragePool(KernelContext& ctx) {
  if (ctx.inputs.size() < 5) return ctx.error("needs X, x_scale, x_zero_point, y_scale, y_zero_point");
  const Tensor &x = ctx.inputs[0], &yzp = ctx.inputs[4];
  if (attrInt(ctx.node, "channels_last", 0)) return ctx.error("channels_last=1 is not supported");
  if (x.shape().rank() < 3 || !isQuantType(x.dtype())) return ctx.error("expects uint8 or int8 N, C, spatial...");
  FS_RETURN_IF_ERROR(checkQuantParams(ctx, {0}, 3, 1));
  const int64_t rows = x.shape().dim(0) * x.shape().dim(1), len = rows ? x.numElements() / rows : 0;
  const float scale = ctx.inputs[1].data<float>()[0] / (ctx.inputs[3].data<float>()[0] * static_cast<float>(len));
  const int32_t zx = quantAt(ctx.inputs[2], 0), zy = quantAt(yzp, 0);
  std::vector<int64_t> dims(static_cast<size_t>(x.shape().rank()), 1);
  dims[0] = x.shape().dim(0);
  dims[1] = x.shape().dim(1);
  Tensor out = Tensor::uninitialized(yzp.dtype(), Shape(dims));
  for (int64_t r = 0; r < rows; ++r) {
    int32_t acc = -zx * static_cast<int32_t>(len);
    for (int64_t i = 0; i < len; ++i) acc += quantAt(x, r * len + i);
    storeQuant(out, r, requantize(static_cast<float>(acc) * scale, zy));
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxQuantKernels(KernelTable& r) {
  r.addFn("onnx::QuantizeLinear", quantizeLinear);
  r.addFn("onnx::DequantizeLinear", dequantizeLinear);
  r.addFn("onnx::QLinearConv", qlinearConv);
  r.addFn("onnx::QLinearMatMul", qlinearMatMul);
  r.addFn("com.microsoft::QLinearAdd", qlinearAdd);
  r.addFn("com.microsoft::QLinearGlobalAveragePool", qlinearGlobalAveragePool);
}

}  // namespace flowscope
