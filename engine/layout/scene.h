// Scene: an immutable, laid-out picture of a graph at one expansion state: boxes for nodes and groups, edge
// polylines, and a grid for culling and hit tests. Built off the UI thread; the canvas only draws it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "layout/geometry.h"
#include "layout/rect_index.h"
#include "layout/scope_tree.h"
#include "ops/op_category.h"

namespace flowscope {

struct SceneItem {
  enum class Kind { kNode, kGroup };
  Kind kind = Kind::kNode;
  int64_t id = 0;  ///< node index, or group index in the ScopeTree
  Rect rect;
  std::string label;                         ///< node name's last component, or group label
  std::string detail;                        ///< op type, or "N nodes"
  OpCategory category = OpCategory::kOther;  ///< a group takes its most frequent category
  bool expanded = false;                     ///< groups: drawn as a frame around their children
  int depth = 0;
};

/// The band at the top of an expanded group that holds its title, above its contents.
inline constexpr double kGroupTitleHeight = 24;

struct SceneEdge {
  int from = 0, to = 0;       ///< item indices
  std::vector<Point> points;  ///< polyline from the producer's box to the consumer's
  bool control = false;
  int count = 1;      ///< graph edges bundled into this one
  std::string label;  ///< "float32 [1,96,96,14]" when known
  double weight = 1;  ///< line width hint from the tensor size (1 .. 4)
  Rect labelBox;      ///< where the label's text goes (placeEdgeLabels)
  Rect box;           ///< bounds of the polyline and the label (set by Scene::indexEdges), for culling
  bool stub = false;  ///< a shared constant's short edge onto one of its readers, labelled with its name

  /// How many of `points` make a chain of cubic Beziers (3k+1; Graphviz may add an arrow tip after it, drawn as a
  /// line); 0 when the points are a polyline.
  size_t bezierPoints() const {
    const size_t n = points.size();
    if (n >= 4 && (n - 1) % 3 == 0) return n;
    return n >= 5 && (n - 2) % 3 == 0 ? n - 1 : 0;
  }
};

struct Scene {
  std::vector<SceneItem> items;  ///< groups before their contents: draw in order
  std::vector<SceneEdge> edges;
  Rect bounds;
  std::vector<int64_t> itemOfNode;  ///< graph node -> the visible item that shows it (its node or a collapsed group)

  /// Items whose boxes intersect `view`, in draw order; with `minExtent`, only those whose longer side is at
  /// least that long (a zoomed-out view skips what would be under a pixel without visiting it).
  std::vector<int> itemsIn(const Rect& view, double minExtent = 0) const;
  /// Calls `visit(rect, item)` for the items in `view` whose longer side is under `belowExtent` (RectIndex's
  /// visitSmall: with a `resolution`, fewer of them where they are denser than that).
  void visitSmallItems(const Rect& view, double belowExtent, double resolution,
                       const std::function<void(const Rect&, int)>& visit) const {
    m_itemIndex.visitSmall(view, belowExtent, resolution, visit);
  }
  /// Edges whose bounds intersect `view`, ascending; `minExtent` as for items.
  std::vector<int> edgesIn(const Rect& view, double minExtent = 0) const;
  /// The innermost item at a point, or -1.
  int itemAt(double x, double y) const;
  /// Indexes items and edges for culling and hit tests (indexItems, then indexEdges); call once the scene is complete.
  void buildIndex();
  void indexItems();
  /// Computes each edge's bounds (its points and its label) and indexes them.
  void indexEdges();

 private:
  RectIndex m_itemIndex, m_edgeIndex;
};

}  // namespace flowscope
