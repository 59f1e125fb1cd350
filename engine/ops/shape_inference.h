// Shape inference over a graph: output dtypes from the op schemas and shapes from per-op shape functions,
// using constant inputs (Const nodes, and Shape of fully known tensors) where an op needs them.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct TensorInfo {
  DType dtype = DType::kInvalid;
  Shape shape = Shape::unknownRank();
};

/// outputs[node index][output index]. Unknown ops get no entries; unknown shapes have unknown rank.
struct GraphShapes {
  std::vector<std::vector<TensorInfo>> outputs;
  const TensorInfo* find(size_t node, int output) const {
    if (node >= outputs.size() || output < 0 || static_cast<size_t>(output) >= outputs[node].size()) return nullptr;
    return &outputs[node][static_cast<size_t>(output)];
  }
};

/// Infers every node's outputs in dependency order (TF1 loop back edges are treated as unknown).
/// Falls back to a node's `_output_shapes` attr where inference knows less.
GraphShapes inferShapes(const Graph& graph);

/// NumPy broadcasting of two shapes; false when they are incompatible.
bool broadcastShapes(const Shape& a, const Shape& b, Shape* out);

}  // namespace flowscope
