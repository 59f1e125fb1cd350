// RectIndex: a spatial index of rectangles for culling and hit tests at any zoom. Rectangles are bucketed by size
// (powers of two of their longer side), each size class in its own uniform grid whose cells are at least as large
// as its rectangles, so a query visits only the cells under the view, and a zoomed-out query that skips everything
// under a pixel never touches the small rectangles at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "layout/geometry.h"

namespace flowscope {

class RectIndex {
 public:
  /// Indexes rectangles 0 .. count-1, replacing what was indexed.
  void build(size_t count, const std::function<Rect(size_t)>& rectOf);
  /// Indices, ascending, of the rectangles that intersect `view` and whose longer side is at least `minExtent`.
  std::vector<int> query(const Rect& view, double minExtent = 0) const;
  /// Calls `visit(rect, index)` for the rectangles that intersect `view` and whose longer side is under
  /// `belowExtent` (what a far view draws as dots), in no particular order: all of them, or with a `resolution`,
  /// only one per grid cell where cells are no larger than that (the others' corners are within a cell of it).
  void visitSmall(const Rect& view, double belowExtent, double resolution,
                  const std::function<void(const Rect&, int)>& visit) const;
  size_t size() const { return m_count; }

 private:
  struct Entry {
    Rect rect;
    int index = 0;
  };
  struct SizeClass {
    double minExtent = 0;  ///< every rectangle in the class is longer than this (but class 0's)
    double maxExtent = 0;  ///< and none longer than this
    double cell = 0;       ///< grid cell side, at least maxExtent: a rectangle is filed under its top-left cell
    int columns = 1, rows = 1;
    std::vector<uint32_t> cellStart;  ///< entries of cell c: [cellStart[c], cellStart[c + 1])
    std::vector<Entry> entries;       ///< grouped by cell
  };
  void buildClass(SizeClass& sizeClass, const std::vector<Entry>& members) const;
  /// Calls `visitCell(begin, end)` with the entries of each non-empty cell that rectangles intersecting `view` can
  /// be filed under.
  template <typename VisitCell>
  void forCellsUnder(const SizeClass& sizeClass, const Rect& view, VisitCell&& visitCell) const;

  size_t m_count = 0;
  Rect m_bounds;  ///< union of the indexed rectangles
  std::vector<SizeClass> m_classes;
};

}  // namespace flowscope
