// Graph algorithms shared by every room above ir/: consumers, topological order, constants, sinks, tensor names.
#include "ir/graph_algorithms.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace flowscope {

Fanout::Fanout(const Graph& graph) : m_uses(graph.size()) {
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    for (size_t k = 0; k < n.inputs.size(); ++k)
      if (int64_t p = graph.find(n.inputs[k].node); p >= 0)
        m_uses[static_cast<size_t>(p)].push_back({i, static_cast<int>(k)});
    for (const auto& c : n.controlInputs)
      if (int64_t p = graph.find(c); p >= 0) m_uses[static_cast<size_t>(p)].push_back({i, -1});
  }
}

size_t Fanout::dataUses(size_t producer) const {
  return static_cast<size_t>(
      std::count_if(m_uses[producer].begin(), m_uses[producer].end(), [](const Use& u) { return u.slot >= 0; }));
}

size_t Fanout::controlUses(size_t producer) const { return m_uses[producer].size() - dataUses(producer); }

size_t Fanout::dataUsesOfOutput(const Graph& graph, size_t producer, int output) const {
  size_t count = 0;
  for (const auto& u : m_uses[producer])
    if (u.slot >= 0 && graph.node(u.node).inputs[static_cast<size_t>(u.slot)].index == output) ++count;
  return count;
}

std::vector<size_t> topologicalOrder(const Graph& graph) {
  const size_t n = graph.size();
  std::vector<int> pending(n, 0);
  std::vector<std::vector<size_t>> consumers(n);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = graph.node(i);
    auto edge = [&](const std::string& producer) {
      int64_t p = graph.find(producer);
      if (p < 0 || graph.node(static_cast<size_t>(p)).op == "NextIteration") return;
      consumers[static_cast<size_t>(p)].push_back(i);
      ++pending[i];
    };
    for (const auto& in : node.inputs) edge(in.node);
    for (const auto& c : node.controlInputs) edge(c);
  }
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) order.push_back(i);
  for (size_t head = 0; head < order.size(); ++head)
    for (size_t c : consumers[order[head]])
      if (--pending[c] == 0) order.push_back(c);
  if (order.size() < n)
    for (size_t i = 0; i < n; ++i)
      if (pending[i] > 0) order.push_back(i);
  return order;
}

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
