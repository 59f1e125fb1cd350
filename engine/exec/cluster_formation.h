// Grouping the nodes a device runs into clusters that can each run as one unit: a node joins the cluster of the nodes
// it reads, or merges several of them, whenever that keeps the graph of clusters and host nodes acyclic.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// The cluster of every node with `onDevice[i]` set (-1 for the others), clusters numbered 0, 1, ... in the order of
/// their first member in `order` (a topological order of `graph`). A cluster runs as one node once all of its inputs
/// are ready, so no path may leave a cluster and come back to it, through host nodes, other clusters or control edges.
std::vector<int> formAcyclicClusters(const Graph& graph, const std::vector<size_t>& order,
                                     const std::vector<char>& onDevice);

}  // namespace flowscope
