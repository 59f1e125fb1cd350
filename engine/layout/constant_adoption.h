// Unscoped constants join the scope of the nodes that read them.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// A constant with no scope of its own (an ONNX initializer such as "onnx::Conv_214", or an exporter's Identity of
/// one) moves into the deepest scope holding every node that reads it, as TensorFlow's "conv1/kernel" sits in conv1:
/// a PyTorch model's top level then shows its layers, not a hundred weights with edges into them. `groupOf` holds each
/// node's group (0 is the root) and is changed in place; `parents` holds each group's parent (-1 for the root; a
/// parent comes before its children).
void adoptUnscopedConstants(const Graph& graph, std::vector<int>& groupOf, const std::vector<int>& parents);

}  // namespace flowscope
