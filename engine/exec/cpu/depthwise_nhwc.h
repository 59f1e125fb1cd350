// Depthwise 3x3 and 5x5 convolution on channels-last float32 with its bias and ReLU / ReLU6 fused: MobileNet's and
// EfficientNet's depthwise layers. oneDNN 2.6's NHWC depthwise kernel (brdgmm) ran MobileNetV2's 112x112 stride-2
// layer at a sixth of the FMA peak; this one sums eight pixels at a time in registers (up to fourteen on 3x3 rows of 7
// and multiples of 14 padded as PyTorch, or at stride 2 TensorFlow's SAME, pads them), streaming their channels.
// An AVX2 form of it (8 lanes, tried on AMD Zen 3) lost to oneDNN's AVX2 kernel, which reorders to 8-channel blocks:
// inside MobileNetV2 it took 1.4-1.7x oneDNN's time on the 56x56 and 112x112 layers and 1.5-2.0x on the 14x14 and
// 7x7 ones, whose border pixels weigh more (best of 40 runs per layer), so AVX2 machines keep oneDNN's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "exec/cpu/conv_window.h"

namespace flowscope {

struct DepthwiseShape {
  int64_t n = 0, h = 0, w = 0, c = 0;  ///< input, NHWC
  int64_t k = 0;                       ///< square kernel size
  int64_t sh = 1, sw = 1;              ///< strides (no dilation)
  int64_t padTop = 0, padLeft = 0;     ///< the bottom and right pads follow from oh and ow
  int64_t oh = 0, ow = 0;              ///< output height and width
};

enum class DepthwiseClamp { kNone, kRelu, kRelu6 };

/// The kernel's shape for an NHWC input under a square window (the window's kh, strides, top and left pads).
DepthwiseShape depthwiseShapeOf(const Shape& nhwc, const Window& window);

/// The clamp that fuses `activation` ("", "Relu" or "Relu6"); none for an activation the kernel does not fuse.
std::optional<DepthwiseClamp> depthwiseClampFor(const std::string& activation);

/// True when depthwiseNhwc runs this shape: kernel 3 or 5, channel multiplier 1.
bool depthwiseNhwcRuns(const DepthwiseShape& shape);

/// out[n, oy, ox, c] = clamp(bias[c] + sum over the window of in * filter), filter [k, k, c] (HWIO with O = 1),
/// bias null for none. Rows are shared among the intra-op threads.
void depthwiseNhwc(const DepthwiseShape& shape, const float* in, const float* filter, const float* bias,
                   DepthwiseClamp clamp, float* out);

/// Output rows [rowBegin, rowEnd) of depthwiseNhwc (rows counted over the batch, n * oh) on the calling thread, into
/// `out`, which holds the first of them: for a kernel that reads the rows while they are in cache. `in` holds the
/// input rows from `inFirstRow` on (counted over the batch, n * h), at least those the output rows' windows read.
void depthwiseNhwcRows(const DepthwiseShape& shape, const float* in, const float* filter, const float* bias,
                       DepthwiseClamp clamp, int64_t rowBegin, int64_t rowEnd, float* out, int64_t inFirstRow = 0);

}  // namespace flowscope
