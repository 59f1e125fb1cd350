// Helpers shared by the passes: consumer lists, batched rewiring of consumers, topological order, constants.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// Who consumes each node's outputs, built once per use (indices refer to the graph as it was then).
class Fanout {
 public:
  struct Use {
    size_t node;
    int slot;  ///< data input position, or -1 for a control input
  };
  explicit Fanout(const Graph& graph);
  const std::vector<Use>& uses(size_t producer) const { return m_uses[producer]; }
  size_t dataUses(size_t producer) const;
  size_t controlUses(size_t producer) const;
  /// Data uses of one output index.
  size_t dataUsesOfOutput(const Graph& graph, size_t producer, int output) const;

 private:
  std::vector<std::vector<Use>> m_uses;
};

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

/// Node indices in dependency order (data and control edges; TF1 NextIteration back edges ignored). Nodes in
/// other cycles come last, in graph order.
std::vector<size_t> topologicalOrder(const Graph& graph);

/// The value of a Const producer of `ref` (output 0), or null.
const Tensor* constantInput(const Graph& graph, const TensorRef& ref);
/// A Const node.
Node makeConst(const std::string& name, const Tensor& value, const std::string& device,
               std::vector<std::string> controlInputs = {});
/// `base`, or `base_1`, `base_2`, ... whichever is free.
std::string uniqueNodeName(const Graph& graph, const std::string& base);
/// Ops whose semantics depend on frames or dead tensors (TF1 control flow): passes leave them alone.
bool isDataflowControlOp(const std::string& op);
/// A valid function name from a text that may hold node-name characters ('/' and ':' become '_').
std::string functionNameFrom(std::string text);
/// The dtype attr "T" of a node, or kInvalid.
DType typeAttr(const Node& node, const char* name = "T");

}  // namespace flowscope
