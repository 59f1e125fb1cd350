// Structural hash of graphs: equal graphs (node order aside) hash equal; any change to ops, edges, attrs,
// tensors, devices, versions or functions changes the hash.
#pragma once

#include <cstdint>

#include "ir/graph.h"

namespace flowscope {

uint64_t hashNode(const Node& node);
uint64_t hashFunction(const FunctionDef& function);
/// Independent of node order (TensorFlow does not give node order a meaning).
uint64_t hashGraph(const Graph& graph);

}  // namespace flowscope
