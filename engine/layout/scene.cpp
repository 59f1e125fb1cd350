// Scene culling and hit tests.
#include "layout/scene.h"

#include <algorithm>
#include <cmath>

namespace flowscope {

void Scene::buildGrid() {
  for (auto& e : edges) {
    if (e.points.empty()) continue;
    double x0 = e.points[0].x, x1 = x0, y0 = e.points[0].y, y1 = y0;
    for (const Point& p : e.points) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    e.box = Rect{x0, y0, x1 - x0, y1 - y0};
  }
  m_cell = std::max(200.0, std::sqrt(std::max(1.0, bounds.w * bounds.h / std::max<size_t>(1, items.size()))) * 4);
  m_columns = std::max(1, static_cast<int>(std::ceil(bounds.w / m_cell)) + 1);
  m_rows = std::max(1, static_cast<int>(std::ceil(bounds.h / m_cell)) + 1);
  m_grid.assign(static_cast<size_t>(m_columns) * static_cast<size_t>(m_rows), {});
  for (size_t i = 0; i < items.size(); ++i) {
    const Rect& r = items[i].rect;
    int c0 = std::clamp(static_cast<int>((r.x - bounds.x) / m_cell), 0, m_columns - 1);
    int c1 = std::clamp(static_cast<int>((r.x + r.w - bounds.x) / m_cell), 0, m_columns - 1);
    int r0 = std::clamp(static_cast<int>((r.y - bounds.y) / m_cell), 0, m_rows - 1);
    int r1 = std::clamp(static_cast<int>((r.y + r.h - bounds.y) / m_cell), 0, m_rows - 1);
    for (int row = r0; row <= r1; ++row)
      for (int col = c0; col <= c1; ++col)
        m_grid[static_cast<size_t>(row * m_columns + col)].push_back(static_cast<int>(i));
  }
}

std::vector<int> Scene::itemsIn(const Rect& view) const {
  std::vector<int> found;
  if (m_grid.empty()) return found;
  int c0 = std::clamp(static_cast<int>((view.x - bounds.x) / m_cell), 0, m_columns - 1);
  int c1 = std::clamp(static_cast<int>((view.x + view.w - bounds.x) / m_cell), 0, m_columns - 1);
  int r0 = std::clamp(static_cast<int>((view.y - bounds.y) / m_cell), 0, m_rows - 1);
  int r1 = std::clamp(static_cast<int>((view.y + view.h - bounds.y) / m_cell), 0, m_rows - 1);
  for (int row = r0; row <= r1; ++row)
    for (int col = c0; col <= c1; ++col)
      for (int i : m_grid[static_cast<size_t>(row * m_columns + col)])
        if (items[static_cast<size_t>(i)].rect.intersects(view)) found.push_back(i);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

int Scene::itemAt(double x, double y) const {
  int best = -1;
  for (int i : itemsIn(Rect{x - 0.5, y - 0.5, 1, 1}))
    if (items[static_cast<size_t>(i)].rect.contains(x, y)) best = std::max(best, i);  // later items are drawn on top
  return best;
}

}  // namespace flowscope
