// The remapper's Contraction + BiasAdd + Add [+ activation] fusion (remapper_add.h). Shapes must be statically equal
// (a batch unknown until fed counts when both sides have it from one origin): the fused kernel adds the addend
// elementwise (no broadcasting), as TensorFlow's oneDNN kernel does.
#include "passes/remapper_add.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph_algorithms.h"
#include "ops/shape_inference.h"
#include "passes/graph_rewrite.h"

namespace flowscope {
namespace {

bool isAdd(const std::string& op) { return op == "Add" || op == "AddV2" || op == "onnx::Add"; }

// The TensorFlow activation an op is, for the fused_ops list, or "".
std::string activationName(const std::string& op) {
  static const std::map<std::string, std::string> names = {
      {"Relu", "Relu"},           {"Relu6", "Relu6"},     {"Elu", "Elu"},
      {"LeakyRelu", "LeakyRelu"}, {"Tanh", "Tanh"},       {"Sigmoid", "Sigmoid"},
      {"onnx::Relu", "Relu"},     {"onnx::Tanh", "Tanh"}, {"onnx::Sigmoid", "Sigmoid"}};
  auto it = names.find(op);
  return it == names.end() ? "" : it->second;
}

bool biasOnly(const Node& node) {
  const AttrValue* ops = node.attr("fused_ops");
  return node.op == "_FusedConv2D" && ops && ops->kind() == AttrValue::Kind::kList &&
         ops->list().s == std::vector<std::string>{"BiasAdd"} && node.inputs.size() == 3;
}

// Where dim 0 (the batch) of each tensor comes from, for graphs whose batch is unknown until fed: walking back through
// ops whose output's dim 0 is their data inputs' (convolutions, pools, bias, activations, batch norm, pads that leave
// dim 0 alone; elementwise binary ops when both inputs have the same origin), the first tensor that is not such an
// op's output. Two tensors of one origin have the same batch, whatever is fed.
class BatchOrigins {
 public:
  explicit BatchOrigins(const Graph& graph) : m_graph(graph) {}

  /// The origin of `ref`'s dim 0 ("node:index"), or "" when it cannot be traced.
  std::string of(const TensorRef& ref, int depth = 0) {
    const std::string key = ref.node + ":" + std::to_string(ref.index);
    if (auto it = m_memo.find(key); it != m_memo.end()) return it->second;
    const int64_t producer = m_graph.find(ref.node);
    std::string origin = key;
    if (producer >= 0 && ref.index == 0 && depth < kMaxDepth) {
      const Node& node = m_graph.node(static_cast<size_t>(producer));
      if ((keepsBatch(node.op) || padKeepsBatch(node)) && !node.inputs.empty()) {
        origin = of(node.inputs[0], depth + 1);
      } else if (isBinary(node.op) && node.inputs.size() == 2) {
        origin = of(node.inputs[0], depth + 1);
        if (origin != of(node.inputs[1], depth + 1)) origin.clear();
      }
    }
    return m_memo[key] = origin;
  }

 private:
  static constexpr int kMaxDepth = 1000;  // deeper chains are left unfused rather than risk the stack
  static bool keepsBatch(const std::string& op) {
    // clang-format off
    static const std::set<std::string> ops = {
        "Conv2D", "_FusedConv2D", "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative",  // convolutions
        "FusedDepthwiseConv2dNative", "MaxPool", "AvgPool", "BiasAdd",                    // TF.js's, pools, bias
        "Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "Identity",               // activations
        "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"};                        // inference batch norm
    // clang-format on
    return ops.count(op) > 0;
  }
  static bool isBinary(const std::string& op) { return isAdd(op) || op == "Sub" || op == "Mul"; }
  // Pad, PadV2 and MirrorPad with constant paddings that leave dim 0 alone (facemesh's channel padding).
  bool padKeepsBatch(const Node& node) const {
    if ((node.op != "Pad" && node.op != "PadV2" && node.op != "MirrorPad") || node.inputs.size() < 2) return false;
    const Tensor* pads = constantInput(m_graph, node.inputs[1]);
    if (!pads || pads->shape().rank() != 2 || pads->shape().dim(0) < 1 || pads->shape().dim(1) != 2) return false;
    if (pads->dtype() == DType::kInt32) return pads->data<int32_t>()[0] == 0 && pads->data<int32_t>()[1] == 0;
    return pads->dtype() == DType::kInt64 && pads->data<int64_t>()[0] == 0 && pads->data<int64_t>()[1] == 0;
  }

