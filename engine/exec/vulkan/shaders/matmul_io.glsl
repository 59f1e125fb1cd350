// MatMul's operands for the GEMM cores (gemm_tile.glsl, gemm_coopmat.glsl): batched C = op(A) * op(B) (+ bias,
// activation). Loads follow the memory order of each operand (transposed or not), so a warp reads consecutive floats.
#include "activation.glsl"
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 0) readonly buffer A4 { vec4 a4[]; };  // the same buffer, read 16 bytes at a time
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 1) readonly buffer B4 { vec4 b4[]; };
layout(std430, binding = 2) readonly buffer Bias { float bias[]; };
layout(std430, binding = 3) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params {
  uint M, N, K;
  uint batchStrideA, batchStrideB;  // 0 repeats one matrix for every batch
  uint transA, transB, hasBias, act;
  float alpha;
  uint operandPrecision;  // precision.glsl's
} p;

float element(uint operand, uint i) { return operand == 0u ? a[i] : b[i]; }
vec4 vector(uint operand, uint v) { return operand == 0u ? a4[v] : b4[v]; }

// Four elements of A (operand 0, from (row, k)) or B (operand 1, from (k, col)) along its memory order, 0 outside the
// matrix: one 16-byte load where they are aligned and all inside.
vec4 loadOperand4(uint operand, uint batch, uvec2 at) {
  const bool alongFirst = (operand == 0u ? p.transA : p.transB) != 0u;  // A's rows or B's k are contiguous
  const uvec2 dims = operand == 0u ? uvec2(p.M, p.K) : uvec2(p.K, p.N);
  const uvec2 step = alongFirst ? uvec2(1u, 0u) : uvec2(0u, 1u);
  const uint base = batch * (operand == 0u ? p.batchStrideA : p.batchStrideB);
  const uint first = base + (alongFirst ? at.y * dims.x + at.x : at.x * dims.y + at.y);
  if (all(lessThan(at + 3u * step, dims)) && first % 4u == 0u) return vector(operand, first / 4u);
  vec4 v = vec4(0.0);
  for (uint j = 0u; j < 4u; ++j)
    if (all(lessThan(at + j * step, dims))) v[j] = element(operand, first + j);
  return v;
}

vec4 loadA4(uint batch, uint row, uint k) { return loadOperand4(0u, batch, uvec2(row, k)); }
vec4 loadB4(uint batch, uint k, uint col) { return loadOperand4(1u, batch, uvec2(k, col)); }

void storeC(uint batch, uint row, uint col, float sum) {
  c[batch * p.M * p.N + row * p.N + col] = activate(sum + (p.hasBias != 0u ? bias[col] : 0.0), p.act, p.alpha);
}

// Defined by the core included after this file.
void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision);

void runGemm() { gemmTile(p.M, p.N, p.K, p.transA == 0u, p.transB != 0u, p.operandPrecision); }
