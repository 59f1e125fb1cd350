// Hierarchical layout of name-scope groups.
#include "layout/graph_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "layout/dot_layout.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

constexpr double kNodeHeight = 30, kGroupHeight = 40, kCharWidth = 6.6, kPad = 14, kHeader = 24;

double textWidth(const std::string& s, double minimum) {
  return std::max(minimum, 24 + kCharWidth * static_cast<double>(std::min<size_t>(s.size(), 40)));
}

std::string lastComponent(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

GraphLayout::GraphLayout(std::shared_ptr<const Graph> graph, LayoutOptions options)
    : m_graph(std::move(graph)),
      m_options(options),
      m_tree(*m_graph),
      m_shapes(inferShapes(*m_graph)),
      m_producers(m_graph->size()) {
  for (size_t i = 0; i < m_graph->size(); ++i) {
    const Node& n = m_graph->node(i);
    for (const auto& in : n.inputs)
      if (int64_t p = m_graph->find(in.node); p >= 0) m_producers[i].emplace_back(static_cast<size_t>(p), false);
    for (const auto& c : n.controlInputs)
      if (int64_t p = m_graph->find(c); p >= 0) m_producers[i].emplace_back(static_cast<size_t>(p), true);
  }
}

std::set<std::string> GraphLayout::allGroups() const {
  std::set<std::string> all;
  for (const auto& g : m_tree.groups())
    if (!g.path.empty()) all.insert(g.path);
  return all;
}

size_t GraphLayout::cachedLayouts() const {
  std::lock_guard lock(m_mutex);
  return m_cache.size();
}

std::string GraphLayout::cacheKey(int group, const std::set<std::string>& expanded) const {
  const std::string& path = m_tree.group(group).path;
  std::string key = path + "|";
  if (path.empty()) {
    for (const auto& e : expanded) key += e + ";";
    return key;
  }
  // Only expansions inside this group change its layout: the sorted range of paths starting with "path/".
  const std::string prefix = path + "/";
  for (auto it = expanded.lower_bound(prefix); it != expanded.end() && it->compare(0, prefix.size(), prefix) == 0; ++it)
    key += *it + ";";
  return key;
}

Expected<std::shared_ptr<const GraphLayout::GroupLayout>> GraphLayout::layoutGroup(
    int group, const std::set<std::string>& expanded, const std::atomic<bool>* cancelled) {
  const std::string key = cacheKey(group, expanded);
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_cache.find(key); it != m_cache.end()) return it->second;
  }
  if (cancelled && cancelled->load()) return flowscope::cancelled("layout was cancelled");
  const ScopeGroup& g = m_tree.group(group);
  auto layout = std::make_shared<GroupLayout>();
  std::vector<LayoutBox> boxes;
  std::map<int, int> childOfGroup;  // child group -> child index
  std::map<size_t, int> childOfNode;
  std::vector<std::shared_ptr<const GroupLayout>> inner;
  for (int c : g.groups) {
    const ScopeGroup& cg = m_tree.group(c);
    Child child{SceneItem::Kind::kGroup, c};
    if (expanded.count(cg.path)) {
      FS_ASSIGN_OR_RETURN(auto sub, layoutGroup(c, expanded, cancelled));
      child.w = std::max(sub->w + 2 * kPad, textWidth(cg.label, 120));
      child.h = sub->h + kHeader + kPad;
    } else {
      child.w = textWidth(cg.label + " (" + std::to_string(cg.totalNodes) + ")", 90);
      child.h = kGroupHeight;
    }
    childOfGroup[c] = static_cast<int>(layout->children.size());
    layout->children.push_back(child);
  }
  for (size_t n : g.nodes) {
    const Node& node = m_graph->node(n);
    childOfNode[n] = static_cast<int>(layout->children.size());
    layout->children.push_back(Child{SceneItem::Kind::kNode, static_cast<int64_t>(n), 0, 0,
                                     std::max(textWidth(lastComponent(node.name), 60), textWidth(node.op, 60)),
                                     kNodeHeight});
  }
  // Which child of this group holds a node (or -1 when the node is outside it).
  auto childHolding = [&](size_t node) -> int {
    if (auto it = childOfNode.find(node); it != childOfNode.end()) return it->second;
    int at = m_tree.groupOf(node);
    while (at > 0 && m_tree.group(at).parent != group) at = m_tree.group(at).parent;
    if (at <= 0 || m_tree.group(at).parent != group) return -1;
    return childOfGroup.at(at);
  };
  std::map<std::pair<int, int>, std::pair<int, bool>> bundled;  // (from, to) -> (count, all control)
  std::vector<size_t> members;
  std::vector<int> work{group};
  while (!work.empty()) {  // every node at or below this group
    const ScopeGroup& w = m_tree.group(work.back());
    work.pop_back();
    members.insert(members.end(), w.nodes.begin(), w.nodes.end());
    work.insert(work.end(), w.groups.begin(), w.groups.end());
  }
  for (size_t n : members) {
    int to = childHolding(n);
    for (const auto& [p, control] : m_producers[n]) {
      int from = childHolding(p);
      if (from < 0 || from == to) continue;
      auto& b = bundled[{from, to}];
      b.second = b.first == 0 ? control : (b.second && control);
      ++b.first;
    }
  }
  for (const auto& c : layout->children) boxes.push_back(LayoutBox{c.w, c.h, 0, 0});
  std::vector<LayoutEdge> edges;
  for (const auto& [ends, info] : bundled) {
    edges.push_back(LayoutEdge{ends.first, ends.second, {}});
    layout->routes.push_back(Route{ends.first, ends.second, info.second, info.first, {}});
  }
  Point size = boxes.size() <= m_options.maxDotItems ? dotLayout(boxes, edges) : layeredLayout(boxes, edges);
  layout->w = size.x;
  layout->h = size.y;
  for (size_t i = 0; i < boxes.size(); ++i) {
    layout->children[i].x = boxes[i].x;
    layout->children[i].y = boxes[i].y;
  }
  for (size_t k = 0; k < edges.size(); ++k) layout->routes[k].points = std::move(edges[k].points);
  std::lock_guard lock(m_mutex);
  return m_cache.emplace(key, std::move(layout)).first->second;
}

