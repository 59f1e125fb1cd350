// The register-blocked GEMM core of MatMul and the implicit-GEMM convolution: each 16x16 workgroup computes a 64x64
// tile of C, each thread a 4x4 block of it (rows 4ty..4ty+3, columns 4tx..4tx+3), from 16-deep slices of A and B
// staged in shared memory as 4-float vectors, so that each k costs two 16-byte shared loads for 16 multiply-adds; the
// next slice is read into registers while the current one is multiplied. Operands are rounded to
// the run's precision (precision.glsl) as they are staged; the sums stay fp32. The including shader defines, before
// including this:
//   vec4 loadA4(uint batch, uint row, uint k);   A from (row, k): 4 elements along its contiguous dimension, 0 outside
//   vec4 loadB4(uint batch, uint k, uint col);   B from (k, col), likewise
//   void storeC(uint batch, uint row, uint col, float sum);
// and calls gemmTile(M, N, K, aDepthContiguous, bDepthContiguous, operandPrecision): each invocation stages four
// neighbouring floats of each operand, in its memory order (along k when that is contiguous), with one 16-byte load
// where they are aligned and inside the matrix, and neighbouring invocations read neighbouring vectors.
#include "precision.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

const uint kTile = 64u;   // rows and columns of C per workgroup
const uint kDepth = 16u;  // the K slice staged at a time
const uint kThreads = 256u;

shared vec4 tileA[kDepth][kTile / 4u];  // [k][row / 4][row % 4]
shared vec4 tileB[kDepth][kTile / 4u];  // [k][column / 4][column % 4]

// Element e (0..1023) of a 64x16 slice: the index along the operand's contiguous dimension varies fastest.
uvec2 sliceElement(uint e, bool depthContiguous) {
  return depthContiguous ? uvec2(e / kDepth, e % kDepth) : uvec2(e % kTile, e / kTile);  // (row or column, k)
}

const uint kVectorsPerThread = kTile * kDepth / (4u * kThreads);  // 4-float vectors of each slice one thread stages

// The first element of vector v (0..255) of a slice: 4 elements along the operand's contiguous dimension.
uvec2 vectorStart(uint v, bool depthContiguous) { return sliceElement(4u * v, depthContiguous); }

// Reads this thread's vectors of the slice at k0 from global memory into registers.
void fetch(uint batch, uint rowBase, uint colBase, uint k0, uint tid, bool aDepthContiguous, bool bDepthContiguous,
           out vec4 nextA[kVectorsPerThread], out vec4 nextB[kVectorsPerThread]) {
  [[unroll]] for (uint i = 0u; i < kVectorsPerThread; ++i) {
    const uvec2 ea = vectorStart(tid + i * kThreads, aDepthContiguous);
    nextA[i] = loadA4(batch, rowBase + ea.x, k0 + ea.y);
    const uvec2 eb = vectorStart(tid + i * kThreads, bDepthContiguous);
    nextB[i] = loadB4(batch, k0 + eb.y, colBase + eb.x);
  }
}

// Writes what fetch() read into the shared tiles, at the run's precision.
void stage(uint tid, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision,
           vec4 nextA[kVectorsPerThread], vec4 nextB[kVectorsPerThread]) {
  [[unroll]] for (uint i = 0u; i < kVectorsPerThread; ++i) {
    const uvec2 ea = vectorStart(tid + i * kThreads, aDepthContiguous);
    const uvec2 eb = vectorStart(tid + i * kThreads, bDepthContiguous);
    const uvec2 stepA = aDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
    const uvec2 stepB = bDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
      const uvec2 a = ea + j * stepA, b = eb + j * stepB;
      tileA[a.y][a.x / 4u][a.x % 4u] = atPrecision(nextA[i][j], operandPrecision);
      tileB[b.y][b.x / 4u][b.x % 4u] = atPrecision(nextB[i][j], operandPrecision);
    }
  }
}

void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision) {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * 16u + tx;
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  float acc[4][4];
  [[unroll]] for (uint i = 0u; i < 4u; ++i)
    [[unroll]] for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0.0;
  // Double-buffered through registers: the next slice's global loads are in flight while this one is multiplied.
  vec4 nextA[kVectorsPerThread], nextB[kVectorsPerThread];
  fetch(batch, rowBase, colBase, 0u, tid, aDepthContiguous, bDepthContiguous, nextA, nextB);
  for (uint k0 = 0u; k0 < K; k0 += kDepth) {
    stage(tid, aDepthContiguous, bDepthContiguous, operandPrecision, nextA, nextB);
    barrier();
    if (k0 + kDepth < K)
      fetch(batch, rowBase, colBase, k0 + kDepth, tid, aDepthContiguous, bDepthContiguous, nextA, nextB);
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
