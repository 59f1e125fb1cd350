// ScopeTree: the name-scope hierarchy of a graph ("model/block_1/conv/Conv2D" lives in group model/block_1/conv),
// the structure the canvas collapses into expandable group boxes, as TensorBoard's graph dashboard does. Unscoped
// constants sit in the scope of the nodes that read them (constant_adoption.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// A name scope. Its strings and lists live in the tree that holds it (a million-node graph has about half a
/// million scopes: one string and two vectors each made the tree cost more than a hundred bytes per node).
struct ScopeGroup {
  std::string_view path;            ///< "" for the root
  std::span<const int> groups;      ///< child groups, in the order they first appear
  std::span<const uint32_t> nodes;  ///< graph nodes directly in this scope, in graph order
  uint32_t totalNodes = 0;          ///< nodes in this group and below
  int parent = -1;

  /// The last path component.
  std::string_view label() const { return path.substr(path.rfind('/') + 1); }
};

class ScopeTree {
 public:
  explicit ScopeTree(const Graph& graph);
  ScopeTree(ScopeTree&&) = default;  // the groups' views stay valid: vectors move their storage
  ScopeTree& operator=(ScopeTree&&) = default;
  ScopeTree(const ScopeTree&) = delete;
  ScopeTree& operator=(const ScopeTree&) = delete;

  const std::vector<ScopeGroup>& groups() const { return m_groups; }
  const ScopeGroup& group(int i) const { return m_groups[static_cast<size_t>(i)]; }
  static constexpr int kRoot = 0;
  /// The group a node sits in directly.
  int groupOf(size_t node) const { return m_groupOfNode[node]; }
  /// Index of a group by path, or -1.
  int find(std::string_view path) const;
  /// The group a user means by `path` (a command line's --expand): the path itself, else the same without or with a
  /// leading '/' (PyTorch's exporter starts its names with one, and the outline shows groups by label); -1 if none.
  int findAsWritten(std::string_view path) const;
  /// The top-level groups' labels, at most `limit` of them, comma-separated (to say what a path could have been).
  std::string topLevelLabels(size_t limit) const;
  /// Depth of a group (root 0).
  int depth(int group) const;

 private:
  /// A group's slot in the path index: its path's hash (to skip most string compares) and its index.
  struct PathSlot {
    uint32_t hash = 0;
    int32_t group = -1;  ///< -1: empty
  };
  /// Where a group's path lies in m_paths.
  struct PathRange {
    uint32_t start, size;
  };
  /// A node's scope while the tree is built: its path's hash and length.
  struct ScopeKey {
    uint32_t hash, length;
    bool operator==(const ScopeKey&) const = default;
  };
  int ensure(std::string_view path, uint32_t hash);
  int lookup(std::string_view path, uint32_t hash) const;
  void index(int group, uint32_t hash);
  std::string_view pathOf(int group) const;
  /// Fills the groups' views once every group exists.
  void link();
  std::vector<ScopeGroup> m_groups;
  std::vector<int> m_groupOfNode;
  std::vector<PathRange> m_pathRanges;  ///< while building: m_paths still grows
  std::vector<char> m_paths;            ///< every path, one after another
  std::vector<int> m_children;          ///< each group's child groups, group after group
  std::vector<uint32_t> m_members;      ///< each group's nodes, group after group
  /// Groups by path, open-addressed (8 bytes a slot, at most half full): a node-based map cost ~130 bytes a group,
  /// and a graph has about one group per two nodes.
  std::vector<PathSlot> m_byPath;
};

}  // namespace flowscope
