// Edge label placement: candidate spots along each edge, a grid of the labels placed so far.
#include "layout/edge_labels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace flowscope {
namespace {

constexpr double kCharWidth = 4.6, kLabelHeight = 10, kGapFromEdge = 4, kCell = 64;
/// Where along an edge a label may go, the first free one taken: the middle, then further towards either end.
constexpr std::array<double, 7> kSpots{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8};

Point cubic(const Point& a, const Point& b, const Point& c, const Point& d, double u) {
  const double v = 1 - u, w0 = v * v * v, w1 = 3 * v * v * u, w2 = 3 * v * u * u, w3 = u * u * u;
  return Point{w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y};
}

/// Points along an edge as drawn: its Bezier chain (a Graphviz arrow tip after it left out), or its polyline by
/// length, measured once.
class EdgeWalk {
 public:
  explicit EdgeWalk(const SceneEdge& edge) : m_points(edge.points), m_bezier(edge.bezierPoints()) {
    if (m_bezier) return;
    m_length.assign(m_points.size(), 0);
    for (size_t i = 1; i < m_points.size(); ++i)
      m_length[i] = m_length[i - 1] + std::hypot(m_points[i].x - m_points[i - 1].x, m_points[i].y - m_points[i - 1].y);
  }

  Point at(double t) const {
    if (m_points.size() < 2) return m_points.empty() ? Point{} : m_points.front();
    t = std::clamp(t, 0.0, 1.0);
    if (m_bezier) {
      const size_t pieces = (m_bezier - 1) / 3;
      const double along = t * static_cast<double>(pieces);
      const size_t k = 3 * std::min(pieces - 1, static_cast<size_t>(along));
      return cubic(m_points[k], m_points[k + 1], m_points[k + 2], m_points[k + 3], along - static_cast<double>(k / 3));
    }
    const double target = t * m_length.back();
    const size_t i =
        static_cast<size_t>(std::lower_bound(m_length.begin() + 1, m_length.end() - 1, target) - m_length.begin());
    const double span = m_length[i] - m_length[i - 1], u = span > 0 ? (target - m_length[i - 1]) / span : 0;
    const Point& a = m_points[i - 1];
    const Point& b = m_points[i];
    return Point{a.x + u * (b.x - a.x), a.y + u * (b.y - a.y)};
  }

 private:
  const std::vector<Point>& m_points;
  size_t m_bezier;
  std::vector<double> m_length;
};

/// Labels placed so far, by the grid cells their boxes touch.
class LabelGrid {
 public:
  bool isFree(const Rect& r) const {
    bool free = true;
    visitCells(r, [&](int64_t cell) {
      if (!free) return;
      if (auto it = m_cells.find(cell); it != m_cells.end())
        free = std::none_of(it->second.begin(), it->second.end(),
                            [&](uint32_t label) { return m_labels[label].intersects(r); });
    });
    return free;
  }
  void add(const Rect& r) {
    const auto label = static_cast<uint32_t>(m_labels.size());
    m_labels.push_back(r);
    visitCells(r, [&](int64_t cell) { m_cells[cell].push_back(label); });
  }

 private:
  template <typename Visit>
  static void visitCells(const Rect& r, Visit&& visit) {
    auto cell = [](double v) { return static_cast<int64_t>(std::floor(v / kCell)); };
    for (int64_t cy = cell(r.y); cy <= cell(r.y + r.h); ++cy)
      for (int64_t cx = cell(r.x); cx <= cell(r.x + r.w); ++cx) visit(cy * (int64_t{1} << 32) + cx);
  }
  std::vector<Rect> m_labels;
  std::unordered_map<int64_t, std::vector<uint32_t>> m_cells;
};

/// No node or collapsed group under `r`, nor an expanded group's title (a frame's contents are below it).
bool clearOfBoxes(const Scene& scene, const Rect& r) {
  for (int i : scene.itemsIn(r)) {
    const SceneItem& item = scene.items[static_cast<size_t>(i)];
    const bool frame = item.kind == SceneItem::Kind::kGroup && item.expanded;
    if (!frame || r.intersects(Rect{item.rect.x, item.rect.y, item.rect.w, kGroupTitleHeight})) return false;
  }
  return true;
}

/// The first spot beside the edge clear of boxes and placed labels, or an empty box.
Rect freeSpot(const Scene& scene, const SceneEdge& edge, const LabelGrid& placed) {
  const double w = kCharWidth * static_cast<double>(edge.label.size()), h = kLabelHeight;
  const EdgeWalk walk(edge);
  for (double t : kSpots) {
    const Point at = walk.at(t);
    for (const double x : {at.x + kGapFromEdge, at.x - kGapFromEdge - w}) {
      const Rect r{x, at.y - h / 2, w, h};
      if (placed.isFree(r) && clearOfBoxes(scene, r)) return r;
    }
  }
  return Rect{};
}

}  // namespace

Point pointAlongEdge(const SceneEdge& edge, double t) { return EdgeWalk(edge).at(t); }

void placeEdgeLabels(Scene& scene) {
  LabelGrid placed;
  for (SceneEdge& edge : scene.edges) {
    edge.labelBox = Rect{};
    if (edge.label.empty() || edge.points.size() < 2) continue;
    edge.labelBox = freeSpot(scene, edge, placed);
    if (edge.labelBox.w > 0) placed.add(edge.labelBox);
  }
}

}  // namespace flowscope
