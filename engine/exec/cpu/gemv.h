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

/// The floats packGemvWeights writes for a [k, n] product: blocks of 64 columns, the last padded with zeros.
int64_t gemvPackedFloats(int64_t k, int64_t n);

/// B, as gemvRow takes it, packed for gemvPackedRow: block by block of 64 columns, each block's k rows of 64 values
/// one after the other, so that a block's weights are one stream through memory. (gemvRow's four rows of B at a time
/// were four streams: MobileNetV2's 5 MB classifier read at 18-21 GB/s, where ONNX Runtime's packed weights read
/// at 32.)
void packGemvWeights(const float* b, bool bTransposed, int64_t k, int64_t n, float* packed);

/// gemvRow over weights that packGemvWeights packed; the sums in the same order as gemvRow's on plain B.
void gemvPackedRow(const float* a, const float* packed, int64_t k, int64_t n, float* out);

}  // namespace flowscope
