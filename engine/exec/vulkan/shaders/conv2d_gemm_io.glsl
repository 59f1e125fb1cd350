// The implicit-GEMM convolution's operands for the GEMM cores (gemm_tile.glsl, gemm_coopmat.glsl): NHWC convolution
// + bias, activation, where C[M, OC] is the output (M = N * OH * OW positions), B[K, OC] the HWIO filter as it is
// stored (K = KH * KW * C), and A[M, K] the input patches, gathered as they are staged (zero in the padding) and never
// materialized.
#include "activation.glsl"
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 0) readonly buffer X4 { vec4 x4[]; };  // the same buffers, read 16 bytes at a time
layout(std430, binding = 1) readonly buffer W { float w[]; };
layout(std430, binding = 1) readonly buffer W4 { vec4 w4[]; };
layout(std430, binding = 2) readonly buffer Bias { float bias[]; };
layout(std430, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params {
  uint N, H, W, C, KH, KW, OH, OW, OC;
  uint strideH, strideW, dilationH, dilationW;
  int padTop, padLeft;
  uint hasBias, act;
  float alpha;
  uint operandPrecision;  // precision.glsl's
} p;

// Where A[row][k] is in the input, or -1 where it is outside the matrix or in the padding.
int inputIndex(uint row, uint k) {
  if (row >= p.N * p.OH * p.OW || k >= p.KH * p.KW * p.C) return -1;
  const uint ow = row % p.OW, oh = (row / p.OW) % p.OH, n = row / (p.OW * p.OH);
  const uint c = k % p.C, kw = (k / p.C) % p.KW, kh = k / (p.C * p.KW);
  const int ih = int(oh * p.strideH + kh * p.dilationH) - p.padTop;
  const int iw = int(ow * p.strideW + kw * p.dilationW) - p.padLeft;
  if (ih < 0 || ih >= int(p.H) || iw < 0 || iw >= int(p.W)) return -1;
  return int(((n * p.H + uint(ih)) * p.W + uint(iw)) * p.C + c);
}

float loadA(uint row, uint k) {
  const int i = inputIndex(row, k);
  return i < 0 ? 0.0 : x[i];
}

// A[row][k..k+3]: with channels a multiple of 4 (k always is), one pixel's aligned channels or its padding.
vec4 loadA4(uint batch, uint row, uint k) {
  if (p.C % 4u != 0u) return vec4(loadA(row, k), loadA(row, k + 1u), loadA(row, k + 2u), loadA(row, k + 3u));
  const int i = inputIndex(row, k);
  return i < 0 ? vec4(0.0) : x4[i / 4];
}

float loadB(uint k, uint col) { return k >= p.KH * p.KW * p.C || col >= p.OC ? 0.0 : w[k * p.OC + col]; }

// B[k][col..col+3], one aligned load where the output channels allow.
vec4 loadB4(uint batch, uint k, uint col) {
  if (p.OC % 4u == 0u && k < p.KH * p.KW * p.C && col + 3u < p.OC) return w4[(k * p.OC + col) / 4u];
  return vec4(loadB(k, col), loadB(k, col + 1u), loadB(k, col + 2u), loadB(k, col + 3u));
}

void storeC(uint batch, uint row, uint col, float sum) {
  y[row * p.OC + col] = activate(sum + (p.hasBias != 0u ? bias[col] : 0.0), p.act, p.alpha);
}

// Defined by the core included after this file.
void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision);

void runGemm() { gemmTile(p.N * p.OH * p.OW, p.OC, p.KH * p.KW * p.C, true, false, p.operandPrecision); }
