// A float32 matrix-vector product for MatMul with one row: a classifier's last layer at batch 1 (MobileNetV2's
// 1x1280 by 1280x1000 Gemm). Its time is reading the weights once; oneDNN's GEMM, blocked for many rows, took
// 2.5x that read's time there.
#pragma once

#include <cstdint>

namespace flowscope {

/// True when gemvRow runs on this machine (AVX-512, or AVX2 with FMA; elsewhere oneDNN's GEMM does).
bool gemvRowRuns();

/// out[j] = sum_p a[p] * B(p, j) for j < n, with B(p, j) = b[p * n + j], or b[j * k + p] when bTransposed (the
/// weights stored [n, k], as ONNX's Gemm with transB and TensorFlow's MatMul with transpose_b keep them). Columns
/// are shared among the intra-op threads.
void gemvRow(const float* a, const float* b, bool bTransposed, int64_t k, int64_t n, float* out);

/// True when gemvPackedRow takes weights of this layout here: plain B wherever gemvRow runs, transposed B with AVX-512.
bool gemvPacks(bool bTransposed);

/// The floats packGemvWeights writes for a [k, n] product.
int64_t gemvPackedFloats(bool bTransposed, int64_t k, int64_t n);

/// B, as gemvRow takes it, packed for gemvPackedRow in blocks of columns, each block's rows one after the other, so
/// that a block's weights are one stream through memory (gemvRow's four rows of B at a time were four streams:
/// MobileNetV2's 5 MB classifier read at 18-21 GB/s, where ONNX Runtime's packed weights read at 32). Plain B: blocks
/// of 64 columns, [k][64]. Transposed B: blocks of 16 columns, [k rounded up to 16, the padding zeros][16].
void packGemvWeights(const float* b, bool bTransposed, int64_t k, int64_t n, float* packed);

/// gemvRow over weights that packGemvWeights packed, its sums in the same order as gemvRow's (a transposed B's partial
/// sums by input index modulo 16, added one after another at the end), so that a product gives the same bits whether
/// or not its weights were packed.
void gemvPackedRow(const float* a, const float* packed, bool bTransposed, int64_t k, int64_t n, float* out);

}  // namespace flowscope
