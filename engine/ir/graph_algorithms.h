// Graph algorithms shared by the rooms above ir/ (passes, backends, loaders, the UI): who consumes what, dependency
// order, constant producers, sinks, and tensor names.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// Who consumes each node's outputs: a view of the graph's EdgeIndex as it was when the Fanout was made (indices
/// refer to the graph as it was then).
class Fanout {
 public:
  using Use = EdgeIndex::Use;
  explicit Fanout(const Graph& graph) : m_edges(graph.edges()) {}
  std::span<const Use> uses(size_t producer) const { return m_edges->uses(producer); }
  size_t dataUses(size_t producer) const;
  size_t controlUses(size_t producer) const;
  /// Data uses of one output index.
  size_t dataUsesOfOutput(const Graph& graph, size_t producer, int output) const;

 private:
  std::shared_ptr<const EdgeIndex> m_edges;
};

/// The node that alone reads `producer`: one data use, of output 0, and no control uses; -1 when there is none.
int64_t soleReaderOfOutput0(const Graph& graph, const Fanout& fanout, size_t producer);

/// Node indices in dependency order (data and control edges; TF1 NextIteration back edges ignored). Nodes in
/// other cycles come last, in graph order.
std::vector<size_t> topologicalOrder(const Graph& graph);

/// The value of a Const producer of `ref` (output 0), or null.
const Tensor* constantInput(const Graph& graph, const TensorRef& ref);
/// The value of output `output` of `producer` when it is a Const (output 0), or null; `producer` may be null.
const Tensor* constantValue(const Node* producer, int output);

/// Ops whose semantics depend on frames or dead tensors (TF1 control flow).
bool isDataflowControlOp(const std::string& op);

/// Names of top-level nodes whose outputs no other node reads (data or control), in graph order.
std::vector<std::string> sinkNodes(const Graph& graph);

/// Splits "name:k" into node and output index ("name" means output 0).
bool parseTensorName(const std::string& text, std::string* node, int* index);

}  // namespace flowscope
