// The window arithmetic of ONNX convolutions, transposed convolutions and pooling: kernel, strides, dilations and pads
// per spatial axis from the node's attributes (auto_pad included), and the output sizes they give.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "ir/node.h"
#include "ir/shape.h"

namespace flowscope {

struct OnnxWindow {
  std::vector<int64_t> kernel, strides, dilations, padBegin, padEnd, out;
};

/// The window over input `x` (N, C, spatial...) with `kernel` (from the weights or kernel_shape). `ceilMode` rounds
/// output sizes up (pooling's ceil_mode), extending the end pads.
Expected<OnnxWindow> onnxWindow(const Node& node, const Shape& x, std::vector<int64_t> kernel, bool ceilMode = false);

/// ConvTranspose's window over input `x`: `out` is each spatial output size, stride * (in - 1) + output_padding +
/// the dilated kernel - the pads, where the pads come from output_shape or auto_pad when either is given (ONNX's
/// rule: SAME_UPPER puts the odd unit of padding at the end, the others at the beginning).
Expected<OnnxWindow> onnxTransposedWindow(const Node& node, const Shape& x, std::vector<int64_t> kernel);

}  // namespace flowscope
