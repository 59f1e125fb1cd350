// Graph algorithms shared by every room above ir/: consumers, topological order, constants, sinks, tensor names.
#include "ir/graph_algorithms.h"

#include <algorithm>
#include <set>

namespace flowscope {

size_t Fanout::dataUses(size_t producer) const {
  const auto all = uses(producer);
  return static_cast<size_t>(std::count_if(all.begin(), all.end(), [](const Use& u) { return u.slot >= 0; }));
}

size_t Fanout::controlUses(size_t producer) const { return uses(producer).size() - dataUses(producer); }

size_t Fanout::dataUsesOfOutput(const Graph& graph, size_t producer, int output) const {
  size_t count = 0;
  for (const auto& u : uses(producer))
    if (u.slot >= 0 && graph.node(u.node).inputs[static_cast<size_t>(u.slot)].index == output) ++count;
  return count;
}

std::vector<size_t> topologicalOrder(const Graph& graph) { return graph.edges()->dependencyOrder(); }

const Tensor* constantInput(const Graph& graph, const TensorRef& ref) {
  return constantValue(graph.findNode(ref.node), ref.index);
}

const Tensor* constantValue(const Node* producer, int output) {
  if (!producer || producer->op != "Const" || output != 0) return nullptr;
  const AttrValue* value = producer->attr("value");
  if (!value || value->kind() != AttrValue::Kind::kTensor || !value->tensor().isValid()) return nullptr;
  return &value->tensor();
}

bool isDataflowControlOp(const std::string& op) {
  static const std::set<std::string> ops = {"Switch",        "RefSwitch",        "Merge",    "RefMerge",
                                            "Enter",         "RefEnter",         "Exit",     "RefExit",
                                            "NextIteration", "RefNextIteration", "LoopCond", "ControlTrigger"};
  return ops.count(op) > 0;
}

// A node is a sink when no input names it: the first node of its name (the one inputs resolve to) has no uses.
std::vector<std::string> sinkNodes(const Graph& graph) {
  const auto edges = graph.edges();
  std::vector<std::string> sinks;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& node = graph.node(i);
    const int64_t first = graph.find(node.name);
    if (first < 0 || edges->uses(static_cast<size_t>(first)).empty()) sinks.push_back(node.name);
  }
  return sinks;
}

bool parseTensorName(const std::string& text, std::string* node, int* index) {
  TensorRef ref;
  if (!parseTensorRef(text, false, &ref)) return false;
  *node = ref.node;
  *index = ref.index;
  return true;
}

int64_t soleReaderOfOutput0(const Graph& graph, const Fanout& fanout, size_t producer) {
  const auto uses = fanout.uses(producer);
  if (uses.size() != 1 || uses[0].slot < 0) return -1;
  if (graph.node(uses[0].node).inputs[static_cast<size_t>(uses[0].slot)].index != 0) return -1;
  return static_cast<int64_t>(uses[0].node);
}

}  // namespace flowscope
