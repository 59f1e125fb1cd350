// Intersection over union of two boxes as TensorFlow's non-max suppression computes it.
#pragma once

#include <algorithm>

namespace flowscope {

/// Boxes are [y0, x0, y1, x1] with corners in either order; 0 when either box is empty.
inline float boxIou(const float* a, const float* b) {
  const float ay0 = std::min(a[0], a[2]), ax0 = std::min(a[1], a[3]), ay1 = std::max(a[0], a[2]),
              ax1 = std::max(a[1], a[3]);
  const float by0 = std::min(b[0], b[2]), bx0 = std::min(b[1], b[3]), by1 = std::max(b[0], b[2]),
              bx1 = std::max(b[1], b[3]);
  const float areaA = (ay1 - ay0) * (ax1 - ax0), areaB = (by1 - by0) * (bx1 - bx0);
  if (areaA <= 0 || areaB <= 0) return 0;
  const float inter =
      std::max(std::min(ay1, by1) - std::max(ay0, by0), 0.0f) * std::max(std::min(ax1, bx1) - std::max(ax0, bx0), 0.0f);
  return inter / (areaA + areaB - inter);
}

}  // namespace flowscope
