// NHWC replacements for ONNX's NCHW convolutions and poolings (see onnx_nhwc_nodes.h).
#include "passes/onnx_nhwc_nodes.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/graph_algorithms.h"
#include "ops/onnx_op_set.h"
#include "ops/op_registry.h"
#include "passes/graph_rewrite.h"

namespace flowscope::onnx_nhwc {
namespace {

std::vector<int64_t> ints(const Node& n, const char* key, std::vector<int64_t> fallback) {
  const AttrValue* a = n.attr(key);
  return a && a->kind() == AttrValue::Kind::kList && !a->list().i.empty() ? a->list().i : fallback;
}

int64_t intOr(const Node& n, const char* key, int64_t fallback) {
  const AttrValue* a = n.attr(key);
  return a && a->kind() == AttrValue::Kind::kInt ? a->i() : fallback;
}

std::string stringOr(const Node& n, const char* key, const std::string& fallback) {
  const AttrValue* a = n.attr(key);
  return a && a->kind() == AttrValue::Kind::kString ? a->s() : fallback;
}

// The ONNX input at formal position `position` (absent optional inputs skipped), or null.
const TensorRef* formalInput(const Node& n, int position) {
  std::vector<int> positions = onnxFormalPositions(n);
  for (size_t k = 0; k < positions.size(); ++k)
    if (positions[k] == position) return &n.inputs[k];
  return nullptr;
}

const Tensor* floatConstant(const Graph& graph, const Node& n, int position, int64_t elements) {
  const TensorRef* ref = formalInput(n, position);
  const Tensor* t = ref ? constantValue(graph, *ref) : nullptr;
  return t && t->dtype() == DType::kFloat && (elements < 0 || t->numElements() == elements) ? t : nullptr;
}

bool oneOutput(const Node& n) {
  const AttrValue* a = n.attr(kOnnxOutTypesAttr);
  return !a || a->kind() != AttrValue::Kind::kList || a->list().type.size() <= 1;
}

// ONNX pads as 2-D [top, left, bottom, right] for NOTSET or VALID padding; nothing for the SAME modes. A 1-D
// window's [begin, end] pads the W axis.
std::optional<std::vector<int64_t>> explicitPads(const Node& n, bool oneD = false) {
  const std::string autoPad = stringOr(n, "auto_pad", "NOTSET");
  if (autoPad == "VALID") return std::vector<int64_t>{0, 0, 0, 0};
  if (autoPad != "NOTSET") return std::nullopt;
  std::vector<int64_t> pads = ints(n, "pads", oneD ? std::vector<int64_t>{0, 0} : std::vector<int64_t>{0, 0, 0, 0});
  // A negative pad (ONNX forbids them) stays on the ONNX node, whose kernel names it as the model does: "pads".
  if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p < 0; })) return std::nullopt;
  if (oneD && pads.size() == 2) return std::vector<int64_t>{0, pads[0], 0, pads[1]};
  if (oneD || pads.size() != 4) return std::nullopt;
  return pads;
}

AttrValue intList(std::vector<int64_t> values) {
  AttrList list;
  list.i = std::move(values);
  return AttrValue::fromList(std::move(list));
}

// TensorFlow's window attrs for NHWC with ONNX's explicit pads [top, left, bottom, right].
void setWindowAttrs(Node& node, const std::vector<int64_t>& strides, const std::vector<int64_t>& pads) {
  node.attrs["T"] = AttrValue::fromType(DType::kFloat);
  node.attrs["strides"] = intList({1, strides[0], strides[1], 1});
  node.attrs["padding"] = AttrValue::fromString("EXPLICIT");
  node.attrs["explicit_paddings"] = intList({0, 0, pads[0], pads[2], pads[1], pads[3], 0, 0});
  node.attrs["data_format"] = AttrValue::fromString("NHWC");
}

void fillDefaults(Node& node) {
  if (const OpSchema* schema = OpRegistry::global().find(node.op)) fillDefaultAttrs(node, schema->def);
}

