// FLOP estimates for ONNX nodes as the graph was written (a model profiled with --no-optimize, or the side-by-side
// view of an imported profile): the same counting as flops.cpp's for TensorFlow's ops.
#pragma once

#include <cstdint>
#include <vector>

#include "profile/flops.h"

namespace flowscope {

/// FLOPs of an `onnx::` node that produced `out` from `inputs`: 2 per multiply-add for Conv, Gemm and MatMul (plus
/// one per output for a bias), one per element for arithmetic, ten for transcendentals, the input's elements for
/// reductions; 0 for data movement.
int64_t estimateOnnxFlops(const Node& node, const InputShapes& inputs, const Shape& out);

}  // namespace flowscope
