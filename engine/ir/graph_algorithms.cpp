// Graph algorithms shared by every room above ir/: consumers, topological order, constants, sinks, tensor names.
#include "ir/graph_algorithms.h"

#include <algorithm>
#include <set>
#include <unordered_set>

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
  const Node* producer = graph.findNode(ref.node);
  if (!producer || producer->op != "Const" || ref.index != 0) return nullptr;
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

std::vector<std::string> sinkNodes(const Graph& graph) {
  std::unordered_set<std::string> consumed;
  for (size_t i = 0; i < graph.size(); ++i) {
    for (const auto& in : graph.node(i).inputs) consumed.insert(in.node);
    for (const auto& c : graph.node(i).controlInputs) consumed.insert(c);
  }
  std::vector<std::string> sinks;
  for (size_t i = 0; i < graph.size(); ++i)
    if (!consumed.count(graph.node(i).name)) sinks.push_back(graph.node(i).name);
  return sinks;
}

bool parseTensorName(const std::string& text, std::string* node, int* index) {
  TensorRef ref;
  if (!parseTensorRef(text, false, &ref)) return false;
  *node = ref.node;
  *index = ref.index;
  return true;
}

}  // namespace flowscope
