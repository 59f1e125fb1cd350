// FLOP and byte estimates for the profiler's roofline: matrix products and convolutions (2 per multiply-add, plus
// their fused epilogues), elementwise arithmetic and transcendentals, reductions, softmax, pooling and resizing;
// data movement computes nothing; ONNX nodes count alike (onnx_flops.h). Bytes are what a kernel read and wrote
// (outputs that alias an input moved none).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/node.h"

namespace flowscope {

/// FLOPs of `n` elements of an elementwise op by its TensorFlow name (ONNX shares most of them): ten per element for
/// transcendentals, one for arithmetic and comparisons, none for anything else.
int64_t elementwiseFlops(std::string_view op, int64_t n);
int64_t estimateFlops(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs);
/// The shapes of a node's inputs, null where one is absent (an optional ONNX input).
using InputShapes = std::vector<const Shape*>;
/// The same from shapes alone (a backend that knows them when it compiles, and times the node on its device).
int64_t estimateFlops(const Node& node, const InputShapes& inputs, const Shape& out);
int64_t tensorBytes(const std::vector<Tensor>& tensors);
/// Bytes a node read and wrote: its inputs and outputs, except outputs that are an input's buffer (and that input),
/// and nothing for nodes that hand a value on as it is (Const, Placeholder).
void bytesMoved(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs, int64_t* in,
                int64_t* out);

}  // namespace flowscope
