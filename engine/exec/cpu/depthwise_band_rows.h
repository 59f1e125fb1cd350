// A depthwise convolution's output rows band by band, for the kernels that run it in bands of rows beside a 1x1
// convolution (depthwise_pointwise.h): our own kernel where it runs (depthwise_nhwc.h, AVX-512), else oneDNN's
// depthwise convolution (jit_dw: AVX2 and others), one primitive per band geometry (its input rows, output rows and
// top pad), built before the bands run.
//
// Measured on a 2-core AMD Zen 2 host without AVX-512 (2026-12-02): oneDNN's depthwise kernel runs MobileNetV2's
// 56x56x144 layer in 87 us when its data are warm but 400-470 us inside the model, where its 1.8 MB input and output
// come from a cache the host's neighbours share; a band's rows stay in the core's cache for the 1x1 convolution.
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include "exec/cpu/band_convolutions.h"
#include "exec/cpu/depthwise_nhwc.h"
#include "exec/cpu/input_bands.h"

namespace flowscope {

class DepthwiseBandRows {
 public:
  /// Memories one thread binds a band's data to, for each band geometry (unused where our kernel runs).
  using ThreadMemories = std::map<std::array<int64_t, 3>, BandMemories>;

  /// True where a depthwise kernel runs in bands here: ours, or oneDNN's unless FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0
  /// (for comparisons: the pairs then run as before, apart or as oneDNN's fused primitive).
  static bool runsHere();

  /// Starts over for `shape` and `clamp`; true where either kernel can run it. `oneDnnOnly` passes our kernel by
  /// (for tests on machines where it runs).
  bool reset(const DepthwiseShape& shape, DepthwiseClamp clamp, bool oneDnnOnly = false);

  /// Builds what `band` needs and binds `memories` for it; false where oneDNN has no fast kernel for it.
  bool add(const InputBand& band, ThreadMemories& memories);

  /// The filter ([k, k, c, 1]) and bias of the next runs; before the bands run, on one thread.
  void load(const Tensor& filter, const Tensor& bias);

  /// `band`'s output rows into `out`, from `in`, which holds the input rows from `inFirstRow` on (counted over the
  /// batch), on the calling thread.
  void run(const InputBand& band, ThreadMemories& memories, const float* in, int64_t inFirstRow, float* out) const;

 private:
  std::array<int64_t, 3> keyOf(const InputBand& band) const;
  dnnl::convolution_forward::primitive_desc bandDesc(const std::array<int64_t, 3>& key) const;

  DepthwiseShape m_shape;
  DepthwiseClamp m_clamp = DepthwiseClamp::kNone;
  bool m_ours = false;
  const float* m_filter = nullptr;
  const float* m_bias = nullptr;
  BandConvolutions<std::array<int64_t, 3>> m_dnnl;  // by {input rows, output rows, top pad}
};

}  // namespace flowscope
