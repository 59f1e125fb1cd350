// Helpers shared by the passes: batched rewiring of consumers, new constants and names.
#pragma once

#include <string>
#include <unordered_map>
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
  bool empty() const { return m_data.empty() && m_control.empty() && m_renamed.empty(); }
  /// Rewrites every node's inputs; duplicate control inputs are merged. Returns the number of nodes changed.
  size_t apply(Graph& graph) const;

 private:
  TensorRef resolve(TensorRef ref) const;
  void resolveControl(const std::string& name, std::vector<std::string>& out, int depth) const;
  std::unordered_map<std::string, std::unordered_map<int, TensorRef>> m_data;
  std::unordered_map<std::string, std::vector<std::string>> m_control;
  std::unordered_map<std::string, std::string> m_renamed;
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
