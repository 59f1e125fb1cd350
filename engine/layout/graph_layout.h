// GraphLayout: lays a graph out TensorBoard-style. The name-scope hierarchy is collapsed into group boxes; an
// expanded group is laid out on its own (Graphviz dot through libgvc, or a layered fallback for very wide groups)
// and cached by (group, expanded groups inside it), so expanding a group lays out only that group.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "base/status.h"
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
  };

  Expected<std::shared_ptr<const GroupLayout>> layoutGroup(int group, const std::set<std::string>& expanded,
                                                           const std::atomic<bool>* cancelled);
  void place(Scene& scene, const GroupLayout& layout, double x, double y, const std::set<std::string>& expanded,
             int depth);
  std::string cacheKey(int group, const std::set<std::string>& expanded) const;

  std::shared_ptr<const Graph> m_graph;
  LayoutOptions m_options;
  ScopeTree m_tree;
  GraphShapes m_shapes;
  std::vector<std::vector<std::pair<size_t, bool>>> m_producers;  // node -> (producer, control)
  mutable std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<const GroupLayout>> m_cache;
};

}  // namespace flowscope
