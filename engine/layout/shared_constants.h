// Constants that feed several items of a group are drawn TensorBoard-style. PyTorch's exporter shares one initializer
// (a Clip bound, a reshape's shape, a repeated weight) among nodes all over a model, and drawn as a node its edges
// cross the whole group. Such a constant is laid out aside instead, in a column at the group's right, and each of its
// readers gets a short labelled stub in place of the long edge.
#pragma once

#include <vector>

#include "layout/geometry.h"

namespace flowscope {

/// Readers (distinct items of the group) from which a constant is set aside.
inline constexpr int kSharedConstantReaders = 2;

/// Which of a group's `children` to set aside: those `constantSource` marks (a constant with no inputs) whose edges
/// (`from`, `to` child indices, one per bundled route) reach at least kSharedConstantReaders other children.
std::vector<bool> sharedConstants(const std::vector<bool>& constantSource, const std::vector<int>& from,
                                  const std::vector<int>& to);

/// The stub of the `k`-th set-aside constant that a reader at `reader` takes: a short line into its left side (where
/// a top-to-bottom layout has the fewest edges), the later ones below it, its label to be placed to its left.
std::vector<Point> stubPoints(const Rect& reader, int k);

/// The room a group leaves at its left for stubs whose longest label has `longestLabel` characters (0: no stubs).
double stubMargin(size_t longestLabel);

}  // namespace flowscope
