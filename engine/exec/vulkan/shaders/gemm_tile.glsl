// The register-blocked GEMM core of MatMul and the implicit-GEMM convolution: each 16x16 workgroup computes a 64x64
// tile of C, each thread a 4x4 block of it (rows ty + 16i, columns tx + 16j), from 16-deep slices of A and B staged
// in shared memory, the next slice read into registers while the current one is multiplied. Operands are rounded to
// the run's precision (precision.glsl) as they are staged; the sums stay fp32. The including shader defines, before
// including this:
//   float loadA(uint batch, uint row, uint k);   A[row][k], 0 outside the matrix
//   float loadB(uint batch, uint k, uint col);   B[k][col], 0 outside the matrix
//   void storeC(uint batch, uint row, uint col, float sum);
// and calls gemmTile(M, N, K, aDepthContiguous, bDepthContiguous, operandPrecision): staging reads each operand in
// its memory order (along k when that is contiguous), so that neighbouring invocations read neighbouring floats.
#include "precision.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

const uint kTile = 64u;   // rows and columns of C per workgroup
const uint kDepth = 16u;  // the K slice staged at a time
const uint kThreads = 256u;

shared float tileA[kDepth][kTile];  // [k][row]
shared float tileB[kDepth][kTile];  // [k][column]

// Element e (0..1023) of a 64x16 slice: the index along the operand's contiguous dimension varies fastest.
uvec2 sliceElement(uint e, bool depthContiguous) {
  return depthContiguous ? uvec2(e / kDepth, e % kDepth) : uvec2(e % kTile, e / kTile);  // (row or column, k)
}

const uint kPerThread = kTile * kDepth / kThreads;  // elements of each operand's slice that one thread stages

// Reads this thread's elements of the slice at k0 from global memory into registers.
void fetch(uint batch, uint rowBase, uint colBase, uint k0, uint tid, bool aDepthContiguous, bool bDepthContiguous,
           out float nextA[kPerThread], out float nextB[kPerThread]) {
  for (uint i = 0u; i < kPerThread; ++i) {
    const uint e = tid + i * kThreads;
    const uvec2 ea = sliceElement(e, aDepthContiguous);
    nextA[i] = loadA(batch, rowBase + ea.x, k0 + ea.y);
    const uvec2 eb = sliceElement(e, bDepthContiguous);
    nextB[i] = loadB(batch, k0 + eb.y, colBase + eb.x);
  }
}

// Writes what fetch() read into the shared tiles, at the run's precision.
void stage(uint tid, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision, float nextA[kPerThread],
           float nextB[kPerThread]) {
  for (uint i = 0u; i < kPerThread; ++i) {
    const uint e = tid + i * kThreads;
    const uvec2 ea = sliceElement(e, aDepthContiguous);
    tileA[ea.y][ea.x] = atPrecision(nextA[i], operandPrecision);
    const uvec2 eb = sliceElement(e, bDepthContiguous);
    tileB[eb.y][eb.x] = atPrecision(nextB[i], operandPrecision);
  }
}

void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision) {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * 16u + tx;
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  float acc[4][4];
  for (uint i = 0u; i < 4u; ++i)
    for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0.0;
  // Double-buffered through registers: the next slice's global loads are in flight while this one is multiplied.
  float nextA[kPerThread], nextB[kPerThread];
  fetch(batch, rowBase, colBase, 0u, tid, aDepthContiguous, bDepthContiguous, nextA, nextB);
  for (uint k0 = 0u; k0 < K; k0 += kDepth) {
    stage(tid, aDepthContiguous, bDepthContiguous, operandPrecision, nextA, nextB);
    barrier();
    if (k0 + kDepth < K)
      fetch(batch, rowBase, colBase, k0 + kDepth, tid, aDepthContiguous, bDepthContiguous, nextA, nextB);
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
    if (row >= M) continue;
    for (uint j = 0u; j < 4u; ++j) {
      const uint col = colBase + tx + 16u * j;
      if (col < N) storeC(batch, row, col, acc[i][j]);
    }
  }
}
