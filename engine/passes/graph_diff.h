// What a pass changed: nodes added, removed, or changed in place (same name, different op, inputs or attrs).
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct GraphDiff {
  std::vector<std::string> added;    ///< in `after` only
  std::vector<std::string> removed;  ///< in `before` only
  std::vector<std::string> changed;  ///< in both, different
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

/// Unchanged nodes are usually the very same shared objects, so this costs a pointer comparison per node.
GraphDiff diffGraphs(const Graph& before, const Graph& after);

}  // namespace flowscope
