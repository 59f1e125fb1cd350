// Edge label placement: candidate spots along each edge, a grid of the labels placed so far.
#include "layout/edge_labels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace flowscope {
namespace {

constexpr double kCharWidth = 4.6, kLabelHeight = 10, kGapFromEdge = 4, kCell = 64;

Point cubic(const Point& a, const Point& b, const Point& c, const Point& d, double u) {
  const double v = 1 - u, w0 = v * v * v, w1 = 3 * v * v * u, w2 = 3 * v * u * u, w3 = u * u * u;
  return Point{w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y};
}

Point alongPolyline(const std::vector<Point>& points, double t) {
  std::vector<double> length(points.size(), 0);
  for (size_t i = 1; i < points.size(); ++i)
    length[i] = length[i - 1] + std::hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  const double target = t * length.back();
  for (size_t i = 1; i < points.size(); ++i) {
    if (length[i] < target && i + 1 < points.size()) continue;
    const double span = length[i] - length[i - 1], u = span > 0 ? (target - length[i - 1]) / span : 0;
    return Point{points[i - 1].x + u * (points[i].x - points[i - 1].x),
                 points[i - 1].y + u * (points[i].y - points[i - 1].y)};
  }
  return points.front();
}

/// Labels placed so far, by the grid cells their boxes touch.
class LabelGrid {
 public:
  bool free(const Rect& r) const {
    bool clear = true;
    visitCells(r, [&](int64_t cell) {
      if (auto it = m_cells.find(cell); it != m_cells.end())
        for (const Rect& other : it->second) clear = clear && !other.intersects(r);
    });
    return clear;
  }
  void add(const Rect& r) {
    visitCells(r, [&](int64_t cell) { m_cells[cell].push_back(r); });
  }

 private:
  template <typename Visit>
  static void visitCells(const Rect& r, Visit&& visit) {
    const auto x0 = static_cast<int64_t>(std::floor(r.x / kCell)),
               x1 = static_cast<int64_t>(std::floor((r.x + r.w) / kCell));
    const auto y0 = static_cast<int64_t>(std::floor(r.y / kCell)),
               y1 = static_cast<int64_t>(std::floor((r.y + r.h) / kCell));
    for (int64_t cy = y0; cy <= y1; ++cy)
      for (int64_t cx = x0; cx <= x1; ++cx) visit(cy * (int64_t{1} << 32) + cx);
  }
  std::unordered_map<int64_t, std::vector<Rect>> m_cells;
};

bool clearOfBoxes(const Scene& scene, const Rect& r) {
  for (int i : scene.itemsIn(r)) {
    const SceneItem& item = scene.items[static_cast<size_t>(i)];
    if (!(item.kind == SceneItem::Kind::kGroup && item.expanded)) return false;  // a frame holds its contents
  }
  return true;
}

}  // namespace

Point pointAlongEdge(const SceneEdge& edge, double t) {
  const auto& p = edge.points;
  if (p.empty()) return Point{};
  if (p.size() < 4 || (p.size() - 1) % 3 != 0) return alongPolyline(p, t);
  const size_t pieces = (p.size() - 1) / 3;
  const double at = std::clamp(t, 0.0, 1.0) * static_cast<double>(pieces);
  const size_t piece = std::min(pieces - 1, static_cast<size_t>(at));
  return cubic(p[3 * piece], p[3 * piece + 1], p[3 * piece + 2], p[3 * piece + 3], at - static_cast<double>(piece));
}

void placeEdgeLabels(Scene& scene) {
  static constexpr std::array<double, 7> kSpots{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8};
  LabelGrid placed;
  for (SceneEdge& edge : scene.edges) {
    edge.labelBox = Rect{};
    if (edge.label.empty() || edge.points.size() < 2) continue;
    const double w = kCharWidth * static_cast<double>(edge.label.size()), h = kLabelHeight;
    auto box = [&](double t, bool right) {
      const Point at = pointAlongEdge(edge, t);
      return Rect{right ? at.x + kGapFromEdge : at.x - kGapFromEdge - w, at.y - h / 2, w, h};
    };
    Rect chosen = box(kSpots[0], true);
    bool found = false;
    for (size_t k = 0; k < kSpots.size() && !found; ++k)
      for (bool right : {true, false}) {
        const Rect r = box(kSpots[k], right);
        if (!placed.free(r) || !clearOfBoxes(scene, r)) continue;
        chosen = r;
        found = true;
        break;
      }
    edge.labelBox = chosen;
    placed.add(chosen);
  }
}

}  // namespace flowscope
