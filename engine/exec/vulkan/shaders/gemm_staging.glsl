// How both GEMM cores (gemm_tile.glsl, gemm_coopmat.glsl) bring a kTile x kDepth slice of each operand from global
// memory into shared memory: every invocation reads 4-float vectors along the operand's contiguous dimension (along k
// when that is contiguous), neighbouring invocations neighbouring vectors, into registers (fetch), and later writes
// them out element by element (stage), so that the next slice's loads are in flight while the current one is
// multiplied. The including core defines, before including this (and after the operands' loadA4 and loadB4):
//   const uint kTile, kDepth, kThreads;        the slice and the workgroup's size
//   void putA(uvec2 at, float v, uint operandPrecision);   A's element at (row, k) of the slice into shared memory
//   void putB(uvec2 at, float v, uint operandPrecision);   B's element at (column, k), likewise

const uint kVectorsPerThread = kTile * kDepth / (4u * kThreads);  // 4-float vectors of each slice one invocation stages

// Element e of a kTile x kDepth slice as (row or column, k): the index along the operand's contiguous dimension varies
// fastest.
uvec2 sliceElement(uint e, bool depthContiguous) {
  return depthContiguous ? uvec2(e / kDepth, e % kDepth) : uvec2(e % kTile, e / kTile);
}

// Reads this invocation's vectors of the slice at k0 from global memory into registers.
void fetch(uint batch, uint rowBase, uint colBase, uint k0, bool aDepthContiguous, bool bDepthContiguous,
           out vec4 nextA[kVectorsPerThread], out vec4 nextB[kVectorsPerThread]) {
  [[unroll]] for (uint i = 0u; i < kVectorsPerThread; ++i) {
    const uint e = 4u * (gl_LocalInvocationIndex + i * kThreads);
    const uvec2 ea = sliceElement(e, aDepthContiguous), eb = sliceElement(e, bDepthContiguous);
    nextA[i] = loadA4(batch, rowBase + ea.x, k0 + ea.y);
    nextB[i] = loadB4(batch, k0 + eb.y, colBase + eb.x);
  }
}

// Writes what fetch() read into shared memory through the core's putA and putB.
void stage(bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision, vec4 nextA[kVectorsPerThread],
           vec4 nextB[kVectorsPerThread]) {
  const uvec2 stepA = aDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
  const uvec2 stepB = bDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
  [[unroll]] for (uint i = 0u; i < kVectorsPerThread; ++i) {
    const uint e = 4u * (gl_LocalInvocationIndex + i * kThreads);
    const uvec2 ea = sliceElement(e, aDepthContiguous), eb = sliceElement(e, bDepthContiguous);
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
      putA(ea + j * stepA, nextA[i][j], operandPrecision);
      putB(eb + j * stepB, nextB[i][j], operandPrecision);
    }
  }
}
