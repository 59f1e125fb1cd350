// The remapper's Contraction + BiasAdd + Add [+ activation] fusion (remapper_add.h). Shapes must be statically known
// and equal: the fused kernel adds the addend elementwise (no broadcasting), as TensorFlow's oneDNN kernel does.
#include "passes/remapper_add.h"

#include <algorithm>
#include <map>
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

bool sameKnownFloatShape(const GraphShapes& shapes, const Graph& graph, size_t conv, const TensorRef& other) {
  const int64_t producer = graph.find(other.node);
  const TensorInfo* a = shapes.find(conv, 0);
  const TensorInfo* b = producer < 0 ? nullptr : shapes.find(static_cast<size_t>(producer), other.index);
  return a && b && a->dtype == DType::kFloat && b->dtype == DType::kFloat && a->shape.isFullyDefined() &&
         a->shape == b->shape;
}

struct Match {
  size_t conv = 0, add = 0, last = 0;  // last: the add, or the activation after it
  TensorRef addend;
  std::string activation;
};

bool matchAt(const Graph& graph, const PassContext& context, const Fanout& fanout, const GraphShapes& shapes,
             size_t conv, Match* m) {
  const Node& node = graph.node(conv);
  if (!biasOnly(node) || context.preserved.count(node.name)) return false;
  const int64_t add = soleReaderOfOutput0(graph, fanout, conv);
  if (add < 0 || !isAdd(graph.node(static_cast<size_t>(add)).op)) return false;
  const Node& addNode = graph.node(static_cast<size_t>(add));
  if (addNode.inputs.size() != 2) return false;
  const bool first = addNode.inputs[0].node == node.name && addNode.inputs[0].index == 0;
  const TensorRef& addend = addNode.inputs[first ? 1 : 0];
  if (addend.node == node.name || !sameKnownFloatShape(shapes, graph, conv, addend)) return false;
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
  std::vector<bool> removed(graph.size());
  int64_t count = 0;
  for (size_t i = 0; i < graph.size(); ++i) {
    Match m;
    if (removed[i] || !matchAt(graph, context, fanout, shapes, i, &m) || removed[m.add] || removed[m.last]) continue;
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
