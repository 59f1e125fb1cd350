// A convolution over few input channels (an image's 1-4) that reads its input as the model holds it, NCHW, and
// writes NHWC: the first convolution of an ONNX vision model, without the transpose to channels-last before it.
// MobileNetV2's 3x3 stride-2 stem (3 -> 32 channels) sums twelve output pixels at a time in registers, each input
// value broadcast once from its plane and fed to every tap that reads it; the transpose it saves moved the whole
// 224x224 image through memory twice.
#pragma once

#include <cstdint>

#include "exec/cpu/depthwise_nhwc.h"

namespace flowscope {

/// The largest window taken: on 7x7 ones (ResNet's stem) oneDNN's convolution after a transpose was as fast or faster.
inline constexpr int64_t kMaxWindow = 5;

struct NchwInputConvShape {
  int64_t n = 0, c = 0, h = 0, w = 0;  ///< input, NCHW
  int64_t kh = 0, kw = 0;              ///< window
  int64_t sh = 1, sw = 1;              ///< strides (no dilation)
  int64_t padTop = 0, padLeft = 0;     ///< the bottom and right pads follow from oh and ow
  int64_t oh = 0, ow = 0, oc = 0;      ///< output, NHWC
};

/// True when nchwInputConv runs this shape on this machine: AVX-512, 1-4 input channels, 16, 32, 48 or 64 output
/// channels, a window of at most kMaxWindow, no negative top or left pad.
bool nchwInputConvRuns(const NchwInputConvShape& shape);

/// out[n, oy, ox, o] = clamp(bias[o] + sum over the window and channels of in[n, c, y, x] * filter[ky, kx, c, o]),
/// filter HWIO, bias null for none, windows past the edges reading zeros. Rows are shared among the intra-op threads.
void nchwInputConv(const NchwInputConvShape& shape, const float* in, const float* filter, const float* bias,
                   DepthwiseClamp clamp, float* out);

/// Output rows [rowBegin, rowEnd) of nchwInputConv (rows counted over the batch, n * oh) on the calling thread, into
/// `out`, which holds the first of them: for a kernel that reads the rows while they are in cache.
void nchwInputConvRows(const NchwInputConvShape& shape, const float* in, const float* filter, const float* bias,
                       DepthwiseClamp clamp, int64_t rowBegin, int64_t rowEnd, float* out);

}  // namespace flowscope
