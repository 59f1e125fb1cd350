// FLOP estimates for ONNX nodes.
#include "profile/onnx_flops.h"

#include <set>
#include <string>

#include "profile/flops.h"

namespace flowscope {
namespace {

int64_t intAttr(const Node& node, const char* name, int64_t fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : fallback;
}

// Conv (weights [M, C/group, k...]), Gemm (A [M, K], or [K, M] with transA) and MatMul (NumPy's: K is A's last
// dimension).
int64_t contractionFlops(const std::string& op, const Node& node, const InputShapes& inputs, const Shape& out) {
  if (inputs.size() < 2 || !inputs[0] || !inputs[1]) return 0;
  const Shape& a = *inputs[0];
  const Shape& b = *inputs[1];
  const int64_t bias = inputs.size() > 2 && inputs[2] ? out.numElements() : 0;
  if (op == "Conv") {
    if (b.rank() < 3) return 0;
    int64_t perOutput = 1;
    for (int d = 1; d < b.rank(); ++d) perOutput *= b.dim(d);
    return 2 * out.numElements() * perOutput + bias;
  }
  if (op == "Gemm") {
    if (a.rank() != 2) return 0;
    return 2 * out.numElements() * (intAttr(node, "transA", 0) ? a.dim(0) : a.dim(1)) + bias;
  }
  return a.rank() >= 1 ? 2 * out.numElements() * a.dim(a.rank() - 1) : 0;  // MatMul
}

int64_t poolFlops(const Node& node, const Shape& out) {
  const AttrValue* k = node.attr("kernel_shape");
  int64_t window = 1;
  if (k && k->kind() == AttrValue::Kind::kList)
    for (int64_t d : k->list().i) window *= d;
  return out.numElements() * window;
}

}  // namespace

int64_t estimateOnnxFlops(const Node& node, const InputShapes& inputs, const Shape& out) {
  // ONNX's own names; the ops it shares with TensorFlow (Add, Relu, Exp, ...) count in elementwiseFlops().
  static const std::set<std::string> transcendental = {"Gelu", "Mish", "Asin", "Acos", "Atan", "Sinh", "Cosh"};
  static const std::set<std::string> arithmetic = {
      "Max",         "Min",       "Sum",        "Mean",        "PRelu",          "Clip", "Where",
      "HardSigmoid", "HardSwish", "Reciprocal", "LessOrEqual", "GreaterOrEqual", "Mod"};
  static const std::set<std::string> reductions = {"ReduceSum",         "ReduceMean",   "ReduceMax", "ReduceMin",
                                                   "ReduceProd",        "ReduceL1",     "ReduceL2",  "ReduceSumSquare",
                                                   "GlobalAveragePool", "GlobalMaxPool"};
  const std::string op = node.op.substr(node.op.rfind("::") + 2);
  const int64_t n = out.numElements();
  if (op == "Conv" || op == "Gemm" || op == "MatMul") return contractionFlops(op, node, inputs, out);
  if (reductions.count(op)) return inputs.empty() || !inputs[0] ? 0 : inputs[0]->numElements();
  if (op == "MaxPool" || op == "AveragePool") return poolFlops(node, out);
  if (op == "Softmax" || op == "LogSoftmax" || op == "LayerNormalization" || op == "InstanceNormalization")
    return 5 * n;
  if (op == "BatchNormalization") return 2 * n;
  if (transcendental.count(op)) return 10 * n;
  if (arithmetic.count(op)) return n;
  return elementwiseFlops(op, n);
}

}  // namespace flowscope
