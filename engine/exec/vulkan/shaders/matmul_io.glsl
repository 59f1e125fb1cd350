// MatMul's operands for the GEMM cores (gemm_tile.glsl, gemm_coopmat.glsl): batched C = op(A) * op(B) (+ bias,
// activation). Loads follow the memory order of each operand (transposed or not), so a warp reads consecutive floats.
#include "activation.glsl"
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) readonly buffer Bias { float bias[]; };
layout(std430, binding = 3) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params {
  uint M, N, K;
  uint batchStrideA, batchStrideB;  // 0 repeats one matrix for every batch
  uint transA, transB, hasBias, act;
  float alpha;
  uint operandPrecision;  // precision.glsl's
} p;

float loadA(uint batch, uint row, uint k) {
  if (row >= p.M || k >= p.K) return 0.0;
  const uint base = batch * p.batchStrideA;
  return p.transA != 0u ? a[base + k * p.M + row] : a[base + row * p.K + k];
}

float loadB(uint batch, uint k, uint col) {
  if (k >= p.K || col >= p.N) return 0.0;
  const uint base = batch * p.batchStrideB;
  return p.transB != 0u ? b[base + col * p.K + k] : b[base + k * p.N + col];
}

void storeC(uint batch, uint row, uint col, float sum) {
  c[batch * p.M * p.N + row * p.N + col] = activate(sum + (p.hasBias != 0u ? bias[col] : 0.0), p.act, p.alpha);
}

// Defined by the core included after this file.
void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision);

void runGemm() { gemmTile(p.M, p.N, p.K, p.transA == 0u, p.transB != 0u, p.operandPrecision); }
