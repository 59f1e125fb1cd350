// Hierarchical layout of name-scope groups.
#include "layout/graph_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <span>
#include <string_view>
#include <unordered_map>

#include "base/strings.h"
#include "base/thread_pool.h"
#include "layout/edge_labels.h"
#include "layout/layered_layout.h"
#include "layout/shared_constants.h"
#include "ops/onnx_op_set.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

constexpr double kNodeHeight = 30, kGroupHeight = 40, kCharWidth = 6.6, kPad = 14, kHeader = kGroupTitleHeight;

double textWidth(std::string_view s, double minimum) {
  return std::max(minimum, 24 + kCharWidth * static_cast<double>(std::min<size_t>(s.size(), 40)));
}

std::string_view lastComponent(std::string_view name) {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

}  // namespace

GraphLayout::GraphLayout(std::shared_ptr<const Graph> graph, LayoutOptions options)
    : m_graph(std::move(graph)), m_options(options), m_tree(*m_graph) {
  indexProducers();
  indexTree();
}

// Rows sized, then filled, on the intra-op threads (reading every node's inputs is the cost on a large graph).
void GraphLayout::indexProducers() {
  const Graph& graph = *m_graph;
  const auto edges = graph.edges();  // usually built already (the loader's verifier): no name lookups here
  const size_t n = graph.size();
  auto named = [](std::span<const int32_t> producers) {
    return static_cast<size_t>(std::count_if(producers.begin(), producers.end(), [](int32_t p) { return p >= 0; }));
  };
  m_producerStart.assign(n + 1, 0);
  parallelFor(static_cast<int64_t>(n), 8, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i)
      m_producerStart[i + 1] = named(edges->inputProducers(i)) + named(edges->controlProducers(i));
  });
  for (size_t i = 0; i < n; ++i) m_producerStart[i + 1] += m_producerStart[i];
  m_producers.resize(m_producerStart[n]);
  parallelFor(static_cast<int64_t>(n), 16, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      Producer* at = m_producers.data() + m_producerStart[i];
      const auto data = edges->inputProducers(i);
      for (size_t k = 0; k < data.size(); ++k)
        if (data[k] >= 0) *at++ = Producer{static_cast<uint32_t>(data[k]), graph.node(i).inputs[k].index};
      for (int32_t p : edges->controlProducers(i))
        if (p >= 0) *at++ = Producer{static_cast<uint32_t>(p), -1};
    }
  });
}

void GraphLayout::indexTree() {
  const auto& groups = m_tree.groups();
  m_slot.resize(m_graph->size());
  m_groupSlot.resize(groups.size());
  m_nodeCategory.resize(m_graph->size());
  m_groupCategory.resize(groups.size());
  // Each node's category on the intra-op threads, looked up once per op and chunk (a few distinct ops).
  parallelFor(static_cast<int64_t>(m_graph->size()), 40, [&](int64_t begin, int64_t end) {
    std::unordered_map<std::string_view, OpCategory> byOp;
    for (auto n = static_cast<size_t>(begin); n < static_cast<size_t>(end); ++n) {
      const std::string& op = m_graph->node(n).op;
      auto it = byOp.find(op);
      if (it == byOp.end()) it = byOp.emplace(op, OpRegistry::global().categoryOf(op, &m_graph->library)).first;
      m_nodeCategory[n] = it->second;
    }
  });
  constexpr size_t kCategories = static_cast<size_t>(OpCategory::kOther) + 1;
  std::vector<std::array<uint32_t, kCategories>> counts(groups.size());
  for (size_t g = groups.size(); g-- > 0;) {  // children come after their parents: count bottom-up
    auto& count = counts[g];
    for (size_t k = 0; k < groups[g].nodes.size(); ++k) {
      const size_t n = groups[g].nodes[k];
      m_slot[n] = static_cast<uint32_t>(k);
      ++count[static_cast<size_t>(m_nodeCategory[n])];
    }
    for (size_t k = 0; k < groups[g].groups.size(); ++k) {
      m_groupSlot[static_cast<size_t>(groups[g].groups[k])] = static_cast<uint32_t>(k);
      for (size_t c = 0; c < kCategories; ++c) count[c] += counts[static_cast<size_t>(groups[g].groups[k])][c];
    }
    OpCategory best = OpCategory::kOther;  // a group's colour: its most common category, Identity and Const aside
    for (uint32_t c = 0, most = 0; c < kCategories; ++c)
      if (const auto category = static_cast<OpCategory>(c);
          category != OpCategory::kConstant && category != OpCategory::kIdentity && count[c] > most)
        most = count[c], best = category;
    m_groupCategory[g] = best;
  }
}

