// Helpers shared by the passes: batched rewiring of consumers, new constants and names.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ir/graph_algorithms.h"

namespace flowscope {

/// Collects "consumers of X now read Y" and applies them in one sweep over the graph (chains resolve
/// transitively), so a pass that removes many nodes stays linear.
class Rewirer {
 public:
  /// Data consumers of `node:index` read `to` instead.
  void forward(const std::string& node, int index, TensorRef to);
  /// Control consumers of `node` wait for `to` instead (empty: the edge is dropped).
  void forwardControl(const std::string& node, std::vector<std::string> to);
  /// Every consumer of `node` (any output, and control) uses `to` instead: `to` computes the same values.
  void replaceNode(const std::string& node, const std::string& to);
  bool empty() const { return m_entries.empty(); }
  /// Rewrites every node's inputs; duplicate control inputs are merged. Returns the number of nodes changed.
  size_t apply(Graph& graph) const;

 private:
  // What happens to the consumers of one node; one lookup per edge finds it.
  struct Entry {
    std::vector<std::pair<int, TensorRef>> data;  ///< output index -> what its consumers read instead
    std::optional<std::string> renamed;
    std::optional<std::vector<std::string>> control;
  };
  const Entry* find(const std::string& node) const;
  TensorRef resolve(TensorRef ref) const;
  void resolveControl(const std::string& name, std::vector<std::string>& out, int depth) const;
  std::unordered_map<std::string, Entry> m_entries;
};

/// The producers of data inputs as node indices, from the edges of the graph as a pass found it. For a pass that
/// neither removes nor renames nodes those indices stay right for every node it has not rewritten (call rewrote());
/// a rewritten or added node resolves its inputs by name. Saves a name lookup per input read.
class StableProducers {
 public:
  explicit StableProducers(const Graph& graph) : m_edges(graph.edges()), m_rewritten(graph.size(), false) {}
  /// The producer of data input `slot` of `node`, or -1.
  int64_t of(const Graph& graph, size_t node, size_t slot) const;
  /// The value of data input `slot` of `node` when a Const produces it (see constantValue()), or null.
  const Tensor* constant(const Graph& graph, size_t node, size_t slot) const;
  /// `node`'s inputs changed (or will): resolve them by name from now on.
  void rewrote(size_t node);
  /// The edges the indices come from.
  const EdgeIndex& edges() const { return *m_edges; }

 private:
  std::shared_ptr<const EdgeIndex> m_edges;
  std::vector<bool> m_rewritten;
};

/// A Const node.
Node makeConst(const std::string& name, const Tensor& value, const std::string& device,
               std::vector<std::string> controlInputs = {});
/// `base`, or `base_1`, `base_2`, ... whichever is free.
std::string uniqueNodeName(const Graph& graph, const std::string& base);
/// A valid function name from a text that may hold node-name characters ('/' and ':' become '_').
std::string functionNameFrom(std::string text);
/// The dtype attr "T" of a node, or kInvalid.
DType typeAttr(const Node& node, const char* name = "T");

}  // namespace flowscope
