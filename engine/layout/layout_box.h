// The boxes and edges a layout engine places: sizes in, positions and edge routes out.
#pragma once

#include <vector>

#include "layout/scene.h"

namespace flowscope {

struct LayoutBox {
  double w = 0, h = 0;    ///< size in points
  double x = 0, y = 0;    ///< out: top-left, y down
  bool constant = false;  ///< a constant node: the layered layout keeps it, and what only it feeds, by its reader
};
struct LayoutEdge {
  int from = 0, to = 0;
  std::vector<Point> points;  ///< out: cubic Bezier control points (3k+1), y down
};

}  // namespace flowscope
