// ScopeTree: the name-scope hierarchy of a graph ("model/block_1/conv/Conv2D" lives in group model/block_1/conv),
// the structure the canvas collapses into expandable group boxes, as TensorBoard's graph dashboard does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct ScopeGroup {
  std::string path;   ///< "" for the root
  std::string label;  ///< last path component
  int parent = -1;
  std::vector<int> groups;    ///< child groups
  std::vector<size_t> nodes;  ///< graph nodes directly in this scope
  size_t totalNodes = 0;      ///< nodes in this group and below
};

class ScopeTree {
 public:
  explicit ScopeTree(const Graph& graph);

  const std::vector<ScopeGroup>& groups() const { return m_groups; }
  const ScopeGroup& group(int i) const { return m_groups[static_cast<size_t>(i)]; }
  static constexpr int kRoot = 0;
  /// The group a node sits in directly.
  int groupOf(size_t node) const { return m_groupOfNode[node]; }
  /// Index of a group by path, or -1.
  int find(const std::string& path) const;
  /// Depth of a group (root 0).
  int depth(int group) const;

 private:
  /// A group's slot in the path index: its path's hash (to skip most string compares) and its index.
  struct PathSlot {
    uint32_t hash = 0;
    int32_t group = -1;  ///< -1: empty
  };
  int ensure(std::string_view path);
  int lookup(std::string_view path, uint32_t hash) const;
  void index(int group, uint32_t hash);
  std::vector<ScopeGroup> m_groups;
  std::vector<int> m_groupOfNode;
  /// Groups by path, open-addressed (8 bytes a slot, at most half full): a node-based map cost ~130 bytes a group,
  /// and a graph has about one group per two nodes.
  std::vector<PathSlot> m_byPath;
};

}  // namespace flowscope
