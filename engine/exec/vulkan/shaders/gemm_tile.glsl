// The register-blocked GEMM core of MatMul and the implicit-GEMM convolution: each 16x16 workgroup computes a 64x64
// tile of C, each thread a 4x4 block of it (rows 4ty..4ty+3, columns 4tx..4tx+3), from 16-deep slices of A and B
// staged in shared memory as 4-float vectors, so that each k costs two 16-byte shared loads for 16 multiply-adds; the
// next slice is read into registers while the current one is multiplied. Operands are rounded to
// the run's precision (precision.glsl) as they are staged; the sums stay fp32. The including shader defines, before
// including this:
//   vec4 loadA4(uint batch, uint row, uint k);   A from (row, k): 4 elements along its contiguous dimension, 0 outside
//   vec4 loadB4(uint batch, uint k, uint col);   B from (k, col), likewise
//   void storeC(uint batch, uint row, uint col, float sum);
// and calls gemmTile(M, N, K, aDepthContiguous, bDepthContiguous, operandPrecision). gemm_staging.glsl brings the
// slices in: four neighbouring floats of an operand per 16-byte load where they are aligned and inside the matrix.
#include "precision.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

const uint kTile = 64u;   // rows and columns of C per workgroup
const uint kDepth = 16u;  // the K slice staged at a time
const uint kThreads = 256u;

shared vec4 tileA[kDepth][kTile / 4u];  // [k][row / 4][row % 4]
shared vec4 tileB[kDepth][kTile / 4u];  // [k][column / 4][column % 4]

// Shared-memory element writes of gemm_staging.glsl: at = (row or column, k), at the run's precision.
void putA(uvec2 at, float v, uint operandPrecision) {
  tileA[at.y][at.x / 4u][at.x % 4u] = atPrecision(v, operandPrecision);
}
void putB(uvec2 at, float v, uint operandPrecision) {
  tileB[at.y][at.x / 4u][at.x % 4u] = atPrecision(v, operandPrecision);
}

#include "gemm_staging.glsl"

void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision) {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  float acc[4][4];
  [[unroll]] for (uint i = 0u; i < 4u; ++i)
    [[unroll]] for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0.0;
  // Double-buffered through registers: the next slice's global loads are in flight while this one is multiplied.
  vec4 nextA[kVectorsPerThread], nextB[kVectorsPerThread];
  fetch(batch, rowBase, colBase, 0u, aDepthContiguous, bDepthContiguous, nextA, nextB);
  for (uint k0 = 0u; k0 < K; k0 += kDepth) {
    stage(aDepthContiguous, bDepthContiguous, operandPrecision, nextA, nextB);
    barrier();
    if (k0 + kDepth < K)
      fetch(batch, rowBase, colBase, k0 + kDepth, aDepthContiguous, bDepthContiguous, nextA, nextB);
    [[unroll]] for (uint k = 0u; k < kDepth; ++k) {
      const vec4 av = tileA[k][ty], bv = tileB[k][tx];
      [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint j = 0u; j < 4u; ++j) acc[i][j] += av[i] * bv[j];
    }
    barrier();
  }
  [[unroll]] for (uint i = 0u; i < 4u; ++i) {
    const uint row = rowBase + 4u * ty + i;
    if (row >= M) continue;
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
      const uint col = colBase + 4u * tx + j;
      if (col < N) storeC(batch, row, col, acc[i][j]);
    }
  }
}
