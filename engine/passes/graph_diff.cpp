// Graph differences between snapshots.
#include "passes/graph_diff.h"

#include <set>

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
  diff.fusedInto = fusedInto(after, diff.removed);
  return diff;
}

std::map<std::string, std::string> fusedInto(const Graph& after, const std::vector<std::string>& removed) {
  std::map<std::string, std::string> fused;
  if (removed.empty()) return fused;
  const std::set<std::string> gone(removed.begin(), removed.end());
  for (size_t i = 0; i < after.size(); ++i) {
    const Node& node = after.node(i);
    if (computesItsOriginals(node))
      for (const std::string& name : node.debugInfo->originalNodeNames)
        if (gone.count(name)) fused.emplace(name, node.name);
  }
  return fused;
}

}  // namespace flowscope
