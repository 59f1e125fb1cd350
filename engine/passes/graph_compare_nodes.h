// The node-by-node half of compareGraphs: what differs between two matched nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "passes/graph_compare.h"

namespace flowscope {

/// One NodeChange per matched pair that differs (names, op, inputs through the matching, attributes, shapes, Const
/// values), in `after`'s order. afterToBefore[i] is the match of after's node i in before, or -1.
std::vector<NodeChange> compareMatchedNodes(const Graph& before, const Graph& after,
                                            const std::vector<int64_t>& afterToBefore);

}  // namespace flowscope
