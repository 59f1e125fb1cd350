// A 1x1 convolution over few pixels with many weights, channels-last float32, in AVX-512: MobileNetV2's 7x7 blocks
// (49 pixels; 160 to 960 channels and back, 960 to 320, 320 to 1280). Each run reads those weights (0.4 to 1.6 MiB a
// layer, 6 MiB over the blocks) from memory: the model's other weights and activations have pushed them out of the
// caches since the run before. oneDNN 2.6's 1x1 kernel (brgconv_1x1) runs there at 75-85% of the FMA peak in the
// model against 95-100% on warm weights, because each block of weights waits on memory the first time it is read.
// This kernel packs the weights once in panels of up to 64 output channels, [C][64], and
//   - sums 7 pixels times a panel's 64 channels in 28 vector registers, loading 4 weight vectors per input channel
//     and broadcasting the pixels' inputs from memory, the bias as the sums' start;
//   - goes panel by panel over all the pixels, so that a panel is read from memory once and from L2 for the other
//     pixel tiles, while the next panel is prefetched into L2, a tile's share at a time;
//   - gives each thread a contiguous range of output channels, packed for it, so each thread streams its own weights.
// A residual addend and ReLU / ReLU6 are applied as the sums are written.
#pragma once

#include <cstdint>
#include <vector>

#include "base/huge_pages.h"
#include "exec/cpu/conv_epilogue.h"

namespace flowscope {

struct StreamedPointwiseShape {
  int64_t pixels = 0;  ///< batch * height * width: rows of `c` channels, one after another
  int64_t c = 0;       ///< input channels
  int64_t k = 0;       ///< output channels
  bool operator==(const StreamedPointwiseShape&) const = default;
};

/// True when StreamedPointwise runs `shape` here and is expected to beat oneDNN: AVX-512, output channels in multiples
/// of 16, at most 64 pixels, and weights of at least 256 KiB (smaller ones stay in the caches from run to run).
bool streamedPointwiseRuns(const StreamedPointwiseShape& shape);

/// One convolution's packed weights.
class StreamedPointwise {
 public:
  /// Ready for `shape` with the filter `filter` [C, K] (HWIO with H = W = 1) on `threads` threads: packed again only
  /// when one of them or the filter's address changed since the last call (the caller keeps the filter alive).
  void prepare(const StreamedPointwiseShape& shape, const float* filter, int threads);
  /// out [pixels, K] = in [pixels, C] times the prepared filter, then `epilogue` (which may add `out` itself).
  void run(const float* in, const ConvEpilogue& epilogue, float* out) const;

 private:
  /// Output channels [first, first + width) packed at `offset` floats as [C][width].
  struct Panel {
    int64_t first = 0, width = 0, offset = 0;
  };

  StreamedPointwiseShape m_shape;
  const float* m_filter = nullptr;
  int m_threads = 0;
  PackedBytes m_packed;
  std::vector<Panel> m_panels;
  std::vector<size_t> m_threadPanels;  // thread t's panels are [m_threadPanels[t], m_threadPanels[t + 1])
};

}  // namespace flowscope
