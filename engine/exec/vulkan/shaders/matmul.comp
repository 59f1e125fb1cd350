#version 450
// Batched C = op(A) * op(B) (+ bias, activation), 16x16 tiles staged in shared memory.
#extension GL_GOOGLE_include_directive : require
#include "activation.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) readonly buffer Bias { float bias[]; };
layout(std430, binding = 3) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params {
  uint M, N, K;
  uint batchStrideA, batchStrideB;  // 0 repeats one matrix for every batch
  uint transA, transB, hasBias, act;
  float alpha;
} p;

shared float tileA[16][16];
shared float tileB[16][16];

float loadA(uint base, uint row, uint k) {
  if (row >= p.M || k >= p.K) return 0.0;
  return p.transA != 0u ? a[base + k * p.M + row] : a[base + row * p.K + k];
}

float loadB(uint base, uint k, uint col) {
  if (k >= p.K || col >= p.N) return 0.0;
  return p.transB != 0u ? b[base + col * p.K + k] : b[base + k * p.N + col];
}

void main() {
  uint batch = gl_WorkGroupID.z;
  uint row = gl_WorkGroupID.y * 16u + gl_LocalInvocationID.y;
  uint col = gl_WorkGroupID.x * 16u + gl_LocalInvocationID.x;
  uint baseA = batch * p.batchStrideA, baseB = batch * p.batchStrideB;
  float sum = 0.0;
  for (uint t = 0u; t < p.K; t += 16u) {
    tileA[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = loadA(baseA, row, t + gl_LocalInvocationID.x);
    tileB[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = loadB(baseB, t + gl_LocalInvocationID.y, col);
    barrier();
    for (uint k = 0u; k < 16u; ++k) sum += tileA[gl_LocalInvocationID.y][k] * tileB[k][gl_LocalInvocationID.x];
    barrier();
  }
  if (row >= p.M || col >= p.N) return;
  if (p.hasBias != 0u) sum += bias[col];
  c[batch * p.M * p.N + row * p.N + col] = activate(sum, p.act, p.alpha);
}
