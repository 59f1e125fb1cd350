// Comparing two graphs that need not share names: two versions of a model, a model and its optimized form, a TF.js
// model and the GraphDef it came from. Nodes are matched by name first, then by structure (op type and the matches
// of their inputs; sources through the matches of their consumers; a lone node of an op with equal attributes), and
// each matched pair is compared: op, inputs, attributes, shapes, Const values. A removed node that an optimizer fused
// into another (the other's original_node_names list it) is reported as fused into it. passes/graph_diff.h is the cheap
// same-names form the pass stepper uses between snapshots.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct NodeChange {
  std::string before, after;         ///< the node's name in each graph
  std::vector<std::string> kinds;    ///< of "renamed", "op", "inputs", "attrs", "shapes", "value"
  std::vector<std::string> details;  ///< one line per difference, e.g. "attr strides: [1,1,1,1] -> [1,2,2,1]"
};

struct GraphComparison {
  std::map<std::string, std::string> matches;  ///< before's node -> after's node
  size_t matchedByName = 0, matchedByStructure = 0;
  std::vector<std::string> added;    ///< in `after` only
  std::vector<std::string> removed;  ///< in `before` only
  /// Removed nodes that a node of `after` was made from (its original_node_names): removed node -> that node.
  std::map<std::string, std::string> fusedInto;
  std::vector<NodeChange> changed;  ///< matched pairs that differ (renamed ones included), in after's order
  /// "added", "removed", "fused", "renamed", "op", "inputs", "attrs", "shapes", "value", "changed", "unchanged".
  std::map<std::string, size_t> counts() const;
  bool identical() const { return added.empty() && removed.empty() && changed.empty(); }
};

GraphComparison compareGraphs(const Graph& before, const Graph& after);

}  // namespace flowscope
