// Building the scope hierarchy.
#include "layout/scope_tree.h"

#include <string_view>

namespace flowscope {

ScopeTree::ScopeTree(const Graph& graph) : m_groupOfNode(graph.size(), kRoot) {
  m_groups.push_back(ScopeGroup{"", "", -1, {}, {}, 0});
  m_byPath.emplace("", kRoot);
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
  for (auto& group : m_groups) group.totalNodes = group.nodes.size();
  for (size_t at = m_groups.size(); at-- > 1;)
    m_groups[static_cast<size_t>(m_groups[at].parent)].totalNodes += m_groups[at].totalNodes;
}

int ScopeTree::ensure(std::string_view path) {
  if (auto it = m_byPath.find(path); it != m_byPath.end()) return it->second;
  const size_t slash = path.rfind('/');
  const int parent = ensure(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
  const int index = static_cast<int>(m_groups.size());
  const std::string_view label = slash == std::string_view::npos ? path : path.substr(slash + 1);
  m_groups.push_back(ScopeGroup{std::string(path), std::string(label), parent, {}, {}, 0});
  m_groups[static_cast<size_t>(parent)].groups.push_back(index);
  m_byPath.emplace(std::string(path), index);
  return index;
}

int ScopeTree::find(const std::string& path) const {
  auto it = m_byPath.find(path);
  return it == m_byPath.end() ? -1 : it->second;
}

int ScopeTree::depth(int group) const {
  int d = 0;
  for (int at = m_groups[static_cast<size_t>(group)].parent; at >= 0; at = m_groups[static_cast<size_t>(at)].parent)
    ++d;
  return d;
}

}  // namespace flowscope
