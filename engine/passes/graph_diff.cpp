// Graph differences between snapshots.
#include "passes/graph_diff.h"

#include "ir/hash.h"

namespace flowscope {

GraphDiff diffGraphs(const Graph& before, const Graph& after) {
  GraphDiff diff;
  for (size_t i = 0; i < after.size(); ++i) {
    const Node& n = after.node(i);
    const Node* old = before.findNode(n.name);
    if (!old)
      diff.added.push_back(n.name);
    else if (old != &n && hashNode(*old) != hashNode(n))
      diff.changed.push_back(n.name);
  }
  for (size_t i = 0; i < before.size(); ++i)
    if (after.find(before.node(i).name) < 0) diff.removed.push_back(before.node(i).name);
  return diff;
}

}  // namespace flowscope