const GraphShapes& GraphLayout::shapes() const {
  std::call_once(m_shapesOnce, [this] { m_shapes = inferShapes(*m_graph); });
  return m_shapes;
}

std::set<std::string> GraphLayout::allGroups() const {
  std::set<std::string> all;
  for (const auto& g : m_tree.groups())
    if (!g.path.empty()) all.emplace(g.path);
  return all;
}

size_t GraphLayout::cachedLayouts() const {
  std::lock_guard lock(m_mutex);
  return m_cache.size();
}

std::string GraphLayout::cacheKey(int group, const std::set<std::string>& expanded) const {
  const std::string path(m_tree.group(group).path);
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

int GraphLayout::childHolding(int group, size_t node) const {
  int at = m_tree.groupOf(node);
  if (at == group) return static_cast<int>(m_tree.group(group).groups.size() + m_slot[node]);
  while (at > 0 && m_tree.group(at).parent != group) at = m_tree.group(at).parent;
  return at > 0 ? static_cast<int>(m_groupSlot[static_cast<size_t>(at)]) : -1;
}

std::vector<GraphLayout::Route> GraphLayout::bundleEdges(int group) const {
  struct Link {
    int from, to;
    bool control;
  };
  std::vector<Link> links;
  std::vector<int> work{group};
  while (!work.empty()) {  // the inputs of every node at or below this group
    const ScopeGroup& w = m_tree.group(work.back());
    work.pop_back();
    for (size_t n : w.nodes) {
      const int to = childHolding(group, n);
      for (const Producer* p = producersBegin(n); p != producersEnd(n); ++p)
        if (const int from = childHolding(group, p->node); from >= 0 && from != to)
          links.push_back(Link{from, to, p->output < 0});
    }
    work.insert(work.end(), w.groups.begin(), w.groups.end());
  }
  std::sort(links.begin(), links.end(),
            [](const Link& a, const Link& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  std::vector<Route> routes;  // one per (from, to), counting its edges; control only when all of them are
  for (const Link& l : links) {
    if (!routes.empty() && routes.back().from == l.from && routes.back().to == l.to) {
      ++routes.back().count;
      routes.back().control = routes.back().control && l.control;
    } else {
      routes.push_back(Route{l.from, l.to, l.control, 1, {}});
    }
  }
  return routes;
}

std::vector<bool> GraphLayout::setSharedConstantsAside(GroupLayout& layout) const {
  std::vector<bool> constantSource(layout.children.size(), false);
  for (size_t i = 0; i < layout.children.size(); ++i) {
    const Child& c = layout.children[i];
    const auto node = static_cast<size_t>(c.id);
    constantSource[i] = c.kind == SceneItem::Kind::kNode && m_nodeCategory[node] == OpCategory::kConstant &&
                        producersBegin(node) == producersEnd(node);
  }
  std::vector<int> from, to;
  for (const Route& r : layout.routes) from.push_back(r.from), to.push_back(r.to);
  const std::vector<bool> aside = sharedConstants(constantSource, from, to);
  const auto isStub = [&](const Route& r) { return aside[static_cast<size_t>(r.from)]; };
  std::copy_if(layout.routes.begin(), layout.routes.end(), std::back_inserter(layout.stubs), isStub);
  layout.routes.erase(std::remove_if(layout.routes.begin(), layout.routes.end(), isStub), layout.routes.end());
  return aside;
}

Point GraphLayout::placeAside(GroupLayout& layout, const std::vector<bool>& aside, Point size,
                              std::vector<LayoutEdge>& edges) const {
  size_t longestStub = 0;
  for (const Route& stub : layout.stubs)
    longestStub = std::max(
        longestStub, lastComponent(m_graph->node(static_cast<size_t>(layout.children[stub.from].id)).name).size());
  const double margin = stubMargin(longestStub);
  const bool othersLaidOut = std::find(aside.begin(), aside.end(), false) != aside.end();
  for (size_t i = 0; i < layout.children.size(); ++i) layout.children[i].x += aside[i] ? 0 : margin;
  for (LayoutEdge& e : edges)
    for (Point& p : e.points) p.x += margin;
  size.x += margin;
  const double column = othersLaidOut ? size.x + 2 * kPad : 0;
  for (size_t i = 0, row = 0; i < layout.children.size(); ++i) {
    if (!aside[i]) continue;
    Child& c = layout.children[i];
    c.x = column;
    c.y = static_cast<double>(row++) * (kNodeHeight + kPad / 2);
    size.x = std::max(size.x, c.x + c.w);
    size.y = std::max(size.y, c.y + c.h);
  }
  return size;
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
  for (int c : g.groups) {  // children: groups, then nodes (childHolding counts on this order)
    const ScopeGroup& cg = m_tree.group(c);
    Child child{SceneItem::Kind::kGroup, c};
    if (expanded.count(std::string(cg.path))) {
      FS_ASSIGN_OR_RETURN(auto sub, layoutGroup(c, expanded, cancelled));
      child.w = std::max(sub->w + 2 * kPad, textWidth(cg.label(), 120));
      child.h = sub->h + kHeader + kPad;
    } else {
      child.w = textWidth(std::string(cg.label()) + " (" + std::to_string(cg.totalNodes) + ")", 90);
      child.h = kGroupHeight;
    }
    layout->children.push_back(child);
  }
  for (size_t n : g.nodes) {
    const Node& node = m_graph->node(n);
    layout->children.push_back(Child{SceneItem::Kind::kNode, static_cast<int64_t>(n), 0, 0,
                                     std::max(textWidth(lastComponent(node.name), 60), textWidth(node.op, 60)),
                                     kNodeHeight});
  }
  layout->routes = bundleEdges(group);
  const std::vector<bool> aside = setSharedConstantsAside(*layout);
  std::vector<int> boxOf(layout->children.size(), -1);  // the laid-out children's boxes
  std::vector<LayoutBox> boxes;
  for (size_t i = 0; i < layout->children.size(); ++i) {
    const Child& c = layout->children[i];
    if (aside[i]) continue;
    boxOf[i] = static_cast<int>(boxes.size());
    boxes.push_back(LayoutBox{
        c.w, c.h, 0, 0,
        c.kind == SceneItem::Kind::kNode && m_nodeCategory[static_cast<size_t>(c.id)] == OpCategory::kConstant});
  }
  std::vector<LayoutEdge> edges;
  for (const auto& r : layout->routes)
    edges.push_back(LayoutEdge{boxOf[static_cast<size_t>(r.from)], boxOf[static_cast<size_t>(r.to)], {}});
  Point size = boxes.size() <= m_options.maxDotItems ? m_dotMemo.layout(boxes, edges) : layeredLayout(boxes, edges);
  for (size_t i = 0; i < layout->children.size(); ++i) {
    if (boxOf[i] < 0) continue;
    layout->children[i].x = boxes[static_cast<size_t>(boxOf[i])].x;
    layout->children[i].y = boxes[static_cast<size_t>(boxOf[i])].y;
  }
  size = placeAside(*layout, aside, size, edges);
  layout->w = size.x;
  layout->h = size.y;
  for (size_t k = 0; k < edges.size(); ++k) layout->routes[k].points = std::move(edges[k].points);
  std::lock_guard lock(m_mutex);
  return m_cache.emplace(key, std::move(layout)).first->second;
}

void GraphLayout::labelEdge(SceneEdge& edge, const SceneItem& from, const SceneItem& to) const {
  if (from.kind != SceneItem::Kind::kNode || to.kind != SceneItem::Kind::kNode || edge.control) return;
  // A single tensor between two visible nodes: its dtype and shape, and a width by its size.
  const auto consumer = static_cast<size_t>(to.id);
  for (const Producer* p = producersBegin(consumer); p != producersEnd(consumer); ++p) {
    if (p->node != from.id || p->output < 0) continue;
    const TensorInfo* info = shapes().find(static_cast<size_t>(from.id), p->output);
    if (!info) continue;
    if (info->dtype == DType::kVariant) {  // an ONNX sequence, map or optional, a TensorList: a type, no shape
      const AttrValue* type = m_graph->node(static_cast<size_t>(from.id)).attr(kOnnxTypeAttr);
      edge.label = type ? type->s() : "variant";
      return;
    }
    edge.label = std::string(dtypeName(info->dtype)) + " " + info->shape.toString();
    if (info->shape.isFullyDefined())
      edge.weight = std::clamp(
          1.0 + std::log10(std::max<double>(1, static_cast<double>(info->shape.numElements()))) / 2, 1.0, 4.0);
    return;
  }
}

void GraphLayout::place(Scene& scene, const GroupLayout& layout, double x, double y,
                        const std::set<std::string>& expanded, int depth) {
  std::vector<int> itemOfChild;
  itemOfChild.reserve(layout.children.size());
  for (const auto& child : layout.children) {
    SceneItem item;
    item.kind = child.kind;
    item.id = child.id;
    item.rect = Rect{x + child.x, y + child.y, child.w, child.h};
    item.depth = depth;
    const int index = static_cast<int>(scene.items.size());
    itemOfChild.push_back(index);
    if (child.kind == SceneItem::Kind::kNode) {
      const Node& node = m_graph->node(static_cast<size_t>(child.id));
      item.label = lastComponent(node.name);
      item.detail = node.op;
      item.category = m_nodeCategory[static_cast<size_t>(child.id)];
      scene.itemOfNode[static_cast<size_t>(child.id)] = index;
      scene.items.push_back(std::move(item));
      continue;
    }
    const ScopeGroup& g = m_tree.group(static_cast<int>(child.id));
    item.label = g.label();
    item.detail = counted(g.totalNodes, "node", "nodes");
    item.expanded = expanded.count(std::string(g.path)) > 0;
    item.category = m_groupCategory[static_cast<size_t>(child.id)];
    scene.items.push_back(std::move(item));
    const SceneItem& placed = scene.items.back();
    if (placed.expanded) {
      auto sub = layoutGroup(static_cast<int>(child.id), expanded, nullptr);  // cached by now
      if (sub) place(scene, **sub, placed.rect.x + kPad, placed.rect.y + kHeader, expanded, depth + 1);
      continue;
    }
    std::vector<int> stack{static_cast<int>(child.id)};
    while (!stack.empty()) {  // every node under a collapsed group is shown by it
      const ScopeGroup& w = m_tree.group(stack.back());
      stack.pop_back();
      for (size_t n : w.nodes) scene.itemOfNode[n] = index;
      stack.insert(stack.end(), w.groups.begin(), w.groups.end());
    }
  }
  for (const auto& route : layout.routes) {
    SceneEdge edge;
    edge.from = itemOfChild[static_cast<size_t>(route.from)];
    edge.to = itemOfChild[static_cast<size_t>(route.to)];
    edge.control = route.control;
    edge.count = route.count;
    edge.points.reserve(route.points.size());
    for (const auto& p : route.points) edge.points.push_back(Point{x + p.x, y + p.y});
    labelEdge(edge, scene.items[static_cast<size_t>(edge.from)], scene.items[static_cast<size_t>(edge.to)]);
    scene.edges.push_back(std::move(edge));
  }
  std::unordered_map<int, int> stubsOn;  // reader child -> its stubs so far
  for (const auto& route : layout.stubs) {
    SceneEdge edge;
    edge.from = itemOfChild[static_cast<size_t>(route.from)];
    edge.to = itemOfChild[static_cast<size_t>(route.to)];
    edge.count = route.count;
    edge.stub = true;
    edge.points = stubPoints(scene.items[static_cast<size_t>(edge.to)].rect, stubsOn[route.to]++);
    edge.label = scene.items[static_cast<size_t>(edge.from)].label;
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
  scene->indexItems();
  placeEdgeLabels(*scene);
  scene->indexEdges();
  return std::shared_ptr<const Scene>(std::move(scene));
}

}  // namespace flowscope
