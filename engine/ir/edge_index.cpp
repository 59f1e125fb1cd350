// EdgeIndex: edges as node indices, in compressed rows.
#include "ir/edge_index.h"

#include "ir/graph.h"

namespace flowscope {

EdgeIndex::EdgeIndex(const Graph& graph) : m_isNextIteration(graph.size()) {
  const size_t n = graph.size();
  std::vector<uint32_t> useCount(n, 0);
  auto producer = [&](const std::string& name) {
    const int64_t p = graph.find(name);
    if (p >= 0) ++useCount[static_cast<size_t>(p)];
    return static_cast<int32_t>(p);
  };
  m_inputStart.reserve(n + 1);
  m_controlStart.reserve(n + 1);
  m_inputStart.push_back(0);
  m_controlStart.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = graph.node(i);
    m_isNextIteration[i] = node.op == "NextIteration";
    for (const auto& in : node.inputs) m_inputs.push_back(producer(in.node));
    for (const auto& c : node.controlInputs) m_controls.push_back(producer(c));
    m_inputStart.push_back(static_cast<uint32_t>(m_inputs.size()));
    m_controlStart.push_back(static_cast<uint32_t>(m_controls.size()));
  }
  m_useStart.resize(n + 1, 0);
  for (size_t p = 0; p < n; ++p) m_useStart[p + 1] = m_useStart[p] + useCount[p];
  m_uses.resize(m_useStart[n]);
  std::vector<uint32_t> next(m_useStart.begin(), m_useStart.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    const auto data = inputProducers(i);
    for (size_t k = 0; k < data.size(); ++k)
      if (data[k] >= 0) m_uses[next[static_cast<size_t>(data[k])]++] = {i, static_cast<int>(k)};
    for (int32_t p : controlProducers(i))
      if (p >= 0) m_uses[next[static_cast<size_t>(p)]++] = {i, -1};
  }
}

const std::vector<size_t>& EdgeIndex::dependencyOrder() const {
  std::call_once(m_orderOnce, [this] { m_order = computeDependencyOrder(); });
  return m_order;
}

// Kahn's algorithm over data and control edges, consumers in use order; nodes left in cycles come last.
std::vector<size_t> EdgeIndex::computeDependencyOrder() const {
  const size_t n = size();
  std::vector<int> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t p : inputProducers(i)) pending[i] += p >= 0 && !m_isNextIteration[static_cast<size_t>(p)];
    for (int32_t p : controlProducers(i)) pending[i] += p >= 0 && !m_isNextIteration[static_cast<size_t>(p)];
  }
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) order.push_back(i);
  for (size_t head = 0; head < order.size(); ++head) {
    if (m_isNextIteration[order[head]]) continue;
    for (const Use& use : uses(order[head]))
      if (--pending[use.node] == 0) order.push_back(use.node);
  }
  if (order.size() < n)
    for (size_t i = 0; i < n; ++i)
      if (pending[i] > 0) order.push_back(i);
  return order;
}

}  // namespace flowscope
