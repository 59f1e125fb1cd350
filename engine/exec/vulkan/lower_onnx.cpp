// ONNX's float ops on Vulkan: each ONNX node is lowered as the TensorFlow op that computes the same thing (its
// attributes and compile-time inputs translated: Gemm as _FusedMatMul with a bias, Flatten and Unsqueeze as Reshape,
// GlobalAveragePool as Mean over H and W, ...), so both op sets share one set of shaders. What has no such
// translation (an ONNX Conv in NCHW, Gemm with alpha != 1, ...) fails naming the node; the optimizer's
// onnx_channels_last pass turns a model's convolutions and pools into the NHWC ops that do run here.
#include <cmath>
#include <numeric>

#include "exec/vulkan/lowering_util.h"
#include "ops/onnx_op_set.h"

namespace flowscope::vk {
namespace {

/// The node as TensorFlow op `op` with `attrs`, lowered with `shapes` and `consts` (the TF op's inputs).
Expected<LoweredNode> lowerAsTf(const NodeView& v, const std::string& op, AttrMap attrs, std::vector<Shape> shapes,
                                std::vector<const Tensor*> consts) {
  Node tf;
  tf.name = v.node.name;
  tf.op = op;
  tf.attrs = std::move(attrs);
  consts.resize(shapes.size(), nullptr);
  return lower(NodeView{tf, std::move(shapes), std::move(consts), v.gemm});
}

Tensor int64Tensor(const std::vector<int64_t>& values) {
  Tensor t(DType::kInt64, Shape{static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return t;
}

/// A copy of input 0 as `dims` (Reshape with a constant shape).
Expected<LoweredNode> reshapeTo(const NodeView& v, const std::vector<int64_t>& dims) {
  const Tensor shape = int64Tensor(dims);
  return lowerAsTf(v, "Reshape", {}, {v.inputShapes[0], shape.shape()}, {nullptr, &shape});
}

/// The input at ONNX formal position `position` when it is a compile-time constant, else null.
const Tensor* formalConst(const NodeView& v, int position) {
  const std::vector<int> positions = onnxFormalPositions(v.node);
  for (size_t i = 0; i < positions.size() && i < v.constInputs.size(); ++i)
    if (positions[i] == position) return v.constInputs[i];
  return nullptr;
}

Expected<LoweredNode> lowerElementwise(const NodeView& v) {
  static const std::map<std::string, std::string> tfOps = {
      {"onnx::Add", "AddV2"},         {"onnx::Sub", "Sub"},
      {"onnx::Mul", "Mul"},           {"onnx::Div", "RealDiv"},
      {"onnx::Pow", "Pow"},           {"onnx::Max", "Maximum"},
      {"onnx::Min", "Minimum"},       {"onnx::Relu", "Relu"},
      {"onnx::Sigmoid", "Sigmoid"},   {"onnx::Tanh", "Tanh"},
      {"onnx::Exp", "Exp"},           {"onnx::Log", "Log"},
      {"onnx::Neg", "Neg"},           {"onnx::Sqrt", "Sqrt"},
      {"onnx::Abs", "Abs"},           {"onnx::Reciprocal", "Reciprocal"},
      {"onnx::Softplus", "Softplus"}, {"onnx::Identity", "Identity"},
      {"onnx::Floor", "Floor"},       {"onnx::Ceil", "Ceil"},
      {"onnx::Round", "Round"},       {"onnx::Sign", "Sign"},
      {"onnx::Sin", "Sin"},           {"onnx::Cos", "Cos"},
      {"onnx::Softsign", "Softsign"}};
  const std::string& tfOp = tfOps.at(v.node.op);
  const bool binary = tfOp == "AddV2" || tfOp == "Sub" || tfOp == "Mul" || tfOp == "RealDiv" || tfOp == "Pow" ||
                      tfOp == "Maximum" || tfOp == "Minimum";
  if (binary && v.inputShapes.size() != 2)
    return fail(v, "only the two-input form runs on Vulkan (" + std::to_string(v.inputShapes.size()) + " inputs)");
  return lowerAsTf(v, tfOp, {}, v.inputShapes, v.constInputs);
}

Expected<LoweredNode> lowerAlphaActivation(const NodeView& v) {
  const bool elu = v.node.op == "onnx::Elu";
  const float alpha = attrFloat(v.node, "alpha", elu ? 1.0f : 0.01f);
  if (elu && alpha != 1.0f) return fail(v, "Elu with alpha != 1 does not run on Vulkan");
  return lowerAsTf(v, elu ? "Elu" : "LeakyRelu", {{"alpha", AttrValue::fromFloat(alpha)}}, {v.inputShapes[0]}, {});
}

// Clip to [0, 6] or [0, +inf): Relu6 and Relu (min and max come as attrs before opset 11, as inputs from 11 on).
Expected<LoweredNode> lowerClip(const NodeView& v) {
  float lo = -INFINITY, hi = INFINITY;
  if (onnxOpset(v.node, 11) < 11) {
    lo = attrFloat(v.node, "min", lo);
    hi = attrFloat(v.node, "max", hi);
  } else {
    const std::vector<int> positions = onnxFormalPositions(v.node);
    for (int p : {1, 2}) {
      const bool present = std::find(positions.begin(), positions.end(), p) != positions.end();
      const Tensor* t = formalConst(v, p);
      if (present && (!t || t->numElements() != 1)) return fail(v, "min and max must be constant scalars on Vulkan");
      if (t) (p == 1 ? lo : hi) = static_cast<float>(t->elementAsDouble(0));
    }
  }
  if (lo == 0 && hi == 6) return lowerAsTf(v, "Relu6", {}, {v.inputShapes[0]}, {});
  if (lo == 0 && std::isinf(hi) && hi > 0) return lowerAsTf(v, "Relu", {}, {v.inputShapes[0]}, {});
  return fail(v, "only Clip to [0, 6] or [0, inf) runs on Vulkan");
}

// Gemm: Y = A' B' + C with C a row of N (or absent), alpha and beta 1.
Expected<LoweredNode> lowerGemm(const NodeView& v) {
  if (attrFloat(v.node, "alpha", 1.0f) != 1.0f || attrFloat(v.node, "beta", 1.0f) != 1.0f)
    return fail(v, "Gemm with alpha or beta other than 1 does not run on Vulkan");
  AttrMap attrs = {{"transpose_a", AttrValue::fromBool(attrInt(v.node, "transA", 0) != 0)},
                   {"transpose_b", AttrValue::fromBool(attrInt(v.node, "transB", 0) != 0)}};
  if (v.inputShapes.size() < 3) return lowerAsTf(v, "MatMul", attrs, {v.inputShapes[0], v.inputShapes[1]}, {});
  const Shape& c = v.inputShapes[2];
  const Shape& b = v.inputShapes[1];
  const int64_t n = attrs["transpose_b"].b() ? b.dim(0) : b.dim(b.rank() - 1);
  if (c.numElements() != n || (c.rank() == 2 && c.dim(0) != 1) || c.rank() > 2)
    return fail(v, "Gemm's C must be a row of " + std::to_string(n) + " values on Vulkan, got " + c.toString());
  AttrList fused;
  fused.s = {"BiasAdd"};
  attrs["fused_ops"] = AttrValue::fromList(fused);
  return lowerAsTf(v, "_FusedMatMul", attrs, v.inputShapes, {});
}

Expected<LoweredNode> lowerMatMul(const NodeView& v) {
  const Shape& a = v.inputShapes[0];
  const Shape& b = v.inputShapes[1];
  if (a.rank() < 2 || b.rank() < 2) return fail(v, "1-D MatMul operands do not run on Vulkan");
  return lowerAsTf(v, a.rank() == 2 && b.rank() == 2 ? "MatMul" : "BatchMatMulV2", {}, v.inputShapes, {});
}

Expected<LoweredNode> lowerFlatten(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  int64_t axis = attrInt(v.node, "axis", 1);
  if (axis < 0) axis += x.rank();
  if (axis < 0 || axis > x.rank()) return fail(v, "axis out of range for " + x.toString());
  int64_t outer = 1;
  for (int k = 0; k < axis; ++k) outer *= x.dim(k);
  return reshapeTo(v, {outer, outer ? x.numElements() / outer : 0});
}

Expected<LoweredNode> lowerReshape(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  std::vector<int64_t> dims = intValues(*v.constInputs[1]);
  const bool allowZero = attrInt(v.node, "allowzero", 0) != 0;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] == 0 && !allowZero) {
      if (static_cast<int>(k) >= x.rank()) return fail(v, "shape copies a dimension " + x.toString() + " lacks");
      dims[k] = x.dim(static_cast<int>(k));
    }
  return reshapeTo(v, dims);
}

// Squeeze and Unsqueeze: axes as an attr before opset 13, as input 1 from 13 on.
Expected<LoweredNode> lowerSqueezeOrUnsqueeze(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const bool unsqueeze = v.node.op == "onnx::Unsqueeze";
  std::vector<int64_t> axes = attrInts(v.node, "axes");
  if (onnxOpset(v.node, 13) >= 13)
    axes = v.constInputs.size() > 1 && v.constInputs[1] ? intValues(*v.constInputs[1]) : std::vector<int64_t>{};
  const int outRank = unsqueeze ? x.rank() + static_cast<int>(axes.size()) : x.rank();
  for (auto& a : axes) a = a < 0 ? a + outRank : a;
  std::vector<int64_t> dims;
  if (unsqueeze) {
    for (int k = 0, next = 0; k < outRank; ++k)
      dims.push_back(std::count(axes.begin(), axes.end(), k) ? 1 : x.dim(next++));
  } else {
    for (int k = 0; k < x.rank(); ++k)
      if (!(x.dim(k) == 1 && (axes.empty() || std::count(axes.begin(), axes.end(), k)))) dims.push_back(x.dim(k));
  }
  if (Shape(dims).numElements() != x.numElements()) return fail(v, "axes do not fit " + x.toString());
  return reshapeTo(v, dims);
}

Expected<LoweredNode> lowerGlobalAveragePool(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  if (x.rank() < 3) return fail(v, "expected N, C and spatial dimensions, got " + x.toString());
  std::vector<int64_t> axes(static_cast<size_t>(x.rank() - 2));
  std::iota(axes.begin(), axes.end(), 2);
  const Tensor t = int64Tensor(axes);
  return lowerAsTf(v, "Mean", {{"keep_dims", AttrValue::fromBool(true)}}, {x, t.shape()}, {nullptr, &t});
}

// ReduceSum/Mean/Max/Min/Prod: axes as an attr, or input 1 from the opset where they moved (13 for ReduceSum, 18
// for the rest); none means all axes unless noop_with_empty_axes.
Expected<LoweredNode> lowerReduce(const NodeView& v) {
  static const std::map<std::string, std::pair<std::string, int64_t>> ops = {{"onnx::ReduceSum", {"Sum", 13}},
                                                                             {"onnx::ReduceMean", {"Mean", 18}},
                                                                             {"onnx::ReduceMax", {"Max", 18}},
                                                                             {"onnx::ReduceMin", {"Min", 18}},
                                                                             {"onnx::ReduceProd", {"Prod", 18}}};
  const auto& [tfOp, axesFrom] = ops.at(v.node.op);
  const Shape& x = v.inputShapes[0];
  std::vector<int64_t> axes = attrInts(v.node, "axes");
  if (onnxOpset(v.node, 18) >= axesFrom && v.constInputs.size() > 1 && v.constInputs[1])
    axes = intValues(*v.constInputs[1]);
  if (axes.empty() && attrInt(v.node, "noop_with_empty_axes", 0) != 0) return reshapeTo(v, x.dims());
  if (axes.empty())
    for (int k = 0; k < x.rank(); ++k) axes.push_back(k);
  const Tensor t = int64Tensor(axes);
  const bool keep = attrInt(v.node, "keepdims", 1) != 0;
  return lowerAsTf(v, tfOp, {{"keep_dims", AttrValue::fromBool(keep)}}, {x, t.shape()}, {nullptr, &t});
}

// Softmax over the last axis (from opset 13 any axis means that axis alone; before, the axes from `axis` on).
Expected<LoweredNode> lowerSoftmax(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const bool v13 = onnxOpset(v.node, 13) >= 13;
  int64_t axis = attrInt(v.node, "axis", v13 ? -1 : 1);
  if (axis < 0) axis += x.rank();
  if (axis != x.rank() - 1) return fail(v, "only softmax over the last axis runs on Vulkan");
  const bool log = v.node.op == "onnx::LogSoftmax";
  return lowerAsTf(v, log ? "LogSoftmax" : "Softmax", {}, {x}, {});
}

Expected<LoweredNode> lowerTranspose(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  std::vector<int64_t> perm = attrInts(v.node, "perm");
  if (perm.empty())
    for (int k = x.rank() - 1; k >= 0; --k) perm.push_back(k);
  const Tensor t = int64Tensor(perm);
  return lowerAsTf(v, "Transpose", {}, {x, t.shape()}, {nullptr, &t});
}

Expected<LoweredNode> lowerOnnxConcat(const NodeView& v) {
  const Tensor axis = Tensor::scalar(DType::kInt64, attrInt(v.node, "axis", 0));
  std::vector<Shape> shapes = v.inputShapes;
  shapes.push_back(axis.shape());
  std::vector<const Tensor*> consts(v.inputShapes.size(), nullptr);
  consts.push_back(&axis);
  return lowerAsTf(v, "ConcatV2", {}, std::move(shapes), std::move(consts));
}

// Split into the sizes of input 1 (opset 13 on) or the `split` attr, else into as many near-equal pieces as the node
// has outputs (the last one smaller): SplitV with those sizes.
Expected<LoweredNode> lowerOnnxSplit(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  int64_t axis = attrInt(v.node, "axis", 0);
  if (axis < 0) axis += x.rank();
  if (axis < 0 || axis >= x.rank()) return fail(v, "axis out of range for " + x.toString());
  std::vector<int64_t> sizes = attrInts(v.node, "split");
  if (const Tensor* given = formalConst(v, 1)) sizes = intValues(*given);
  const AttrValue* outTypes = v.node.attr(kOnnxOutTypesAttr);
  const auto parts = static_cast<int64_t>(outTypes ? outTypes->list().type.size() : 0);
  if (sizes.empty() && parts > 0) {
    const int64_t len = x.dim(static_cast<int>(axis)), each = (len + parts - 1) / parts;
    for (int64_t k = 0; k < parts; ++k) sizes.push_back(std::max<int64_t>(0, std::min(each, len - k * each)));
  }
  const Tensor t = int64Tensor(sizes), a = Tensor::scalar(DType::kInt64, axis);
  return lowerAsTf(v, "SplitV", {{"num_split", AttrValue::fromInt(static_cast<int64_t>(sizes.size()))}},
                   {x, t.shape(), a.shape()}, {nullptr, &t, &a});
}

}  // namespace

void addOnnxLowerings(std::map<std::string, OpLowering>& table) {
  for (const char* op : {"onnx::Add",        "onnx::Sub",      "onnx::Mul",      "onnx::Div",     "onnx::Pow",
                         "onnx::Max",        "onnx::Min",      "onnx::Relu",     "onnx::Sigmoid", "onnx::Tanh",
                         "onnx::Exp",        "onnx::Log",      "onnx::Neg",      "onnx::Sqrt",    "onnx::Abs",
                         "onnx::Reciprocal", "onnx::Softplus", "onnx::Identity", "onnx::Floor",   "onnx::Ceil",
                         "onnx::Round",      "onnx::Sign",     "onnx::Sin",      "onnx::Cos",     "onnx::Softsign"})
    table[op] = {lowerElementwise, {}};
  table["onnx::Elu"] = {lowerAlphaActivation, {}};
  table["onnx::LeakyRelu"] = {lowerAlphaActivation, {}};
  table["onnx::Clip"] = {lowerClip, {1, 2}};
  table["onnx::Gemm"] = {lowerGemm, {}};
  table["onnx::MatMul"] = {lowerMatMul, {}};
  table["onnx::Flatten"] = {lowerFlatten, {}};
  table["onnx::Reshape"] = {lowerReshape, {1}};
  table["onnx::Squeeze"] = {lowerSqueezeOrUnsqueeze, {1}};
  table["onnx::Unsqueeze"] = {lowerSqueezeOrUnsqueeze, {1}};
  table["onnx::GlobalAveragePool"] = {lowerGlobalAveragePool, {}};
  for (const char* op :
       {"onnx::ReduceSum", "onnx::ReduceMean", "onnx::ReduceMax", "onnx::ReduceMin", "onnx::ReduceProd"})
    table[op] = {lowerReduce, {1}};
  table["onnx::Softmax"] = {lowerSoftmax, {}};
  table["onnx::LogSoftmax"] = {lowerSoftmax, {}};
  table["onnx::Transpose"] = {lowerTranspose, {}};
  table["onnx::Concat"] = {lowerOnnxConcat, {}};
  table["onnx::Split"] = {lowerOnnxSplit, {1}};
  table["onnx::Cast"] = {lowerCast, {}, false, {{0, castSourceTypes()}}};
  table["onnx::Gather"] = {lowerGather, {}, false, {{1, indexTypes()}}};
}

}  // namespace flowscope::vk
