// Structural hash of graphs: equal graphs (node order aside) hash equal; any change to ops, edges, attrs,
// tensors, devices, versions or functions changes the hash.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "ir/graph.h"

namespace flowscope {

uint64_t hashNode(const Node& node);
uint64_t hashFunction(const FunctionDef& function);
uint64_t hashAttrs(const AttrMap& attrs);

/// Node hashes by node object. Nodes are immutable while shared, so a pass manager hashing successive
/// snapshots rehashes only the nodes a pass replaced. Holds only the nodes of the last graph hashed.
using NodeHashCache = std::unordered_map<const Node*, uint64_t>;

/// Independent of node order (TensorFlow does not give node order a meaning). With a cache, the caller keeps the
/// previously hashed graph alive until this call returns.
uint64_t hashGraph(const Graph& graph, NodeHashCache* cache = nullptr);

}  // namespace flowscope
