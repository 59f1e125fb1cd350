// Cluster formation (cluster_formation.h). Nodes are visited in topological order. Each host node keeps the clusters
// it reads through host nodes only (its frontier); each cluster keeps the clusters it reads (its dependencies).
// A device node may join the clusters it reads directly when none of them is reachable from the others or from the
// rest of what the node reads: then no path leaves the merged cluster and comes back.
#include "exec/cluster_formation.h"

#include <algorithm>
#include <map>
#include <set>

namespace flowscope {
namespace {

class ClusterFormation {
 public:
  ClusterFormation(const Graph& graph, const std::vector<char>& onDevice)
      : m_graph(graph), m_onDevice(onDevice), m_cluster(graph.size(), -1), m_frontier(graph.size()) {}

  std::vector<int> run(const std::vector<size_t>& order) {
    for (size_t i : order) visit(i);
    return numbered(order);
  }

 private:
  using Set = std::set<int>;

  int root(int c) {
    while (m_parent[static_cast<size_t>(c)] != c)
      c = m_parent[static_cast<size_t>(c)] = m_parent[static_cast<size_t>(m_parent[static_cast<size_t>(c)])];
    return c;
  }

  // What producer p contributes to a reader: its cluster, or for a host node the clusters it reads.
  Set contribution(size_t p) {
    if (m_cluster[p] >= 0) return {root(m_cluster[p])};
    Set s;
    for (int c : m_frontier[p]) s.insert(root(c));
    return s;
  }

  // Whether `target` is one of the clusters `from`, or one they read, transitively.
  bool reaches(const Set& from, int target) {
    std::vector<int> stack(from.begin(), from.end());
    std::set<int> seen;
    while (!stack.empty()) {
      const int c = root(stack.back());
      stack.pop_back();
      if (c == target) return true;
      if (!seen.insert(c).second) continue;
      for (int d : m_deps[static_cast<size_t>(c)]) stack.push_back(d);
    }
    return false;
  }

  void visit(size_t i) {
    const Node& node = m_graph.node(i);
    std::vector<std::pair<Set, int>> inputs;  // each producer's contribution, and its cluster or -1
    std::map<int, int> direct;                // clusters read directly -> how many inputs
    auto add = [&](const std::string& name) {
      const int64_t p = m_graph.find(name);
      if (p < 0) return;
      const int cluster = m_cluster[static_cast<size_t>(p)] >= 0 ? root(m_cluster[static_cast<size_t>(p)]) : -1;
      inputs.emplace_back(contribution(static_cast<size_t>(p)), cluster);
      if (cluster >= 0) ++direct[cluster];
    };
    for (const auto& in : node.inputs) add(in.node);
    for (const auto& c : node.controlInputs) add(c);
    if (!m_onDevice[i]) {
      for (const auto& [s, c] : inputs) m_frontier[i].insert(s.begin(), s.end());
      return;
    }
    std::vector<int> candidates;
    for (const auto& [c, n] : direct) candidates.push_back(c);
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
      return direct[a] != direct[b] ? direct[a] > direct[b] : a > b;  // most inputs, then the newest
    });
    if (candidates.size() > 1 && tryJoin(i, candidates, inputs)) return;
    for (int c : candidates)
      if (tryJoin(i, {c}, inputs)) return;
    const int fresh = static_cast<int>(m_parent.size());
    m_parent.push_back(fresh);
    m_deps.emplace_back();
    for (const auto& [s, c] : inputs) m_deps.back().insert(s.begin(), s.end());
    m_cluster[i] = fresh;
  }

  // Node i joins the clusters `group` (merging them) when they are independent of one another and none is reachable
  // from what i reads outside the group.
  bool tryJoin(size_t i, const std::vector<int>& group, const std::vector<std::pair<Set, int>>& inputs) {
    const Set members(group.begin(), group.end());
    Set outside;
    for (const auto& [s, c] : inputs)
      if (!members.count(c)) outside.insert(s.begin(), s.end());
    for (int x : group) {
      if (reaches(outside, x)) return false;
      for (int y : group)
        if (x != y && reaches({y}, x)) return false;
    }
    const int into = group.front();
    for (int x : group) {
      if (x == into) continue;
      m_parent[static_cast<size_t>(x)] = into;
      const Set moved = std::move(m_deps[static_cast<size_t>(x)]);
      m_deps[static_cast<size_t>(into)].insert(moved.begin(), moved.end());
    }
    for (int c : outside)
      if (root(c) != into) m_deps[static_cast<size_t>(into)].insert(c);
    m_cluster[i] = into;
    return true;
  }

  std::vector<int> numbered(const std::vector<size_t>& order) {
    std::map<int, int> number;
    std::vector<int> out(m_cluster.size(), -1);
    for (size_t i : order) {
      if (m_cluster[i] < 0) continue;
      const auto [it, fresh] = number.try_emplace(root(m_cluster[i]), static_cast<int>(number.size()));
      out[i] = it->second;
    }
    return out;
  }

  const Graph& m_graph;
  const std::vector<char>& m_onDevice;
  std::vector<int> m_cluster;   // by node: its cluster (not yet rooted), or -1
  std::vector<Set> m_frontier;  // by host node
  std::vector<int> m_parent;    // union-find over clusters
  std::vector<Set> m_deps;      // by root cluster: the clusters it reads
};

}  // namespace

std::vector<int> formAcyclicClusters(const Graph& graph, const std::vector<size_t>& order,
                                     const std::vector<char>& onDevice) {
  return ClusterFormation(graph, onDevice).run(order);
}

}  // namespace flowscope
