// Points and rectangles in scene units (the layout's coordinate space).
#pragma once

#include <algorithm>

namespace flowscope {

struct Point {
  double x = 0, y = 0;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  bool intersects(const Rect& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
  bool contains(double px, double py) const { return px >= x && px <= x + w && py >= y && py <= y + h; }
  /// The longer side: what decides whether the rectangle is visible at a zoom.
  double extent() const { return std::max(w, h); }
};

}  // namespace flowscope
