// Finding the 1x1 + depthwise pairs of a placed graph and putting one fused node in their place
// (pointwise_depthwise.h). A pair: a _FusedConv2D with a constant [1, 1, C, OC] filter, stride 1 and a bias, read
// only by a _FusedDepthwiseConv2dNative with a constant [3, 3, OC, 1] filter, equal strides of 1 or 2 and a bias;
// both NHWC float32 with a bias and at most a ReLU or ReLU6 (so each has three inputs).
#include <set>

#include "exec/cpu/pointwise_depthwise.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"
#include "ops/shape_inference.h"

namespace flowscope {
namespace {

// oneDNN 2.6's fused kernel wins only where the 1x1 output is large: MobileNetV2's 4.6 MiB one in its third block
// took 638 us fused against 886 us as two kernels at 1 thread (370 against 495 at 2); at 1.7 MiB (the fourth
// block) fused lost, 571 against 425, as did every smaller pair, in the same alternating runs.
constexpr int64_t kMinFusedMiddleBytes = int64_t{4} << 20;

bool fusedWithBiasOnly(const Node& node) {
  const AttrValue* ops = node.attr("fused_ops");
  if (!ops || ops->kind() != AttrValue::Kind::kList || ops->list().s.empty() || ops->list().s[0] != "BiasAdd")
    return false;
  const auto& names = ops->list().s;
  return names.size() == 1 || (names.size() == 2 && (names[1] == "Relu" || names[1] == "Relu6"));
}

bool floatNhwc(const Node& node) {
  const AttrValue* t = node.attr("T");
  return attrString(node, "data_format", "NHWC") == "NHWC" && t && t->kind() == AttrValue::Kind::kType &&
         t->type() == DType::kFloat;
}

bool filterShaped(const Graph& graph, const Node& node, const Shape& want) {
  const Tensor* filter = node.inputs.size() > 1 ? constantInput(graph, node.inputs[1]) : nullptr;
  return filter && filter->shape() == want;
}

// The index of the 1x1 node that `depthwise` (at index d) fuses with, or -1. `fetched`: nodes fed or fetched.
int64_t pointwiseOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& fetched, size_t d) {
  const Node& dw = graph.node(d);
  if (dw.op != "_FusedDepthwiseConv2dNative" || !fusedWithBiasOnly(dw) || !floatNhwc(dw) || dw.inputs.size() != 3)
    return -1;
  const std::vector<int64_t> strides = attrInts(dw, "strides"), dilations = attrInts(dw, "dilations");
  if (strides.size() != 4 || strides[1] != strides[2] || strides[1] < 1 || strides[1] > 2 ||
      (!dilations.empty() && dilations != std::vector<int64_t>{1, 1, 1, 1}))
    return -1;
  const int64_t p = dw.inputs[0].index == 0 ? graph.find(dw.inputs[0].node) : -1;
  if (p < 0) return -1;
  const Node& pw = graph.node(static_cast<size_t>(p));
  if (pw.op != "_FusedConv2D" || !fusedWithBiasOnly(pw) || !floatNhwc(pw) || pw.inputs.size() != 3 ||
      attrInts(pw, "strides") != std::vector<int64_t>{1, 1, 1, 1} || fetched.count(pw.name) ||
      fanout.dataUses(static_cast<size_t>(p)) != 1 || fanout.controlUses(static_cast<size_t>(p)) != 0)
    return -1;
  const Tensor* pwFilter = constantInput(graph, pw.inputs[1]);
  if (!pwFilter || pwFilter->shape().rank() != 4 || pwFilter->shape().dim(0) != 1 || pwFilter->shape().dim(1) != 1)
    return -1;
  return filterShaped(graph, dw, Shape{3, 3, pwFilter->shape().dim(3), 1}) ? p : -1;
}

// The fused node: the depthwise node's name, the 1x1 node's inputs then the depthwise node's after its first.
Node fusedNode(const Node& pw, const Node& dw) {
  Node fused;
  fused.name = dw.name;
  fused.op = kPointwiseDepthwiseOp;
  fused.device = dw.device;
  fused.inputs = pw.inputs;
  fused.inputs.insert(fused.inputs.end(), dw.inputs.begin() + 1, dw.inputs.end());
  fused.controlInputs = pw.controlInputs;
  fused.controlInputs.insert(fused.controlInputs.end(), dw.controlInputs.begin(), dw.controlInputs.end());
  fused.attrs["T"] = AttrValue::fromType(DType::kFloat);
  fused.attrs["pointwise"] = AttrValue::fromString(pw.name);
  return fused;
}

OpDef fusedOpDef() {
  OpDef def;
  def.name = kPointwiseDepthwiseOp;
  def.summary = "A 1x1 convolution and the 3x3 depthwise convolution reading it, run as one oneDNN primitive";
  for (const char* name : {"input", "pointwise_filter", "pointwise_bias", "depthwise_filter", "depthwise_bias"}) {
    ArgDef arg;
    arg.name = name;
    arg.type = DType::kFloat;
    def.inputs.push_back(arg);
  }
  ArgDef out;
  out.name = "output";
  out.type = DType::kFloat;
  def.outputs.push_back(out);
  return def;
}

}  // namespace

void fusePointwiseDepthwise(Placement& placement, const PlacementRequest& request) {
  Graph& graph = placement.graph;
  std::set<std::string> fetched = request.fedNodes;  // a fed or fetched 1x1 output must stay a node of its own
  for (const std::string& f : request.fetches) fetched.insert(f.substr(0, f.find(':')));
  const Fanout fanout(graph);
  std::vector<std::pair<size_t, size_t>> pairs;  // (depthwise, 1x1)
  for (size_t d = 0; d < graph.size(); ++d)
    if (const int64_t p = pointwiseOf(graph, fanout, fetched, d); p >= 0) pairs.emplace_back(d, static_cast<size_t>(p));
  if (pairs.empty()) return;
  const GraphShapes shapes = inferShapes(graph);
  std::vector<bool> drop(graph.size(), false);
  std::vector<std::pair<size_t, Node>> fused;
  for (auto [d, p] : pairs) {
    const TensorInfo* middle = shapes.find(p, 0);
    if (!middle || !middle->shape.isFullyDefined() || middle->shape.numElements() * 4 < kMinFusedMiddleBytes) continue;
    const Node& pw = graph.node(p);
    const Node& dw = graph.node(d);
    fused.emplace_back(d, fusedNode(pw, dw));
    placement.preparedKernels[dw.name] = [pw, dw] { return makePointwiseDepthwiseKernel(pw, dw); };
    drop[p] = true;
  }
  if (fused.empty()) return;
  for (auto& [index, node] : fused) graph.replaceNode(index, std::move(node));
  graph.removeNodes(drop);
  placement.addedOps[kPointwiseDepthwiseOp] = fusedOpDef();
}

}  // namespace flowscope
