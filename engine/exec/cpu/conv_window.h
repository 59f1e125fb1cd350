// The window of a TensorFlow NHWC convolution or pooling node over an input: kernel, strides, dilations, the pads
// SAME / VALID / EXPLICIT give, and the output size.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "ir/node.h"
#include "ir/shape.h"

namespace flowscope {

struct Window {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t oh = 0, ow = 0;
};

/// The window of `node` (strides, dilations, padding, explicit_paddings attrs) with a kh x kw kernel over the NHWC
/// input `x`; an error naming the node when it is not NHWC or the window does not fit.
Expected<Window> windowFor(const Node& node, const Shape& x, int64_t kh, int64_t kw);

/// A window Winograd's 3x3 variants take: 3x3, stride and dilation 1.
inline bool winograd3x3(const Window& w) {
  return w.kh == 3 && w.kw == 3 && w.sh == 1 && w.sw == 1 && w.dh == 1 && w.dw == 1;
}

/// Whether a convolution marked `_winograd` runs as oneDNN's Winograd one: 3x3, stride and dilation 1, at least
/// 14x14 outputs. Winograd's transformed weights are larger than the direct ones (16/9 and more); below that size,
/// reading them costs more than the arithmetic saved (ResNet-18's 7x7 layers, whose weights come from memory, run as
/// fast direct). Our own (winograd_nhwc.h) takes smaller outputs too, as F(2x2, 3x3).
inline bool winogradWindow(const Window& w) { return winograd3x3(w) && w.oh * w.ow >= 14 * 14; }

}  // namespace flowscope
