// The size-classed spatial index.
#include "layout/rect_index.h"

#include <algorithm>
#include <cmath>

namespace flowscope {
namespace {

constexpr int kClasses = 64;

// Size class k holds rectangles whose longer side is in (2^(k-1), 2^k]; class 0 everything up to 1 unit.
int sizeClassOf(const Rect& r) {
  const double extent = r.extent();
  if (!(extent > 1)) return 0;
  if (!std::isfinite(extent)) return kClasses - 1;
  return std::min(kClasses - 1, static_cast<int>(std::ceil(std::log2(extent))));
}

Rect unionOf(const std::vector<Rect>& rects) {
  double x0 = rects[0].x, y0 = rects[0].y, x1 = x0 + rects[0].w, y1 = y0 + rects[0].h;
  for (const Rect& r : rects) {
    x0 = std::min(x0, r.x), y0 = std::min(y0, r.y);
    x1 = std::max(x1, r.x + r.w), y1 = std::max(y1, r.y + r.h);
  }
  return Rect{x0, y0, x1 - x0, y1 - y0};
}

}  // namespace

void RectIndex::build(size_t count, const std::function<Rect(size_t)>& rectOf) {
  m_count = count;
  m_classes.clear();
  if (count == 0) return;
  std::vector<Rect> rects(count);
  for (size_t i = 0; i < count; ++i) rects[i] = rectOf(i);
  m_bounds = unionOf(rects);
  std::vector<std::vector<Entry>> members(kClasses);
  for (size_t i = 0; i < count; ++i)
    members[static_cast<size_t>(sizeClassOf(rects[i]))].push_back({rects[i], static_cast<int>(i)});
  for (int k = 0; k < kClasses; ++k) {
    if (members[static_cast<size_t>(k)].empty()) continue;
    SizeClass& sizeClass = m_classes.emplace_back();
    sizeClass.minExtent = k == 0 ? 0 : std::ldexp(1.0, k - 1);
    sizeClass.maxExtent = k == kClasses - 1 ? HUGE_VAL : std::ldexp(1.0, k);
    buildClass(sizeClass, members[static_cast<size_t>(k)]);
  }
}

void RectIndex::buildClass(SizeClass& sizeClass, const std::vector<Entry>& members) const {
  const double n = static_cast<double>(members.size());
  const double w = std::max(1.0, m_bounds.w), h = std::max(1.0, m_bounds.h);
  // About four rectangles per cell, never a cell smaller than the rectangles, never more cells than 4n.
  double cell = std::max({std::min(sizeClass.maxExtent, std::max(w, h)), std::sqrt(w * h / n) * 2, 1.0});
  while ((std::ceil(w / cell) + 1) * (std::ceil(h / cell) + 1) > 4 * n + 64) cell *= 2;
  sizeClass.cell = cell;
  sizeClass.columns = static_cast<int>(std::ceil(w / cell)) + 1;
  sizeClass.rows = static_cast<int>(std::ceil(h / cell)) + 1;
  const auto cellOf = [&](const Rect& r) {
    const double column = std::clamp(std::floor((r.x - m_bounds.x) / cell), 0.0, sizeClass.columns - 1.0);
    const double row = std::clamp(std::floor((r.y - m_bounds.y) / cell), 0.0, sizeClass.rows - 1.0);
    return static_cast<size_t>(row) * static_cast<size_t>(sizeClass.columns) + static_cast<size_t>(column);
  };
  sizeClass.cellStart.assign(static_cast<size_t>(sizeClass.columns) * static_cast<size_t>(sizeClass.rows) + 1, 0);
  for (const Entry& e : members) ++sizeClass.cellStart[cellOf(e.rect) + 1];
  for (size_t c = 1; c < sizeClass.cellStart.size(); ++c) sizeClass.cellStart[c] += sizeClass.cellStart[c - 1];
  std::vector<uint32_t> next(sizeClass.cellStart.begin(), sizeClass.cellStart.end() - 1);
  sizeClass.entries.resize(members.size());
  for (const Entry& e : members) sizeClass.entries[next[cellOf(e.rect)]++] = e;
}

template <typename VisitCell>
void RectIndex::forCellsUnder(const SizeClass& sizeClass, const Rect& view, VisitCell&& visitCell) const {
  const auto index = [&](double offset, int count) {
    return static_cast<int>(std::clamp(std::floor(offset / sizeClass.cell), 0.0, count - 1.0));
  };
  // A rectangle is filed under the cell of its top-left corner and is at most one cell long, so the cells one
  // to the left of and above the view hold the only rectangles from outside it that can reach in.
  const int c0 = index(view.x - m_bounds.x - sizeClass.cell, sizeClass.columns);
  const int c1 = index(view.x + view.w - m_bounds.x, sizeClass.columns);
  const int r0 = index(view.y - m_bounds.y - sizeClass.cell, sizeClass.rows);
  const int r1 = index(view.y + view.h - m_bounds.y, sizeClass.rows);
  const Entry* entries = sizeClass.entries.data();
  for (int row = r0; row <= r1; ++row) {
    const uint32_t* start = &sizeClass.cellStart[static_cast<size_t>(row) * static_cast<size_t>(sizeClass.columns)];
    for (int column = c0; column <= c1; ++column)
      if (start[column] != start[column + 1]) visitCell(entries + start[column], entries + start[column + 1]);
  }
}

std::vector<int> RectIndex::query(const Rect& view, double minExtent) const {
  std::vector<int> found;
  for (const SizeClass& sizeClass : m_classes) {
    if (sizeClass.maxExtent < minExtent) continue;
    forCellsUnder(sizeClass, view, [&](const Entry* begin, const Entry* end) {
      for (const Entry* e = begin; e != end; ++e)
        if (e->rect.extent() >= minExtent && e->rect.intersects(view)) found.push_back(e->index);
    });
  }
  std::sort(found.begin(), found.end());
  return found;
}

void RectIndex::visitSmall(const Rect& view, double belowExtent, double resolution,
                           const std::function<void(const Rect&, int)>& visit) const {
  for (const SizeClass& sizeClass : m_classes) {
    if (sizeClass.minExtent >= belowExtent) break;  // the classes ascend
    const bool onePerCell = sizeClass.cell <= resolution;
    forCellsUnder(sizeClass, view, [&](const Entry* begin, const Entry* end) {
      for (const Entry* e = begin; e != end; ++e) {
        if (e->rect.extent() >= belowExtent || !e->rect.intersects(view)) continue;
        visit(e->rect, e->index);
        if (onePerCell) return;
      }
    });
  }
}

}  // namespace flowscope
