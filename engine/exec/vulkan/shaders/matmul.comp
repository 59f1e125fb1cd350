#version 450
// Batched C = op(A) * op(B) (+ bias, activation), register-blocked: each 16x16 workgroup computes a 64x64 tile of C,
// each thread a 4x4 block of it (rows ty + 16i, columns tx + 16j), from 16-deep slices of A and B staged in shared
// memory. Loads follow the memory order of each operand (transposed or not), so a warp reads consecutive floats.
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

const uint kTile = 64u;   // rows and columns of C per workgroup
const uint kDepth = 16u;  // the K slice staged at a time
const uint kThreads = 256u;

shared float tileA[kDepth][kTile];  // [k][row]
shared float tileB[kDepth][kTile];  // [k][column]

float loadA(uint base, uint row, uint k) {
  if (row >= p.M || k >= p.K) return 0.0;
  return p.transA != 0u ? a[base + k * p.M + row] : a[base + row * p.K + k];
}

float loadB(uint base, uint k, uint col) {
  if (k >= p.K || col >= p.N) return 0.0;
  return p.transB != 0u ? b[base + col * p.K + k] : b[base + k * p.N + col];
}

// Element e (0..1023) of a 64x16 slice: the index along the operand's contiguous dimension varies fastest.
uvec2 sliceElement(uint e, bool depthContiguous) {
  return depthContiguous ? uvec2(e / kDepth, e % kDepth) : uvec2(e % kTile, e / kTile);  // (row or column, k)
}

void stage(uint baseA, uint baseB, uint rowBase, uint colBase, uint k0, uint tid) {
  for (uint i = 0u; i < kTile * kDepth / kThreads; ++i) {
    const uint e = tid + i * kThreads;
    const uvec2 ea = sliceElement(e, p.transA == 0u);
    tileA[ea.y][ea.x] = loadA(baseA, rowBase + ea.x, k0 + ea.y);
    const uvec2 eb = sliceElement(e, p.transB != 0u);
    tileB[eb.y][eb.x] = loadB(baseB, k0 + eb.y, colBase + eb.x);
  }
}

void main() {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * 16u + tx;
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  const uint baseA = batch * p.batchStrideA, baseB = batch * p.batchStrideB;
  float acc[4][4];
  for (uint i = 0u; i < 4u; ++i)
    for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0.0;
  for (uint k0 = 0u; k0 < p.K; k0 += kDepth) {
    stage(baseA, baseB, rowBase, colBase, k0, tid);
    barrier();
    for (uint k = 0u; k < kDepth; ++k) {
      float av[4], bv[4];
      for (uint i = 0u; i < 4u; ++i) av[i] = tileA[k][ty + 16u * i];
      for (uint j = 0u; j < 4u; ++j) bv[j] = tileB[k][tx + 16u * j];
      for (uint i = 0u; i < 4u; ++i)
        for (uint j = 0u; j < 4u; ++j) acc[i][j] += av[i] * bv[j];
    }
    barrier();
  }
  for (uint i = 0u; i < 4u; ++i) {
    const uint row = rowBase + ty + 16u * i;
    if (row >= p.M) continue;
    for (uint j = 0u; j < 4u; ++j) {
      const uint col = colBase + tx + 16u * j;
      if (col >= p.N) continue;
      const float sum = acc[i][j] + (p.hasBias != 0u ? bias[col] : 0.0);
      c[batch * p.M * p.N + row * p.N + col] = activate(sum, p.act, p.alpha);
    }
  }
}
