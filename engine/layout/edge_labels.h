// Where each edge's label goes: beside its edge, clear of the boxes and of the labels placed before it.
#pragma once

#include "layout/scene.h"

namespace flowscope {

/// The point a fraction `t` (clamped to 0..1) of the way along an edge as the canvas draws it: along its chain of
/// cubic Beziers (SceneEdge::bezierPoints), else along its polyline by length.
Point pointAlongEdge(const SceneEdge& edge, double t);

/// Sets `labelBox` for every labelled edge, in edge order: the first of several spots beside the edge (its middle
/// first, right then left, then further towards either end) that overlaps no node, collapsed group, group title or
/// earlier label. Where none is free the box stays empty and the label is not drawn: a label over others reads as
/// none of them (the inspector still shows every tensor's type). The text's size is estimated from its length, for
/// the canvas's 7 pt type. Needs the item index (Scene::indexItems); index the edges afterwards, so that their
/// bounds take in their labels.
void placeEdgeLabels(Scene& scene);

}  // namespace flowscope