  const Graph& m_graph;
  std::map<std::string, std::string> m_memo;
};

// The addend has the convolution's float shape: every dim known and equal, except a batch that is unknown in both
// but has one origin.
bool sameFloatShape(const GraphShapes& shapes, const Graph& graph, BatchOrigins& origins, size_t conv,
                    const TensorRef& other) {
  const int64_t producer = graph.find(other.node);
  const TensorInfo* a = shapes.find(conv, 0);
  const TensorInfo* b = producer < 0 ? nullptr : shapes.find(static_cast<size_t>(producer), other.index);
  if (!a || !b || a->dtype != DType::kFloat || b->dtype != DType::kFloat || a->shape.hasUnknownRank() ||
      b->shape.hasUnknownRank() || a->shape.rank() != b->shape.rank() || a->shape.rank() == 0)
    return false;
  for (int d = 1; d < a->shape.rank(); ++d)
    if (a->shape.dim(d) < 0 || a->shape.dim(d) != b->shape.dim(d)) return false;
  if (a->shape.dim(0) >= 0) return a->shape.dim(0) == b->shape.dim(0);
  const std::string origin = origins.of(TensorRef{graph.node(conv).name, 0, ""});
  return b->shape.dim(0) < 0 && !origin.empty() && origin == origins.of(other);
}

struct Match {
  size_t conv = 0, add = 0, last = 0;  // last: the add, or the activation after it
  TensorRef addend;
  std::string activation;
};

bool matchAt(const Graph& graph, const PassContext& context, const Fanout& fanout, const GraphShapes& shapes,
             BatchOrigins& origins, size_t conv, Match* m) {
  const Node& node = graph.node(conv);
  if (!biasOnly(node) || context.preserved.count(node.name)) return false;
  const int64_t add = soleReaderOfOutput0(graph, fanout, conv);
  if (add < 0 || !isAdd(graph.node(static_cast<size_t>(add)).op)) return false;
  const Node& addNode = graph.node(static_cast<size_t>(add));
  if (addNode.inputs.size() != 2) return false;
  const bool first = addNode.inputs[0].node == node.name && addNode.inputs[0].index == 0;
  const TensorRef& addend = addNode.inputs[first ? 1 : 0];
  if (addend.node == node.name || !sameFloatShape(shapes, graph, origins, conv, addend)) return false;
  *m = Match{conv, static_cast<size_t>(add), static_cast<size_t>(add), addend, ""};
  const int64_t next = soleReaderOfOutput0(graph, fanout, m->add);
  if (next < 0 || context.preserved.count(addNode.name)) return true;
  const Node& act = graph.node(static_cast<size_t>(next));
  m->activation = activationName(act.op);
  if (m->activation.empty() || act.inputs.size() != 1) {
    m->activation.clear();
    return true;
  }
  m->last = static_cast<size_t>(next);
  return true;
}

Node fusedNode(const Graph& graph, const Match& m) {
  Node fused = graph.node(m.conv);
  fused.name = graph.node(m.last).name;
  recordFusion(fused, {&graph.node(m.conv), &graph.node(m.add), &graph.node(m.last)});
  fused.inputs.push_back(m.addend);
  fused.attrs["num_args"] = AttrValue::fromInt(2);
  AttrList ops;
  ops.s = {"BiasAdd", "Add"};
  if (!m.activation.empty()) ops.s.push_back(m.activation);
  fused.attrs["fused_ops"] = AttrValue::fromList(ops);
  const Node& act = graph.node(m.last);
  if (const AttrValue* a = act.attr("alpha"); m.activation == "LeakyRelu" && a && a->kind() == AttrValue::Kind::kFloat)
    fused.attrs["leakyrelu_alpha"] = *a;
  for (size_t k : {m.add, m.last})
    for (const auto& c : graph.node(k).controlInputs)
      if (std::find(fused.controlInputs.begin(), fused.controlInputs.end(), c) == fused.controlInputs.end())
        fused.controlInputs.push_back(c);
  return fused;
}

}  // namespace

int64_t fuseConvolutionAdds(Graph& graph, const PassContext& context) {
  bool any = false;
  for (size_t i = 0; i < graph.size() && !any; ++i) any = biasOnly(graph.node(i));
  if (!any) return 0;
  const GraphShapes shapes = inferShapes(graph);
  Fanout fanout(graph);
  BatchOrigins origins(graph);
  std::vector<bool> removed(graph.size());
  int64_t count = 0;
  for (size_t i = 0; i < graph.size(); ++i) {
    Match m;
    if (removed[i] || !matchAt(graph, context, fanout, shapes, origins, i, &m) || removed[m.add] || removed[m.last])
      continue;
    Node fused = fusedNode(graph, m);
    removed[m.conv] = true;
    if (m.last != m.add) removed[m.add] = true;
    graph.mutableNode(m.last) = std::move(fused);
    ++count;
  }
  graph.removeNodes(removed);
  return count;
}

}  // namespace flowscope
