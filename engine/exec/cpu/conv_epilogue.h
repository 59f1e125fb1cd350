// What our own convolution kernels (winograd_nhwc.h, small_image_conv.h) apply as they write their sums.
#pragma once

namespace flowscope {

/// out = clamp(conv + bias + addend). Null pointers add nothing; the clamp is [lo, hi] when `clamp` (a NaN becomes
/// lo, as the C++ epilogue's ReLU makes it 0).
struct ConvEpilogue {
  const float* bias = nullptr;    ///< [K]
  const float* addend = nullptr;  ///< NHWC, the output's shape
  bool clamp = false;
  float lo = 0, hi = 0;
};

}  // namespace flowscope
