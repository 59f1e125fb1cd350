// Scene: an immutable, laid-out picture of a graph at one expansion state: boxes for nodes and groups, edge
// polylines, and a grid for culling and hit tests. Built off the UI thread; the canvas only draws it.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "layout/scope_tree.h"
#include "ops/op_category.h"

namespace flowscope {

struct Point {
  double x = 0, y = 0;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  bool intersects(const Rect& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
  bool contains(double px, double py) const { return px >= x && px <= x + w && py >= y && py <= y + h; }
};

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

struct SceneEdge {
  int from = 0, to = 0;       ///< item indices
  std::vector<Point> points;  ///< polyline from the producer's box to the consumer's
  bool control = false;
  int count = 1;      ///< graph edges bundled into this one
  std::string label;  ///< "float32 [1,96,96,14]" when known
  double weight = 1;  ///< line width hint from the tensor size (1 .. 4)
  Rect box;           ///< bounds of the polyline (set by Scene::buildGrid), for culling
};

struct Scene {
  std::vector<SceneItem> items;  ///< groups before their contents: draw in order
  std::vector<SceneEdge> edges;
  Rect bounds;
  std::vector<int64_t> itemOfNode;  ///< graph node -> the visible item that shows it (its node or a collapsed group)

  /// Items whose boxes intersect `view`, in draw order.
  std::vector<int> itemsIn(const Rect& view) const;
  /// The innermost item at a point, or -1.
  int itemAt(double x, double y) const;
  /// Indexes items for culling and hit tests and computes each edge's bounds; call once the scene is complete.
  void buildGrid();

 private:
  double m_cell = 400;
  int m_columns = 0, m_rows = 0;
  std::vector<std::vector<int>> m_grid;
};

}  // namespace flowscope