// A float32 node (attr T) of `op` reading `inputs`.
Node floatNode(const std::string& name, const char* op, std::vector<TensorRef> inputs, const std::string& device) {
  Node node;
  node.name = name;
  node.op = op;
  node.device = device;
  node.inputs = std::move(inputs);
  node.attrs["T"] = AttrValue::fromType(DType::kFloat);
  return node;
}

// `value` as a Const added to `graph` under a free name from `name`; its output.
TensorRef addConst(Graph& graph, const std::string& name, const Tensor& value, const std::string& device) {
  const std::string constName = uniqueNodeName(graph, name);
  graph.addNode(makeConst(constName, value, device));
  return TensorRef{constName, 0, ""};
}

float scalarOf(const Tensor* t, float fallback) { return t && t->numElements() == 1 ? t->data<float>()[0] : fallback; }

// Per output channel: the batch norm's scale s = gamma / sqrt(var + eps) and shift beta - mean * s (1 and 0 without).
void batchNormTerms(const Graph& graph, const Node* bn, int64_t m, std::vector<float>* scale,
                    std::vector<float>* shift) {
  scale->assign(static_cast<size_t>(m), 1.0f);
  shift->assign(static_cast<size_t>(m), 0.0f);
  if (!bn) return;
  const float eps = bn->attr("epsilon") ? bn->attr("epsilon")->f() : 1e-5f;
  const float* gamma = floatConstant(graph, *bn, 1, m)->data<float>();
  const float* beta = floatConstant(graph, *bn, 2, m)->data<float>();
  const float* mean = floatConstant(graph, *bn, 3, m)->data<float>();
  const float* var = floatConstant(graph, *bn, 4, m)->data<float>();
  for (size_t o = 0; o < scale->size(); ++o) {
    (*scale)[o] = gamma[o] / std::sqrt(var[o] + eps);
    (*shift)[o] = beta[o] - mean[o] * (*scale)[o];
  }
}

}  // namespace

const Tensor* constantValue(const Graph& graph, const TensorRef& ref) {
  const Node* producer = graph.findNode(ref.node);
  for (int hops = 0; producer && producer->op == "onnx::Identity" && !producer->inputs.empty() && hops < 8; ++hops)
    producer = graph.findNode(producer->inputs[0].node);
  if (!producer || ref.index != 0) return nullptr;
  if (producer->op == "Const") return constantInput(graph, TensorRef{producer->name, 0, ""});
  const AttrValue* value = producer->op == "onnx::Constant" ? producer->attr("value") : nullptr;
  return value && value->kind() == AttrValue::Kind::kTensor && value->tensor().isValid() ? &value->tensor() : nullptr;
}

std::optional<ConvPlan> planConv(const Graph& graph, const Node& conv) {
  if (conv.op != "onnx::Conv" || onnxCaptureCount(conv) || !oneOutput(conv)) return std::nullopt;
  ConvPlan plan;
  plan.weights = floatConstant(graph, conv, 1, -1);
  if (!plan.weights || plan.weights->shape().rank() < 3 || plan.weights->shape().rank() > 4) return std::nullopt;
  plan.oneD = plan.weights->shape().rank() == 3;
  const int64_t m = plan.weights->shape().dim(0), group = intOr(conv, "group", 1);
  if (formalInput(conv, 2) && !(plan.bias = floatConstant(graph, conv, 2, m))) return std::nullopt;
  plan.depthwise = group > 1 && plan.weights->shape().dim(1) == 1 && m % group == 0;
  plan.group = group;
  if (group != 1 && !plan.depthwise) return std::nullopt;
  auto pads = explicitPads(conv, plan.oneD);
  const std::vector<int64_t> unit(plan.oneD ? 1 : 2, 1);
  plan.strides = ints(conv, "strides", unit);
  plan.dilations = ints(conv, "dilations", unit);
  if (!pads || plan.strides.size() != unit.size() || plan.dilations.size() != unit.size()) return std::nullopt;
  if (plan.oneD) {  // as 2-D with a height of 1
    plan.strides.insert(plan.strides.begin(), 1);
    plan.dilations.insert(plan.dilations.begin(), 1);
  }
  plan.pads = *pads;
  return plan;
}

