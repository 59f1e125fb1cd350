// oneDNN's convolution of a band of output rows at a time, channels-last, for the kernels that make a tensor band by
// band while the rows stay in a core's cache (depthwise_band_rows.h, transpose_conv.h): one primitive per band
// geometry (its input rows, output rows and top pad), the filter reordered once per filter tensor.
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include "exec/cpu/band_convolutions.h"
#include "exec/cpu/depthwise_nhwc.h"
#include "exec/cpu/input_bands.h"

namespace flowscope {

/// One image's convolution: a depthwise one (filter [kh, kw, c, 1], oc = c) or a dense one (filter [kh, kw, c, oc]).
struct ConvBandShape {
  int64_t h = 0, w = 0, c = 0;  ///< input, NHWC
  int64_t kh = 0, kw = 0;       ///< window (no dilation)
  int64_t sh = 1, sw = 1;       ///< strides
  int64_t padTop = 0, padLeft = 0;
  int64_t oh = 0, ow = 0, oc = 0;  ///< output, NHWC
  bool depthwise = false;
};

class OneDnnConvBands {
 public:
  using Key = std::array<int64_t, 3>;  ///< {input rows, output rows, top pad}
  /// Memories one thread binds a band's data to, per band geometry.
  using ThreadMemories = std::map<Key, BandMemories>;

  /// Starts over for `shape`, with the bias and `clamp` fused.
  void reset(const ConvBandShape& shape, DepthwiseClamp clamp);

  /// Builds `band`'s primitive unless one of its geometry is built, and binds `memories` for it; false where oneDNN
  /// has no fast kernel for it (its reference kernel is kept only where `orReference`). Not thread-safe.
  bool add(const InputBand& band, ThreadMemories& memories, bool orReference = false);

  /// The filter and bias of the next runs; before the bands run, on one thread.
  void load(const Tensor& filter, const Tensor& bias) { m_convolutions.load(filter, bias); }

  /// `band`'s output rows into `out` from `bandInput`, the band's first input row, on the calling thread.
  void run(const InputBand& band, ThreadMemories& memories, const float* bandInput, float* out) const;

 private:
  Key keyOf(const InputBand& band) const;
  dnnl::convolution_forward::primitive_desc descFor(const Key& key) const;

  ConvBandShape m_shape;
  DepthwiseClamp m_clamp = DepthwiseClamp::kNone;
  BandConvolutions<Key> m_convolutions;
};

}  // namespace flowscope
