// A direct 3x3 convolution for small images with many channels, channels-last float32, in AVX-512: ResNet's last
// stage (7x7 outputs, 256 or 512 channels in, 512 out), where the weights (4.5 to 9 MiB) are larger than the L2
// cache and every run reads them from L3 or memory. oneDNN 2.6's direct kernel reached about 69% of the FMA peak
// there (512 to 512 channels, 1 thread, 1.98 ms a layer); this one reaches 88% (1.57 ms):
//   - the weights are packed once into blocks of 64 output channels, tap by tap: [K / 64][9][C][64];
//   - an output row of 7 pixels times 64 channels is 28 vector sums in registers; each input channel step loads 4
//     weight vectors and feeds them to the 7 pixels, whose inputs are broadcast from memory;
//   - a block's taps go one after another over every output row, so one tap's weights (C x 64) are read from memory
//     once and from the L2 cache for the other rows, while the next tap's are prefetched a row's share at a time;
//   - threads take blocks, and where the blocks are fewer than the threads, a block's rows are split between them.
// Bias, a residual addend and ReLU / ReLU6 are applied as the sums are written.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/cpu/conv_epilogue.h"

namespace flowscope {

struct SmallImageConvShape {
  int64_t n = 0, h = 0, w = 0, c = 0;  ///< input, NHWC
  int64_t k = 0;                       ///< output channels
  int64_t stride = 1;                  ///< both ways; the window is 3x3 with dilation 1
  int64_t padTop = 0, padLeft = 0;
  int64_t oh = 0, ow = 0;
  bool operator==(const SmallImageConvShape&) const = default;
};

/// True when SmallImageConv runs `shape` here and is expected to be faster than oneDNN's direct kernel: AVX-512,
/// stride 1 or 2, outputs 7 wide whose windows leave the image by at most one pixel on the left and right, output
/// channels in multiples of 64, and weights of at least 2 MiB (smaller ones stay in the L2 cache, where oneDNN's
/// kernel is as fast).
bool smallImageConvRuns(const SmallImageConvShape& shape);

/// One convolution's packed weights.
class SmallImageConv {
 public:
  /// Ready for `shape` with the HWIO filter `filter` [3, 3, C, K]: packed again only when the shape or the filter's
  /// address changed since the last call (the caller keeps the filter alive).
  void prepare(const SmallImageConvShape& shape, const float* filter);
  /// out (NHWC [N, OH, OW, K]) = the convolution of `in` (NHWC) with the prepared filter, then `epilogue`.
  void run(const float* in, const ConvEpilogue& epilogue, float* out) const;

 private:
  SmallImageConvShape m_shape;
  const float* m_filter = nullptr;
  std::vector<float> m_packed;
};

}  // namespace flowscope