bool foldableBatchNorm(const Graph& graph, const Node& bn, int64_t channels) {
  if (bn.op != "onnx::BatchNormalization" || !oneOutput(bn) || intOr(bn, "training_mode", 0) != 0) return false;
  const AttrValue* eps = bn.attr("epsilon");
  if (eps && eps->kind() != AttrValue::Kind::kFloat) return false;
  for (int k = 1; k <= 4; ++k)
    if (!floatConstant(graph, bn, k, channels)) return false;
  return true;
}

std::string fusedActivation(const Graph& graph, const Node& act) {
  if (act.op == "onnx::Relu") return "Relu";
  if (act.op != "onnx::Clip" || act.inputs.empty()) return "";
  const float inf = std::numeric_limits<float>::infinity();
  const bool asInputs = !act.attr("min") && !act.attr("max");
  const Tensor* lo = asInputs ? floatConstant(graph, act, 1, 1) : nullptr;
  const Tensor* hi = asInputs ? floatConstant(graph, act, 2, 1) : nullptr;
  if (asInputs && ((formalInput(act, 1) && !lo) || (formalInput(act, 2) && !hi))) return "";
  const float minValue = asInputs ? scalarOf(lo, -inf) : (act.attr("min") ? act.attr("min")->f() : -inf);
  const float maxValue = asInputs ? scalarOf(hi, inf) : (act.attr("max") ? act.attr("max")->f() : inf);
  if (minValue == 0.0f && maxValue == 6.0f) return "Relu6";
  if (minValue == 0.0f && maxValue == inf) return "Relu";
  return "";
}

Node makeFusedConv(Graph& graph, const Node& conv, const std::string& name, const ConvPlan& plan, const Node* bn,
                   const std::string& activation) {
  const Shape& ws = plan.weights->shape();
  const int64_t m = ws.dim(0), c = ws.dim(1), kh = plan.oneD ? 1 : ws.dim(2), kw = ws.dim(plan.oneD ? 2 : 3);
  std::vector<float> scale, shift;
  batchNormTerms(graph, bn, m, &scale, &shift);
  // [M, C, kh, kw] -> [kh, kw, C, M]; depthwise (C = 1) that is [kh, kw, group, M / group] as well.
  Tensor filter(DType::kFloat, plan.depthwise ? Shape{kh, kw, plan.group, m / plan.group} : Shape{kh, kw, c, m});
  const float* w = plan.weights->data<float>();
  float* f = filter.data<float>();
  for (int64_t o = 0; o < m; ++o)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t k = 0; k < kh * kw; ++k)
        f[(k * c + ci) * m + o] = w[(o * c + ci) * kh * kw + k] * scale[static_cast<size_t>(o)];
  Tensor bias(DType::kFloat, Shape{m});
  for (int64_t o = 0; o < m; ++o) {
    const float b = plan.bias ? plan.bias->data<float>()[o] : 0.0f;
    bias.data<float>()[o] = b * scale[static_cast<size_t>(o)] + shift[static_cast<size_t>(o)];
  }
  const std::string device = conv.device;
  Node node = floatNode(name, plan.depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D",
                        {conv.inputs[0], addConst(graph, name + "/nhwc_filter", filter, device),
                         addConst(graph, name + "/nhwc_bias", bias, device)},
                        device);
  setWindowAttrs(node, plan.strides, plan.pads);
  node.attrs["dilations"] = intList({1, plan.dilations[0], plan.dilations[1], 1});
  node.attrs["num_args"] = AttrValue::fromInt(1);
  AttrList ops;
  ops.s = {"BiasAdd"};
  if (!activation.empty()) ops.s.push_back(activation);
  node.attrs["fused_ops"] = AttrValue::fromList(ops);
  const bool unit = plan.strides == std::vector<int64_t>{1, 1} && plan.dilations == std::vector<int64_t>{1, 1};
  if (!plan.depthwise && kh == 3 && kw == 3 && unit) node.attrs["_winograd"] = AttrValue::fromBool(true);
  fillDefaults(node);
  return node;
}

