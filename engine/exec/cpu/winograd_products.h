// The matrix products of a Winograd convolution (winograd_nhwc.h): for each of its points p, M_p = V_p U_p with
// V_p [T, C] the transformed input tiles and U_p [C, K] the transformed weights. Batched GEMM libraries pack U_p on
// every call, which for the few tiles of a small image (ResNet's 14x14 layers: 16 tiles) costs as much as the
// products; here U is packed once, in panels of 16 output channels, and each product runs as 6x16 blocks of M held
// in AVX2 registers over the whole of C.
#pragma once

#include <cstdint>

namespace flowscope {

inline constexpr int64_t kWinogradPanel = 16;

/// Panels of 16 output channels for K channels (the last one padded with zeros).
inline int64_t winogradPanels(int64_t k) { return (k + kWinogradPanel - 1) / kWinogradPanel; }

/// packed [points][panels][C][16] from u [points][C][K]; columns past K are zeros.
void packWinogradWeights(const float* u, int64_t points, int64_t c, int64_t k, float* packed);

/// m[p][t][j] = sum over c of v[p][t][c] * U_p[c][j] for p < points, t < tiles and j < panels * 16 (m's row
/// length), U_p from packWinogradWeights. The (point, panel) pairs are shared among the intra-op threads. AVX2 with
/// FMA only (winogradNhwcRuns).
void winogradProducts(const float* v, const float* packed, int64_t points, int64_t tiles, int64_t c, int64_t panels,
                      float* m);

}  // namespace flowscope
