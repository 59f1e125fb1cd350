// Shared pass helpers.
#include "passes/graph_rewrite.h"

#include <algorithm>
#include <set>

namespace flowscope {

void Rewirer::forward(const std::string& node, int index, TensorRef to) {
  auto& data = m_entries[node].data;
  for (auto& [k, ref] : data)
    if (k == index) {
      ref = std::move(to);
      return;
    }
  data.emplace_back(index, std::move(to));
}

void Rewirer::forwardControl(const std::string& node, std::vector<std::string> to) {
  m_entries[node].control = std::move(to);
}

void Rewirer::replaceNode(const std::string& node, const std::string& to) {
  Entry& entry = m_entries[node];
  entry.renamed = to;
  entry.control = std::vector<std::string>{to};
}

const Rewirer::Entry* Rewirer::find(const std::string& node) const {
  auto it = m_entries.find(node);
  return it == m_entries.end() ? nullptr : &it->second;
}

TensorRef Rewirer::resolve(TensorRef ref) const {
  for (int depth = 0; depth < 10000; ++depth) {
    const Entry* entry = find(ref.node);
    if (!entry) return ref;
    if (entry->renamed) {
      ref.node = *entry->renamed;
      continue;
    }
    auto out =
        std::find_if(entry->data.begin(), entry->data.end(), [&](const auto& d) { return d.first == ref.index; });
    if (out == entry->data.end()) return ref;
    ref = out->second;
  }
  return ref;
}

void Rewirer::resolveControl(const std::string& name, std::vector<std::string>& out, int depth) const {
  const Entry* entry = find(name);
  if (!entry || !entry->control || depth > 64) {
    out.push_back(name);
    return;
  }
  for (const auto& next : *entry->control) resolveControl(next, out, depth + 1);
}

size_t Rewirer::apply(Graph& graph) const {
  size_t changed = 0;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    bool touches = false;
    for (const auto& in : n.inputs) {
      const Entry* entry = find(in.node);
      touches |= entry && (!entry->data.empty() || entry->renamed);
    }
    for (const auto& c : n.controlInputs) {
      const Entry* entry = find(c);
      touches |= entry && entry->control;
    }
    if (!touches) continue;
    Node& m = graph.mutableNode(i);
    for (auto& in : m.inputs) in = resolve(in);
    std::vector<std::string> control;
    for (const auto& c : m.controlInputs) resolveControl(c, control, 0);
    std::set<std::string> seen;
    m.controlInputs.clear();
    for (auto& c : control)
      if (c != m.name && seen.insert(c).second) m.controlInputs.push_back(std::move(c));
    ++changed;
  }
  return changed;
}

int64_t StableProducers::of(const Graph& graph, size_t node, size_t slot) const {
  if (node < m_rewritten.size() && !m_rewritten[node]) return m_edges->inputProducers(node)[slot];
  return graph.find(graph.node(node).inputs[slot].node);
}

const Tensor* StableProducers::constant(const Graph& graph, size_t node, size_t slot) const {
  const int64_t producer = of(graph, node, slot);
  return constantValue(producer < 0 ? nullptr : &graph.node(static_cast<size_t>(producer)),
                       graph.node(node).inputs[slot].index);
}

void StableProducers::rewrote(size_t node) {
  if (node < m_rewritten.size()) m_rewritten[node] = true;
}

Node makeConst(const std::string& name, const Tensor& value, const std::string& device,
               std::vector<std::string> controlInputs) {
  Node node;
  node.name = name;
  node.op = "Const";
  node.device = device;
  node.controlInputs = std::move(controlInputs);
  node.attrs["dtype"] = AttrValue::fromType(value.dtype());
  node.attrs["value"] = AttrValue::fromTensor(value);
  return node;
}

std::string uniqueNodeName(const Graph& graph, const std::string& base) {
  if (graph.find(base) < 0) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (graph.find(name) < 0) return name;
  }
}

std::string functionNameFrom(std::string text) {
  for (char& c : text)
    if (c == '/' || c == ':') c = '_';
  return text;
}

DType typeAttr(const Node& node, const char* name) {
  const AttrValue* t = node.attr(name);
  return t && t->kind() == AttrValue::Kind::kType ? t->type() : DType::kInvalid;
}

}  // namespace flowscope
