// Winograd F(4x4, 3x3) convolution on channels-last float32 (Lavin and Gray, "Fast Algorithms for Convolutional
// Neural Networks"), for machines where oneDNN 2.6 has none: its Winograd kernels need AVX-512, so on an AVX2 machine
// (AMD Zen, Intel before Skylake-SP) ResNet's 3x3 stride-1 layers ran direct, at most at the FMA peak, a quarter
// slower than ONNX Runtime's. Each 4x4 output tile costs 36 products per channel pair instead of 144 (below 28x28
// outputs, F(2x2, 3x3): 16 instead of 36, on weights less than half the size):
//   - the weights are transformed once, U = G g G^T: 36 matrices [C, K] (16 for F(2x2, 3x3));
//   - each 6x6 (4x4) input tile, B^T d B, gives row t of the matrices V [T, C] (T tiles), vectorized over channels;
//   - the matrix products M = V U on U packed once (winograd_products.h);
//   - each tile's output, A^T m A, with the bias, a residual addend and ReLU / ReLU6 fused, written NHWC.
// Images go through in chunks of at least 256 tiles, so the transformed tiles stay in the caches.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "exec/cpu/conv_epilogue.h"
#include "exec/cpu/conv_window.h"

namespace flowscope {

struct WinogradShape {
  int64_t n = 0, h = 0, w = 0, c = 0;  ///< input, NHWC
  int64_t k = 0;                       ///< output channels
  int64_t padTop = 0, padLeft = 0;     ///< the bottom and right pads follow from oh and ow
  int64_t oh = 0, ow = 0;              ///< output height and width (3x3 window, stride and dilation 1)
  bool operator==(const WinogradShape&) const = default;
};

/// The shape of a convolution of the NHWC input `in` (fully defined) with `k` output channels over the window `w`.
inline WinogradShape winogradShapeOf(const Shape& in, int64_t k, const Window& w) {
  return {in.dim(0), in.dim(1), in.dim(2), in.dim(3), k, w.padTop, w.padLeft, w.oh, w.ow};
}

/// True when WinogradNhwc runs this shape here: AVX2 with FMA, channels in multiples of 8.
bool winogradNhwcRuns(const WinogradShape& shape);

/// True when the products of `shape` run on the streamed 1x1 kernel (streamed_pointwise.h), one call per point:
/// F(2x2, 3x3) on an AVX-512 machine at 1 intra-op thread, the whole batch one chunk of 32 to 64
/// tiles (ResNet's 14x14 layers: 49), and at least 256 KiB of weights per point. Such products are 1x1 convolutions
/// of few pixels whose weights come from memory on every run; there the kernel beats oneDNN's own Winograd
/// (blocked_layout.h leaves these layers on NHWC for it).
bool winogradStreamsProducts(const WinogradShape& shape);

/// The arithmetic of a Winograd convolution of `shape` with output tiles of `tile` (4: F(4x4, 3x3), 2: F(2x2, 3x3)):
/// its products and its input and output transforms, for the profiler's roofline (the direct count is 2.25 to 4
/// times more, so a Winograd layer would show above the FMA peak).
int64_t winogradFlops(const WinogradShape& shape, int64_t tile);

/// One convolution's Winograd state: the transformed weights and the buffers of one chunk.
class WinogradNhwc {
 public:
  WinogradNhwc();
  ~WinogradNhwc();
  WinogradNhwc(const WinogradNhwc&) = delete;
  WinogradNhwc& operator=(const WinogradNhwc&) = delete;

  /// Ready for `shape` with the HWIO filter `filter` [3, 3, C, K]: the weights are transformed again only when the
  /// shape or the filter's address changed since the last call (the caller keeps the filter alive).
  Status prepare(const WinogradShape& shape, const float* filter);
  /// out (NHWC [N, OH, OW, K]) = the convolution of `in` (NHWC) with the prepared filter, then `epilogue`.
  void run(const float* in, const ConvEpilogue& epilogue, float* out);
  /// The prepared output tile side: 4 for F(4x4, 3x3), 2 for F(2x2, 3x3); 0 before prepare.
  int64_t tile() const;

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

}  // namespace flowscope
