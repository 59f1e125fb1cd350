// Building the scope hierarchy.
#include "layout/scope_tree.h"

#include <functional>
#include <string_view>

namespace flowscope {

namespace {

uint32_t pathHash(std::string_view path) { return static_cast<uint32_t>(std::hash<std::string_view>()(path)); }

}  // namespace

ScopeTree::ScopeTree(const Graph& graph) : m_groupOfNode(graph.size(), kRoot) {
  m_groups.push_back(ScopeGroup{"", "", -1, {}, {}, 0});
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
    m_groups[static_cast<size_t>(g)].nodes.push_back(i);
  }
  // A group comes after its parent (ensure() makes parents first): children's totals reach parents in one sweep.
  m_groups.shrink_to_fit();  // it grew by doubling; it stays as long as the document
  for (auto& group : m_groups) group.totalNodes = group.nodes.size();
  for (size_t at = m_groups.size(); at-- > 1;)
    m_groups[static_cast<size_t>(m_groups[at].parent)].totalNodes += m_groups[at].totalNodes;
}

int ScopeTree::ensure(std::string_view path) {
  const uint32_t hash = pathHash(path);
  if (const int found = lookup(path, hash); found >= 0) return found;
  const size_t slash = path.rfind('/');
  const int parent = ensure(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
  const int group = static_cast<int>(m_groups.size());
  const std::string_view label = slash == std::string_view::npos ? path : path.substr(slash + 1);
  m_groups.push_back(ScopeGroup{std::string(path), std::string(label), parent, {}, {}, 0});
  m_groups[static_cast<size_t>(parent)].groups.push_back(group);
  index(group, hash);
  return group;
}

int ScopeTree::lookup(std::string_view path, uint32_t hash) const {
  const size_t mask = m_byPath.size() - 1;
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    const PathSlot& slot = m_byPath[at];
    if (slot.group < 0) return -1;
    if (slot.hash == hash && m_groups[static_cast<size_t>(slot.group)].path == path) return slot.group;
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

int ScopeTree::find(const std::string& path) const { return lookup(path, pathHash(path)); }

int ScopeTree::depth(int group) const {
  int d = 0;
  for (int at = m_groups[static_cast<size_t>(group)].parent; at >= 0; at = m_groups[static_cast<size_t>(at)].parent)
    ++d;
  return d;
}

}  // namespace flowscope
