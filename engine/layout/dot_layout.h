// Graphviz dot through libgvc (with the dot plugin linked in, so no plugin configuration is needed). Graphviz
// is not thread-safe: calls are serialized.
#pragma once

#include <vector>

#include "layout/scene.h"

namespace flowscope {

struct LayoutBox {
  double w = 0, h = 0;  ///< size in points
  double x = 0, y = 0;  ///< out: top-left, y down
};
struct LayoutEdge {
  int from = 0, to = 0;
  std::vector<Point> points;  ///< out: cubic Bezier control points (3k+1), y down
};

/// Ranks top to bottom. Returns the drawing's width and height.
Point dotLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges);
/// A layered layout without Graphviz for very wide groups: longest-path layers, barycentric ordering, straight edges.
Point layeredLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges);

}  // namespace flowscope
