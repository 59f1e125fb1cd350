// What a pass changed: nodes added, removed (and of those, fused into another), or changed in place (same name,
// different op, inputs or attrs).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct GraphDiff {
  std::vector<std::string> added;    ///< in `after` only
  std::vector<std::string> removed;  ///< in `before` only
  std::vector<std::string> changed;  ///< in both, different
  /// Removed nodes that a node of `after` was made from (fusedInto()): removed node -> that node.
  std::map<std::string, std::string> fusedInto;
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

/// Unchanged nodes are usually the very same shared objects, so this costs a pointer comparison per node.
GraphDiff diffGraphs(const Graph& before, const Graph& after);

/// Of `removed` (nodes gone from a graph), those that a node of `after` names among the nodes it was made from (its
/// original_node_names, which fusions record) -> that node.
std::map<std::string, std::string> fusedInto(const Graph& after, const std::vector<std::string>& removed);

}  // namespace flowscope