void GraphLayout::place(Scene& scene, const GroupLayout& layout, double x, double y,
                        const std::set<std::string>& expanded, int depth) {
  std::vector<int> itemOfChild;
  for (const auto& child : layout.children) {
    SceneItem item;
    item.kind = child.kind;
    item.id = child.id;
    item.rect = Rect{x + child.x, y + child.y, child.w, child.h};
    item.depth = depth;
    if (child.kind == SceneItem::Kind::kNode) {
      const Node& node = m_graph->node(static_cast<size_t>(child.id));
      item.label = lastComponent(node.name);
      item.detail = node.op;
      item.category = OpRegistry::global().categoryOf(node.op, &m_graph->library);
      scene.itemOfNode[static_cast<size_t>(child.id)] = static_cast<int64_t>(scene.items.size());
      scene.items.push_back(item);
      itemOfChild.push_back(static_cast<int>(scene.items.size()) - 1);
      continue;
    }
    const ScopeGroup& g = m_tree.group(static_cast<int>(child.id));
    item.label = g.label;
    item.detail = std::to_string(g.totalNodes) + (g.totalNodes == 1 ? " node" : " nodes");
    item.expanded = expanded.count(g.path) > 0;
    std::map<OpCategory, size_t> counts;  // a group's colour: its most common category (Identity and Const aside)
    std::vector<int> work{static_cast<int>(child.id)};
    while (!work.empty() && counts.size() < 64) {
      const ScopeGroup& w = m_tree.group(work.back());
      work.pop_back();
      for (size_t n : w.nodes) ++counts[OpRegistry::global().categoryOf(m_graph->node(n).op, &m_graph->library)];
      work.insert(work.end(), w.groups.begin(), w.groups.end());
    }
    counts.erase(OpCategory::kConstant);
    counts.erase(OpCategory::kIdentity);
    item.category =
        counts.empty() ? OpCategory::kOther : std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) {
                                                return a.second < b.second;
                                              })->first;
    const int index = static_cast<int>(scene.items.size());
    scene.items.push_back(item);
    itemOfChild.push_back(index);
    if (item.expanded) {
      auto sub = layoutGroup(static_cast<int>(child.id), expanded, nullptr);  // cached by now
      if (sub) place(scene, **sub, item.rect.x + kPad, item.rect.y + kHeader, expanded, depth + 1);
    } else {
      std::vector<size_t> stack{static_cast<size_t>(child.id)};
      while (!stack.empty()) {  // every node under a collapsed group is shown by it
        const ScopeGroup& w = m_tree.group(static_cast<int>(stack.back()));
        stack.pop_back();
        for (size_t n : w.nodes) scene.itemOfNode[n] = index;
        for (int c : w.groups) stack.push_back(static_cast<size_t>(c));
      }
    }
  }
  for (const auto& route : layout.routes) {
    SceneEdge edge;
    edge.from = itemOfChild[static_cast<size_t>(route.from)];
    edge.to = itemOfChild[static_cast<size_t>(route.to)];
    edge.control = route.control;
    edge.count = route.count;
    for (const auto& p : route.points) edge.points.push_back(Point{x + p.x, y + p.y});
    const SceneItem& from = scene.items[static_cast<size_t>(edge.from)];
    const SceneItem& to = scene.items[static_cast<size_t>(edge.to)];
    if (from.kind == SceneItem::Kind::kNode && to.kind == SceneItem::Kind::kNode && !edge.control) {
      // A single tensor between two visible nodes: its dtype and shape, and a width by its size.
      const Node& consumer = m_graph->node(static_cast<size_t>(to.id));
      for (const auto& in : consumer.inputs)
        if (m_graph->find(in.node) == from.id)
          if (const TensorInfo* info = m_shapes.find(static_cast<size_t>(from.id), in.index)) {
            edge.label = std::string(dtypeName(info->dtype)) + " " + info->shape.toString();
            if (info->shape.isFullyDefined())
              edge.weight = std::clamp(
                  1.0 + std::log10(std::max<double>(1, static_cast<double>(info->shape.numElements()))) / 2, 1.0, 4.0);
            break;
          }
    }
    scene.edges.push_back(std::move(edge));
  }
}

Expected<std::shared_ptr<const Scene>> GraphLayout::build(const std::set<std::string>& expanded,
                                                          const std::atomic<bool>* cancelled) {
  FS_ASSIGN_OR_RETURN(auto root, layoutGroup(ScopeTree::kRoot, expanded, cancelled));
  auto scene = std::make_shared<Scene>();
  scene->itemOfNode.assign(m_graph->size(), -1);
  place(*scene, *root, 0, 0, expanded, 0);
  scene->bounds = Rect{-20, -20, root->w + 40, root->h + 40};
  scene->buildGrid();
  return std::shared_ptr<const Scene>(std::move(scene));
}

}  // namespace flowscope
