// Scene culling and hit tests.
#include "layout/scene.h"

#include <algorithm>

namespace flowscope {

void Scene::buildIndex() {
  indexItems();
  indexEdges();
}

void Scene::indexItems() {
  m_itemIndex.build(items.size(), [this](size_t i) { return items[i].rect; });
}

void Scene::indexEdges() {
  for (auto& e : edges) {
    if (e.points.empty()) continue;
    double x0 = e.points[0].x, x1 = x0, y0 = e.points[0].y, y1 = y0;
    for (const Point& p : e.points) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    if (e.labelBox.w > 0) {
      x0 = std::min(x0, e.labelBox.x), x1 = std::max(x1, e.labelBox.x + e.labelBox.w);
      y0 = std::min(y0, e.labelBox.y), y1 = std::max(y1, e.labelBox.y + e.labelBox.h);
    }
    e.box = Rect{x0, y0, x1 - x0, y1 - y0};
  }
  m_edgeIndex.build(edges.size(), [this](size_t i) { return edges[i].box; });
}

std::vector<int> Scene::itemsIn(const Rect& view, double minExtent) const { return m_itemIndex.query(view, minExtent); }

std::vector<int> Scene::edgesIn(const Rect& view, double minExtent) const { return m_edgeIndex.query(view, minExtent); }

int Scene::itemAt(double x, double y) const {
  int best = -1;
  for (int i : itemsIn(Rect{x - 0.5, y - 0.5, 1, 1}))
    if (items[static_cast<size_t>(i)].rect.contains(x, y)) best = std::max(best, i);  // later items are drawn on top
  return best;
}

}  // namespace flowscope
