// ONNX's dynamic quantization, as ONNX Runtime's quantize_dynamic writes it for transformers and CNNs:
// DynamicQuantizeLinear (uint8 with a scale and zero point from the tensor's own range), and MatMulInteger and
// ConvInteger, whose exact int32 sums the model then scales back to float itself.
#include <algorithm>
#include <cmath>

#include "exec/cpu/onnx_integer_products.h"
#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

// DynamicQuantizeLinear: scale = (max(0, max x) - min(0, min x)) / 255, zero point = round(-min / scale), each value
// round(x / scale) + zero point saturated to uint8; rounding half to even. All zeros: scale 0, every output 0.
Status dynamicQuantizeLinear(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("quantizes float32, got " + std::string(dtypeName(x.dtype())));
  const float* in = x.data<float>();
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    if (!std::isfinite(in[i])) return ctx.error("cannot quantize a tensor holding " + std::to_string(in[i]));
    lo = std::min(lo, in[i]);
    hi = std::max(hi, in[i]);
  }
  const float scale = (hi - lo) / 255.0f;
  const float zero = scale > 0 ? std::clamp(std::nearbyint(-lo / scale), 0.0f, 255.0f) : 0.0f;
  Tensor y = Tensor::uninitialized(DType::kUInt8, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    y.data<uint8_t>()[i] =
        static_cast<uint8_t>(scale > 0 ? std::clamp(std::nearbyint(in[i] / scale) + zero, 0.0f, 255.0f) : 0.0f);
  Tensor yScale(DType::kFloat, Shape{}), yZero(DType::kUInt8, Shape{});
  *yScale.data<float>() = scale;
  *yZero.data<uint8_t>() = static_cast<uint8_t>(zero);
  ctx.outputs[0] = std::move(y);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(yScale);
  if (ctx.outputs.size() > 2) ctx.outputs[2] = std::move(yZero);
  return Status::ok();
}

bool integer8(DType t) { return t == DType::kUInt8 || t == DType::kInt8; }

// A zero-point input (scalar, or per row / column / channel) of an 8-bit integer type, or a scalar 0 of `like`'s.
Tensor zeroPoint(const KernelContext& ctx, int position, DType like) {
  if (const Tensor* t = onnxInput(ctx, position); t && t->numElements() > 0) return *t;
  return Tensor(like, Shape{});
}

// MatMulInteger: (A - a_zero_point) (B - b_zero_point) in int32, A [..., K] by a 2-D B [K, N].
Status matMulInteger(KernelContext& ctx) {
  const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
  if (!integer8(a.dtype()) || !integer8(b.dtype())) return ctx.error("multiplies uint8 or int8 tensors");
  auto dims = integerMatMulDims(a.shape(), b.shape());
  if (!dims) return ctx.error(dims.status().message());
  const Tensor aZero = zeroPoint(ctx, 2, a.dtype()), bZero = zeroPoint(ctx, 3, b.dtype());
  const int64_t n = b.shape().dims().back();
  if (Status s = checkZeroPoint(aZero, a.dtype(), 1, "a_zero_point"); !s.isOk()) return ctx.error(s.message());
  if (Status s = checkZeroPoint(bZero, b.dtype(), n, "b_zero_point"); !s.isOk()) return ctx.error(s.message());
  Tensor out = Tensor::uninitialized(DType::kInt32, Shape(*dims));
  integerMatMul(a, integerAt(aZero, 0), b, bZero,
                [&](int64_t r, int64_t j, int32_t sum) { out.data<int32_t>()[r * n + j] = sum; });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// ConvInteger: a 2-D convolution of (x - x_zero_point) and (w - w_zero_point) in int32.
Status convInteger(KernelContext& ctx) {
  const Tensor &x = ctx.inputs[0], &w = ctx.inputs[1];
  if (!integer8(x.dtype()) || !integer8(w.dtype())) return ctx.error("convolves uint8 or int8 tensors");
  if (x.shape().rank() != 4 || w.shape().rank() != 4) return ctx.error("runs 2-D convolutions only");
  const int64_t group = attrInt(ctx.node, "group", 1), c = x.shape().dim(1), m = w.shape().dim(0);
  if (group <= 0 || c % group || m % group || w.shape().dim(1) * group != c) return ctx.error("channels do not match");
  const Tensor xZero = zeroPoint(ctx, 2, x.dtype()), wZero = zeroPoint(ctx, 3, w.dtype());
  if (Status s = checkZeroPoint(xZero, x.dtype(), 1, "x_zero_point"); !s.isOk()) return ctx.error(s.message());
  if (Status s = checkZeroPoint(wZero, w.dtype(), m, "w_zero_point"); !s.isOk()) return ctx.error(s.message());
  auto win = onnxWindow(ctx.node, x.shape(), {w.shape().dim(2), w.shape().dim(3)});
  if (!win) return ctx.error(win.status().message());
  const int64_t p = win->out[0] * win->out[1];
  Tensor out = Tensor::uninitialized(DType::kInt32, Shape{x.shape().dim(0), m, win->out[0], win->out[1]});
  integerConv(x, integerAt(xZero, 0), w, wZero, nullptr, group, *win, [&](int64_t n, int64_t oc, const int32_t* sums) {
    std::copy(sums, sums + p, out.data<int32_t>() + (n * m + oc) * p);
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxIntegerKernels(KernelTable& r) {
  r.add("onnx::DynamicQuantizeLinear", withInputs(1, dynamicQuantizeLinear));
  r.add("onnx::MatMulInteger", withInputs(2, matMulInteger));
  r.add("onnx::ConvInteger", withInputs(2, convInteger));
}

}  // namespace flowscope
