// EdgeIndex: edges as node indices, in compressed rows.
#include "ir/edge_index.h"

#include "base/thread_pool.h"
#include "ir/graph.h"

namespace flowscope {

// Rows are sized first, then filled (each input's producer is a name lookup, most of the cost on a big graph), both
// on the intra-op threads; then the uses are gathered from the filled rows.
EdgeIndex::EdgeIndex(const Graph& graph) : m_isNextIteration(graph.size()) {
  const size_t n = graph.size();
  m_inputStart.assign(n + 1, 0);
  m_controlStart.assign(n + 1, 0);
  parallelFor(static_cast<int64_t>(n), 16, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const Node& node = graph.node(i);
      m_isNextIteration[i] = node.op == "NextIteration";
      m_inputStart[i + 1] = static_cast<uint32_t>(node.inputs.size());
      m_controlStart[i + 1] = static_cast<uint32_t>(node.controlInputs.size());
    }
  });
  for (size_t i = 0; i < n; ++i) {  // row sizes -> row starts
    m_inputStart[i + 1] += m_inputStart[i];
    m_controlStart[i + 1] += m_controlStart[i];
  }
  m_inputs.resize(m_inputStart[n]);
  m_controls.resize(m_controlStart[n]);
  graph.namesUnique();  // builds the name index here, before the threads read it
  parallelFor(static_cast<int64_t>(n), 64, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const Node& node = graph.node(i);
      int32_t* inputs = m_inputs.data() + m_inputStart[i];
      for (size_t k = 0; k < node.inputs.size(); ++k) inputs[k] = static_cast<int32_t>(graph.find(node.inputs[k].node));
      int32_t* controls = m_controls.data() + m_controlStart[i];
      for (size_t k = 0; k < node.controlInputs.size(); ++k)
        controls[k] = static_cast<int32_t>(graph.find(node.controlInputs[k]));
    }
  });
  gatherUses();
}

void EdgeIndex::gatherUses() {
  const size_t n = size();
  m_useStart.assign(n + 1, 0);
  for (const auto* producers : {&m_inputs, &m_controls})
    for (int32_t p : *producers)
      if (p >= 0) ++m_useStart[static_cast<size_t>(p) + 1];
  for (size_t p = 0; p < n; ++p) m_useStart[p + 1] += m_useStart[p];
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