std::optional<Node> makePool(const Node& pool) {
  const bool max = pool.op == "onnx::MaxPool";
  if ((!max && pool.op != "onnx::AveragePool") || !oneOutput(pool) || intOr(pool, "ceil_mode", 0) != 0)
    return std::nullopt;
  auto pads = explicitPads(pool);
  const std::vector<int64_t> kernel = ints(pool, "kernel_shape", {}), strides = ints(pool, "strides", {1, 1});
  const std::vector<int64_t> dilations = ints(pool, "dilations", {1, 1});
  if (!pads || kernel.size() != 2 || strides.size() != 2 || dilations != std::vector<int64_t>{1, 1})
    return std::nullopt;
  const bool padded = *pads != std::vector<int64_t>{0, 0, 0, 0};
  if ((max && intOr(pool, "storage_order", 0) != 0) || (!max && padded && intOr(pool, "count_include_pad", 0)))
    return std::nullopt;
  Node node;
  node.name = pool.name;
  node.op = max ? "MaxPool" : "AvgPool";
  node.device = pool.device;
  node.inputs = {pool.inputs[0]};
  node.controlInputs = pool.controlInputs;
  setWindowAttrs(node, strides, *pads);
  node.attrs["ksize"] = intList({1, kernel[0], kernel[1], 1});
  fillDefaults(node);
  return node;
}

std::optional<Node> makeGlobalAveragePool(Graph& graph, const Node& pool) {
  if (pool.op != "onnx::GlobalAveragePool" || !oneOutput(pool)) return std::nullopt;
  Tensor axes(DType::kInt32, Shape{2});
  axes.data<int32_t>()[0] = 1;
  axes.data<int32_t>()[1] = 2;
  Node node = floatNode(pool.name, "Mean", {pool.inputs[0], addConst(graph, pool.name + "/axes", axes, pool.device)},
                        pool.device);
  node.controlInputs = pool.controlInputs;
  node.attrs["Tidx"] = AttrValue::fromType(DType::kInt32);
  node.attrs["keep_dims"] = AttrValue::fromBool(true);
  fillDefaults(node);
  return node;
}

Node makeExpandDims(Graph& graph, const std::string& name, const TensorRef& input, int32_t axis,
                    const std::string& device) {
  const TensorRef axisRef = addConst(graph, name + "/axis", Tensor::scalar(DType::kInt32, axis), device);
  Node node = floatNode(name, "ExpandDims", {input, axisRef}, device);
  node.attrs["Tdim"] = AttrValue::fromType(DType::kInt32);
  fillDefaults(node);
  return node;
}

Node makeSqueeze(const std::string& name, const TensorRef& input, int64_t axis, const std::string& device) {
  Node node = floatNode(name, "Squeeze", {input}, device);
  node.attrs["squeeze_dims"] = intList({axis});
  fillDefaults(node);
  return node;
}

Node makeTranspose(Graph& graph, const std::string& name, const TensorRef& input, const std::vector<int32_t>& perm,
                   const std::string& device) {
  Tensor p(DType::kInt32, Shape{static_cast<int64_t>(perm.size())});
  for (size_t k = 0; k < perm.size(); ++k) p.data<int32_t>()[k] = perm[k];
  Node node = floatNode(name, "Transpose", {input, addConst(graph, name + "/perm", p, device)}, device);
  node.attrs["Tperm"] = AttrValue::fromType(DType::kInt32);
  fillDefaults(node);
  return node;
}

}  // namespace flowscope::onnx_nhwc
