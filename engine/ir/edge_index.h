// EdgeIndex: a graph's edges as node indices (the producer of each input, the consumers of each node, a dependency
// order), so that walking the graph needs no name lookups. Graph::edges() builds it once per state of the graph and
// shares it with the graph's copies until one of them changes: the passes of a pipeline that leave the graph as it
// was all read the same index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace flowscope {

class Graph;

class EdgeIndex {
 public:
  struct Use {
    size_t node;
    int slot;  ///< data input position, or -1 for a control input
  };

  explicit EdgeIndex(const Graph& graph);
  EdgeIndex(const EdgeIndex&) = delete;
  EdgeIndex& operator=(const EdgeIndex&) = delete;

  size_t size() const { return m_isNextIteration.size(); }
  /// The producer of each data input of `node`, in input order; -1 where the input names no node.
  std::span<const int32_t> inputProducers(size_t node) const { return slice(m_inputs, m_inputStart, node); }
  /// The producer of each control input of `node`, in order; -1 where it names no node.
  std::span<const int32_t> controlProducers(size_t node) const { return slice(m_controls, m_controlStart, node); }
  /// Who reads `producer`: consumers in graph order, each one's data inputs in order, then its control inputs.
  std::span<const Use> uses(size_t producer) const { return slice(m_uses, m_useStart, producer); }
  /// Edges out of NextIteration close TF1 loops: dependency orders and cycle checks leave them out.
  bool closesLoop(size_t producer) const { return m_isNextIteration[producer]; }
  /// Node indices in dependency order (see topologicalOrder() in graph_algorithms.h), computed on first use.
  const std::vector<size_t>& dependencyOrder() const;

 private:
  template <typename T>
  static std::span<const T> slice(const std::vector<T>& items, const std::vector<uint32_t>& start, size_t i) {
    return {items.data() + start[i], items.data() + start[i + 1]};
  }
  std::vector<size_t> computeDependencyOrder() const;
  /// Fills the uses from the filled input and control rows.
  void gatherUses();

  std::vector<uint32_t> m_inputStart, m_controlStart, m_useStart;  ///< size() + 1 offsets each
  std::vector<int32_t> m_inputs, m_controls;
  std::vector<Use> m_uses;
  std::vector<uint8_t> m_isNextIteration;  ///< bytes, not bits: the intra-op threads fill it
  mutable std::once_flag m_orderOnce;
  mutable std::vector<size_t> m_order;
};

}  // namespace flowscope
