// Where each edge's label goes: beside its edge, clear of the boxes and of the labels placed before it.
#pragma once

#include "layout/scene.h"

namespace flowscope {

/// The point a fraction `t` (0..1) of the way along an edge as the canvas draws it: a chain of cubic Beziers when
/// it has 3k+1 points, else a polyline (by length).
Point pointAlongEdge(const SceneEdge& edge, double t);

/// Sets `labelBox` for every labelled edge, in edge order: the first of several spots beside the edge (its middle
/// first, right then left, then further towards either end) that overlaps no node, collapsed group or earlier
/// label; the middle when none is free. The text's size is estimated from its length, for the canvas's 7 pt type.
/// Needs the item index (Scene::buildIndex); rebuild it afterwards so edges' bounds take in their labels.
void placeEdgeLabels(Scene& scene);

}  // namespace flowscope
