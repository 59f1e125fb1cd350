// Shape inference over a graph: output dtypes from the op schemas and shapes from per-op shape functions,
// using constant inputs (Const nodes, and Shape of fully known tensors) where an op needs them.
#pragma once

#include <map>
#include <string>
#include <utility>
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
  /// Values inference computed, by (node, output): Shape of a fully known shape, and the slices and packs of such
  /// values that build shapes. Const nodes' own values are not repeated here.
  std::map<std::pair<size_t, int>, Tensor> computed;
  const TensorInfo* find(size_t node, int output) const {
    if (node >= outputs.size() || output < 0 || static_cast<size_t>(output) >= outputs[node].size()) return nullptr;
    return &outputs[node][static_cast<size_t>(output)];
  }
  const Tensor* computedValue(size_t node, int output) const {
    auto it = computed.find({node, output});
    return it == computed.end() ? nullptr : &it->second;
  }
};

/// Infers every node's outputs in dependency order (TF1 loop back edges are treated as unknown).
/// Falls back to a node's `_output_shapes` attr where inference knows less. `fedShapes`, when given, are the shapes
/// of the tensors a run feeds, by node name: those nodes' output 0 has them, whatever the graph declares.
/// The output shapes of a node a backend's placement adds in place of others (a fused node): shape inference, which has
/// no schema for its op, reads them, so that the placement's later steps still see the shapes after it.
inline constexpr const char* kPlacedOutputShapesAttr = "_placed_output_shapes";

GraphShapes inferShapes(const Graph& graph, const std::map<std::string, Shape>* fedShapes = nullptr);

/// NumPy broadcasting of two shapes; false when they are incompatible.
bool broadcastShapes(const Shape& a, const Shape& b, Shape* out);

}  // namespace flowscope
