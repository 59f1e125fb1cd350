// A layered layout without Graphviz, for groups too wide for dot (dot's time grows faster than linearly).
#pragma once

#include <vector>

#include "layout/layout_box.h"

namespace flowscope {

/// Lays boxes out top to bottom in O(E + N log N): longest-path layers (a cycle broken at its lowest-numbered box),
/// with each source, constant, and box fed only by constants that feeds one box (a weight's DequantizeLinear) moved
/// down to the row just above its first reader; rows ordered by their neighbours' mean positions; each box as near
/// the mean of its neighbours' centres as the row lets it be. Edges are straight lines. Returns the drawing's width
/// and height.
Point layeredLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges);

}  // namespace flowscope
