// Building the scope hierarchy.
#include "layout/scope_tree.h"

#include <functional>
#include <string_view>

#include "base/thread_pool.h"
#include "layout/constant_adoption.h"

namespace flowscope {

namespace {

uint32_t pathHash(std::string_view path) { return static_cast<uint32_t>(std::hash<std::string_view>()(path)); }

// A node's scope: its name up to the last '/'.
std::string_view scopeOf(std::string_view name) {
  const size_t slash = name.rfind('/');
  return name.substr(0, slash == std::string_view::npos ? 0 : slash);
}

}  // namespace

// The scopes' hashes are taken on the intra-op threads (reading a million names is most of the cost); groups are
// then made in node order, each step prefetching the nodes, names and index slots a few nodes ahead.
ScopeTree::ScopeTree(const Graph& graph) : m_groupOfNode(graph.size(), kRoot) {
  m_groups.emplace_back();
  m_pathRanges.push_back(PathRange{0, 0});
  index(kRoot, pathHash(""));
  const size_t n = graph.size();
  std::vector<ScopeKey> keys(n);
  parallelFor(static_cast<int64_t>(n), 40, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const std::string_view scope = scopeOf(graph.node(i).name);
      keys[i] = ScopeKey{pathHash(scope), static_cast<uint32_t>(scope.size())};
    }
  });
  constexpr size_t kAhead = 8;
  int g = -1;
  for (size_t i = 0; i < n; ++i) {
    if (i + 2 * kAhead < n) __builtin_prefetch(&graph.node(i + 2 * kAhead));
    if (i + kAhead < n) {
      __builtin_prefetch(graph.node(i + kAhead).name.data());
      __builtin_prefetch(&m_byPath[keys[i + kAhead].hash & (m_byPath.size() - 1)]);
    }
    const std::string_view scope(graph.node(i).name.data(), keys[i].length);
    // Nodes of one scope mostly come together: the previous node's group, unless the scope differs.
    if (g < 0 || keys[i] != keys[i - 1] || scope != pathOf(g)) g = ensure(scope, keys[i].hash);
    m_groupOfNode[i] = g;
  }
  std::vector<int> parents(m_groups.size());
  for (size_t g = 0; g < m_groups.size(); ++g) parents[g] = m_groups[g].parent;
  adoptUnscopedConstants(graph, m_groupOfNode, parents);
  link();
}

int ScopeTree::ensure(std::string_view path, uint32_t hash) {
  if (const int found = lookup(path, hash); found >= 0) return found;
  const size_t slash = path.rfind('/');
  const std::string_view parentPath = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  const int parent = ensure(parentPath, pathHash(parentPath));
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

int ScopeTree::findAsWritten(std::string_view path) const {
  if (const int group = find(path); group >= 0) return group;
  if (path.starts_with('/')) return find(path.substr(1));
  return find("/" + std::string(path));
}

std::string ScopeTree::topLevelLabels(size_t limit) const {
  std::string labels;
  const std::span<const int> top = m_groups[kRoot].groups;
  for (size_t k = 0; k < top.size() && k < limit; ++k)
    labels += (k ? ", " : "") + std::string(m_groups[static_cast<size_t>(top[k])].label());
  if (top.size() > limit) labels += ", ...";
  return labels;
}

int ScopeTree::depth(int group) const {
  int d = 0;
  for (int at = m_groups[static_cast<size_t>(group)].parent; at >= 0; at = m_groups[static_cast<size_t>(at)].parent)
    ++d;
  return d;
}

}  // namespace flowscope
