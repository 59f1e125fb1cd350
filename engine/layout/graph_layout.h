// GraphLayout: lays a graph out TensorBoard-style. The name-scope hierarchy is collapsed into group boxes; an
// expanded group is laid out on its own (Graphviz dot through libgvc, or a layered fallback for very wide groups)
// and cached by (group, expanded groups inside it), so expanding a group lays out only that group. Small groups of
// the same structure share one Graphviz run (DotMemo); shapes for edge labels are inferred when first needed.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "base/status.h"
#include "layout/dot_layout.h"
#include "layout/scene.h"
#include "ops/shape_inference.h"

namespace flowscope {

struct LayoutOptions {
  size_t maxDotItems = 400;  ///< groups with more visible children use the layered fallback (dot is superlinear)
};

class GraphLayout {
 public:
  explicit GraphLayout(std::shared_ptr<const Graph> graph, LayoutOptions options = {});

  const Graph& graph() const { return *m_graph; }
  const ScopeTree& tree() const { return m_tree; }
  /// The scene with these groups expanded (group paths; the root is always expanded). Thread-safe. `cancelled`
  /// stops it between groups (the groups laid out so far stay cached).
  Expected<std::shared_ptr<const Scene>> build(const std::set<std::string>& expanded,
                                               const std::atomic<bool>* cancelled = nullptr);
  /// Every group path (for "expand all").
  std::set<std::string> allGroups() const;
  /// Groups laid out so far (cache entries), for tests and statistics.
  size_t cachedLayouts() const;

 private:
  struct Child {
    SceneItem::Kind kind;
    int64_t id;
    double x = 0, y = 0, w = 0, h = 0;  // relative to the group's interior
  };
  struct Route {
    int from, to;
    bool control;
    int count;
    std::vector<Point> points;
  };
  struct GroupLayout {
    double w = 0, h = 0;
    std::vector<Child> children;
    std::vector<Route> routes;
    std::vector<Route> stubs;  // from the children set aside (shared_constants.h) to their readers
  };
  struct Producer {
    uint32_t node;
    int32_t output;  // < 0: a control input
  };

  Expected<std::shared_ptr<const GroupLayout>> layoutGroup(int group, const std::set<std::string>& expanded,
                                                           const std::atomic<bool>* cancelled);
  void place(Scene& scene, const GroupLayout& layout, double x, double y, const std::set<std::string>& expanded,
             int depth);
  std::string cacheKey(int group, const std::set<std::string>& expanded) const;
  std::vector<Route> bundleEdges(int group) const;
  /// Moves the routes of `layout`'s shared constants into its stubs; true for each child set aside.
  std::vector<bool> setSharedConstantsAside(GroupLayout& layout) const;
  /// After the layout of the other children (`size`, their routes' `edges`): room at the left for the stubs' labels,
  /// and the children set aside in a column at the right. Returns the group's size.
  Point placeAside(GroupLayout& layout, const std::vector<bool>& aside, Point size,
                   std::vector<LayoutEdge>& edges) const;
  /// The child of `group` that holds a node (a node of its own or a child group), or -1 when it lies outside.
  int childHolding(int group, size_t node) const;
  const Producer* producersBegin(size_t node) const { return m_producers.data() + m_producerStart[node]; }
  const Producer* producersEnd(size_t node) const { return m_producers.data() + m_producerStart[node + 1]; }
  void indexProducers();
  void indexTree();
  /// The tensor shapes, inferred on first use (a collapsed view has no labelled edges).
  const GraphShapes& shapes() const;
  void labelEdge(SceneEdge& edge, const SceneItem& from, const SceneItem& to) const;

  std::shared_ptr<const Graph> m_graph;
  LayoutOptions m_options;
  ScopeTree m_tree;
  mutable std::once_flag m_shapesOnce;
  mutable GraphShapes m_shapes;
  std::vector<size_t> m_producerStart;      // node -> its first entry in m_producers (one more entry at the end)
  std::vector<Producer> m_producers;        // data inputs then control inputs of each node, in order
  std::vector<uint32_t> m_slot;             // node -> its index among its group's nodes
  std::vector<uint32_t> m_groupSlot;        // group -> its index among its parent's groups
  std::vector<OpCategory> m_nodeCategory;   // node -> its op's category
  std::vector<OpCategory> m_groupCategory;  // group -> its most common category (Identity and Const aside)
  DotMemo m_dotMemo;
  mutable std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<const GroupLayout>> m_cache;
};

}  // namespace flowscope
