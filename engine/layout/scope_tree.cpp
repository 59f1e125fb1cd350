// Building the scope hierarchy.
#include "layout/scope_tree.h"

#include <functional>
#include <string_view>

namespace flowscope {

namespace {

uint32_t pathHash(std::string_view path) { return static_cast<uint32_t>(std::hash<std::string_view>()(path)); }

}  // namespace

ScopeTree::ScopeTree(const Graph& graph) : m_groupOfNode(graph.size(), kRoot) {
  m_groups.emplace_back();
  m_pathRanges.push_back(PathRange{0, 0});
  index(kRoot, pathHash(""));
  std::string_view lastScope;  // nodes of one scope mostly come together: look a path up when it changes
  int g = -1;
  for (size_t i = 0; i < graph.size(); ++i) {
    const std::string& name = graph.node(i).name;
    const size_t slash = name.rfind('/');
    const std::string_view scope = std::string_view(name).substr(0, slash == std::string::npos ? 0 : slash);
    if (g < 0 || scope != lastScope) g = ensure(scope);
    lastScope = scope;
    m_groupOfNode[i] = g;
  }
  link();
}

int ScopeTree::ensure(std::string_view path) {
  const uint32_t hash = pathHash(path);
  if (const int found = lookup(path, hash); found >= 0) return found;
  const size_t slash = path.rfind('/');
  const int parent = ensure(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
  const int group = static_cast<int>(m_groups.size());
  m_pathRanges.push_back(PathRange{static_cast<uint32_t>(m_paths.size()), static_cast<uint32_t>(path.size())});
  m_paths.insert(m_paths.end(), path.begin(), path.end());
  m_groups.emplace_back().parent = parent;
  index(group, hash);
  return group;
}

std::string_view ScopeTree::pathOf(int group) const {
  if (m_pathRanges.empty()) return m_groups[static_cast<size_t>(group)].path;  // linked
  const PathRange& range = m_pathRanges[static_cast<size_t>(group)];
  return {m_paths.data() + range.start, range.size};
}

void ScopeTree::link() {
  // Each group's nodes and child groups as runs of two flat arrays (counting sort, order kept).
  const size_t count = m_groups.size();
  std::vector<uint32_t> nodeStart(count + 1, 0), childStart(count + 1, 0);
  for (int g : m_groupOfNode) ++nodeStart[static_cast<size_t>(g) + 1];
  for (size_t g = 1; g < count; ++g) ++childStart[static_cast<size_t>(m_groups[g].parent) + 1];
  for (size_t g = 0; g < count; ++g) {
    nodeStart[g + 1] += nodeStart[g];
    childStart[g + 1] += childStart[g];
  }
  m_members.resize(m_groupOfNode.size());
  m_children.resize(count - 1);
  std::vector<uint32_t> nodeAt(nodeStart.begin(), nodeStart.end() - 1),
      childAt(childStart.begin(), childStart.end() - 1);
  for (size_t i = 0; i < m_groupOfNode.size(); ++i)
    m_members[nodeAt[static_cast<size_t>(m_groupOfNode[i])]++] = static_cast<uint32_t>(i);
  for (size_t g = 1; g < count; ++g)
    m_children[childAt[static_cast<size_t>(m_groups[g].parent)]++] = static_cast<int>(g);
  m_paths.shrink_to_fit();  // they grew by doubling; they stay as long as the document
  m_groups.shrink_to_fit();
  for (size_t g = 0; g < count; ++g) {
    ScopeGroup& group = m_groups[g];
    group.path = std::string_view(m_paths.data() + m_pathRanges[g].start, m_pathRanges[g].size);
    group.groups = std::span<const int>(m_children.data() + childStart[g], childStart[g + 1] - childStart[g]);
    group.nodes = std::span<const uint32_t>(m_members.data() + nodeStart[g], nodeStart[g + 1] - nodeStart[g]);
    group.totalNodes = static_cast<uint32_t>(group.nodes.size());
  }
  std::vector<PathRange>().swap(m_pathRanges);
  // A group comes after its parent (ensure() makes parents first): children's totals reach parents in one sweep.
  for (size_t at = count; at-- > 1;)
    m_groups[static_cast<size_t>(m_groups[at].parent)].totalNodes += m_groups[at].totalNodes;
}

int ScopeTree::lookup(std::string_view path, uint32_t hash) const {
  const size_t mask = m_byPath.size() - 1;
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    const PathSlot& slot = m_byPath[at];
    if (slot.group < 0) return -1;
    if (slot.hash == hash && pathOf(slot.group) == path) return slot.group;
  }
}

void ScopeTree::index(int group, uint32_t hash) {
  if (2 * m_groups.size() > m_byPath.size()) {  // at most half full; the root is indexed first, into 16 slots
    std::vector<PathSlot> old(std::max<size_t>(16, 2 * m_byPath.size()));
    old.swap(m_byPath);
    for (const PathSlot& slot : old)
      if (slot.group >= 0) index(slot.group, slot.hash);
  }
  const size_t mask = m_byPath.size() - 1;
  size_t at = hash & mask;
  while (m_byPath[at].group >= 0) at = (at + 1) & mask;
  m_byPath[at] = PathSlot{hash, group};
}

int ScopeTree::find(std::string_view path) const { return lookup(path, pathHash(path)); }

int ScopeTree::depth(int group) const {
  int d = 0;
  for (int at = m_groups[static_cast<size_t>(group)].parent; at >= 0; at = m_groups[static_cast<size_t>(at)].parent)
    ++d;
  return d;
}

}  // namespace flowscope
