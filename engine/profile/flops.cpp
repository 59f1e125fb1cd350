// FLOP and byte estimates for the profiler's roofline.
#include "profile/flops.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "profile/onnx_flops.h"

namespace flowscope {
namespace {

// The elementwise steps a fused contraction runs on each output, from its fused_ops (TensorFlow's _Fused* ops and
// TF.js's FusedDepthwiseConv2dNative alike): one for the bias and activation, one more for a fused Add.
int64_t epilogueStepsOf(const Node& node) {
  const AttrValue* ops = node.attr("fused_ops");
  if (!ops || ops->kind() != AttrValue::Kind::kList || ops->list().s.empty()) return 0;
  const auto& names = ops->list().s;
  return std::find(names.begin(), names.end(), "Add") != names.end() ? 2 : 1;
}

// Matrix products and convolutions: 2 FLOPs per multiply-add, plus the fused epilogue's steps per output.
int64_t contractionFlops(const Node& node, const InputShapes& inputs, const Shape& out) {
  const std::string& op = node.op;
  const int64_t epilogue = out.numElements() * epilogueStepsOf(node);
  if (!inputs[0] || !inputs[1]) return 0;
  if (op == "MatMul" || op == "_FusedMatMul") {
    const Shape& a = *inputs[0];
    if (a.rank() != 2 || out.rank() != 2) return 0;
    const AttrValue* ta = node.attr("transpose_a");
    return 2 * out.numElements() * (ta && ta->b() ? a.dim(0) : a.dim(1)) + epilogue;
  }
  if (op.rfind("BatchMatMul", 0) == 0) {
    const Shape& a = *inputs[0];
    if (a.rank() < 2) return 0;
    const AttrValue* adj = node.attr("adj_x");
    return 2 * out.numElements() * (adj && adj->b() ? a.dim(a.rank() - 2) : a.dim(a.rank() - 1));
  }
  if (op == "_FusedTransposeConv2D") {  // the CPU's NCHW-input convolution: input, perm, filter [kh, kw, C, OC], bias
    // The placed node keeps no fused_ops: its bias and activation count as the convolution's one epilogue step.
    const Shape* f = inputs.size() > 2 ? inputs[2] : nullptr;
    return f && f->rank() == 4 ? out.numElements() * (2 * f->dim(0) * f->dim(1) * f->dim(2) + 1) : 0;
  }
  const Shape& f = *inputs[1];
  if (f.rank() != 4) return 0;
  if (op == "_FusedPointwiseDepthwise") {  // the CPU's fused 1x1 [1, 1, C, OC] and 3x3 depthwise pair
    const Shape& x = *inputs[0];
    if (x.rank() != 4 || f.dim(2) <= 0) return 0;
    const int64_t middle = x.numElements() / f.dim(2) * f.dim(3);  // the 1x1 output no one sees
    return 2 * middle * f.dim(2) + middle + 2 * out.numElements() * 9 + out.numElements();
  }
  if (op == "_FusedDepthwisePointwise") {  // the CPU's fused [k, k, C, 1] depthwise and 1x1 [1, 1, C, OC] pair
    const int64_t oc = out.rank() == 4 ? out.dim(3) : 0;
    if (oc <= 0) return 0;
    const int64_t middle = out.numElements() / oc * f.dim(2);  // the depthwise output no one sees
    const int64_t addend = inputs.size() > 5 ? 1 : 0;          // a fused Add's: input, two filters, two biases, addend
    return middle * (2 * f.dim(0) * f.dim(1) + 1) + out.numElements() * (2 * f.dim(2) + 1 + addend);
  }
  if (op == "Conv2D" || op == "_FusedConv2D") return 2 * out.numElements() * f.dim(0) * f.dim(1) * f.dim(2) + epilogue;
  return 2 * out.numElements() * f.dim(0) * f.dim(1) + epilogue;  // depthwise: one input channel per output
}

// Operations per output (or, for reductions, per input) element of the other op families.
int64_t elementFlops(const Node& node, const InputShapes& inputs, const Shape& out) {
  static const std::set<std::string> reductions = {"Sum", "Mean", "Max", "Min", "Prod", "All", "Any"};
  const std::string& op = node.op;
  const int64_t n = out.numElements();
  if (reductions.count(op) && !inputs.empty() && inputs[0]) return inputs[0]->numElements();
  if (op == "Softmax" || op == "LogSoftmax") return 5 * n;
  if (op == "FusedBatchNorm" || op == "FusedBatchNormV3") return 2 * n;
  if (op == "AddN") return (static_cast<int64_t>(inputs.size()) - 1) * n;
  if (op == "ResizeBilinear") return 8 * n;
  if (op == "MaxPool" || op == "AvgPool") {
    const AttrValue* k = node.attr("ksize");
    const auto& ks = k && k->kind() == AttrValue::Kind::kList ? k->list().i : std::vector<int64_t>{};
    return ks.size() == 4 ? n * ks[1] * ks[2] : n;
  }
  return elementwiseFlops(op, n);
}

}  // namespace

int64_t elementwiseFlops(std::string_view op, int64_t n) {
  static const std::set<std::string_view> transcendental = {"Exp",   "Log",      "Tanh",  "Sigmoid", "Elu",
                                                            "Selu",  "Softplus", "Pow",   "Erf",     "Sqrt",
                                                            "Rsqrt", "Log1p",    "Expm1", "Sin",     "Cos"};
  static const std::set<std::string_view> arithmetic = {
      "Add",      "AddV2",      "Sub",     "Mul",       "Div",      "RealDiv",   "Maximum",      "Minimum",
      "BiasAdd",  "Relu",       "Relu6",   "LeakyRelu", "Neg",      "Abs",       "Square",       "SquaredDifference",
      "Prelu",    "Less",       "Greater", "Equal",     "NotEqual", "LessEqual", "GreaterEqual", "Select",
      "SelectV2", "ClipByValue"};
  if (transcendental.count(op)) return 10 * n;
  return arithmetic.count(op) ? n : 0;  // data movement (Pad, Transpose, Concat, gathers, casts) computes nothing
}

int64_t estimateFlops(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
  if (outputs.empty() || !outputs[0].isValid()) return 0;
  InputShapes shapes;
  shapes.reserve(inputs.size());
  for (const Tensor& t : inputs) shapes.push_back(t.isValid() ? &t.shape() : nullptr);
  return estimateFlops(node, shapes, outputs[0].shape());
}

int64_t estimateFlops(const Node& node, const InputShapes& inputs, const Shape& out) {
  const std::string& op = node.op;
  if (op.rfind("onnx::", 0) == 0) return estimateOnnxFlops(node, inputs, out);
  const bool contraction = op == "MatMul" || op == "_FusedMatMul" || op.rfind("BatchMatMul", 0) == 0 ||
                           op == "Conv2D" || op == "_FusedConv2D" || op == "_FusedPointwiseDepthwise" ||
                           op == "_FusedDepthwisePointwise" || op == "_FusedTransposeConv2D" ||
                           op.find("DepthwiseConv2dNative") != std::string::npos;
  if (contraction) return inputs.size() >= 2 ? contractionFlops(node, inputs, out) : 0;
  return elementFlops(node, inputs, out);
}

int64_t tensorBytes(const std::vector<Tensor>& tensors) {
  int64_t bytes = 0;
  for (const auto& t : tensors)
    if (t.isValid()) bytes += static_cast<int64_t>(t.byteSize());
  return bytes;
}

void bytesMoved(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs, int64_t* in,
                int64_t* out) {
  *in = *out = 0;
  if (node.op == "Const" || node.op == "Placeholder" || node.op == "_Arg") return;  // hands a value on as it is
  auto shared = [&](const Tensor& t) {  // an output that is an input's buffer (Identity, Reshape) moved nothing
    if (!t.isValid() || t.byteSize() == 0) return false;
    for (const Tensor& o : outputs)
      for (const Tensor& i : inputs)
        if (o.isValid() && i.isValid() && o.byteSize() && i.byteSize() && o.bytes().data() == i.bytes().data() &&
            (&t == &o || &t == &i))
          return true;
    return false;
  };
  for (const Tensor& t : inputs)
    if (t.isValid() && !t.isStringLike() && !shared(t)) *in += static_cast<int64_t>(t.byteSize());
  for (const Tensor& t : outputs)
    if (t.isValid() && !t.isStringLike() && !shared(t)) *out += static_cast<int64_t>(t.byteSize());
}

}  // namespace flowscope
