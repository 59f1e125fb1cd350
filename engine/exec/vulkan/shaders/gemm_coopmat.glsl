// The cooperative-matrix GEMM core (VK_NV_cooperative_matrix): the interface of gemm_tile.glsl (loadA4, loadB4, storeC
// defined before; gemmTile(M, N, K, aDepthContiguous, bDepthContiguous, operandPrecision)) with the products on the
// matrix units. Each 256-invocation workgroup computes a 64x64 tile of C from 32-deep slices of A and B, staged in
// shared memory as fp16 (rounded to nearest, precision.glsl); each subgroup owns some of the tile's sixteen 16x16
// fragments and sums them in fp32. The finished tile goes out through shared memory so that storeC adds the bias and
// activation element by element. Needs 16x16x16 fp16 x fp16 + fp32 fragments and subgroups of at most 64 invocations
// (at least 4 per workgroup); the backend picks this core only where the device reports both.
#include "precision.glsl"
layout(local_size_x = 256) in;

const uint kTile = 64u;   // rows and columns of C per workgroup
const uint kDepth = 32u;  // the K slice staged at a time
const uint kThreads = 256u;
const uint kFrag = 16u;
const uint kFragsPerSide = kTile / kFrag;
const uint kFrags = kFragsPerSide * kFragsPerSide;
const uint kMaxFragsPerSubgroup = 4u;
const uint kVectorsPerThread = kTile * kDepth / (4u * kThreads);  // 4-float vectors of each slice one invocation stages

shared float16_t tileA[kTile * kDepth];  // [row][k]
shared float16_t tileB[kDepth * kTile];  // [k][column]
shared float tileC[kTile * kTile];       // [row][column]

// Element e of a 64x32 slice as (row or column, k): the index along the operand's contiguous dimension varies fastest.
uvec2 sliceElement(uint e, bool depthContiguous) {
  return depthContiguous ? uvec2(e / kDepth, e % kDepth) : uvec2(e % kTile, e / kTile);
}

void stageSlice(uint batch, uint rowBase, uint colBase, uint k0, bool aDepthContiguous, bool bDepthContiguous) {
  const uvec2 stepA = aDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
  const uvec2 stepB = bDepthContiguous ? uvec2(0u, 1u) : uvec2(1u, 0u);
  for (uint i = 0u; i < kVectorsPerThread; ++i) {
    const uint e = 4u * (gl_LocalInvocationIndex + i * kThreads);
    const uvec2 ea = sliceElement(e, aDepthContiguous), eb = sliceElement(e, bDepthContiguous);
    const vec4 va = loadA4(batch, rowBase + ea.x, k0 + ea.y), vb = loadB4(batch, k0 + eb.y, colBase + eb.x);
    for (uint j = 0u; j < 4u; ++j) {
      const uvec2 a = ea + j * stepA, b = eb + j * stepB;
      tileA[a.x * kDepth + a.y] = float16_t(roundToHalf(va[j]));
      tileB[b.y * kTile + b.x] = float16_t(roundToHalf(vb[j]));
    }
  }
}

// This subgroup's fragment number s (kFrags or more: it has no such fragment).
uint fragment(uint s) { return gl_SubgroupID + s * gl_NumSubgroups; }

void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision) {
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  fcoopmatNV<32, gl_ScopeSubgroup, kFrag, kFrag> sums[kMaxFragsPerSubgroup];
  for (uint s = 0u; s < kMaxFragsPerSubgroup; ++s) sums[s] = fcoopmatNV<32, gl_ScopeSubgroup, kFrag, kFrag>(0.0);
  for (uint k0 = 0u; k0 < K; k0 += kDepth) {
    stageSlice(batch, rowBase, colBase, k0, aDepthContiguous, bDepthContiguous);
    barrier();
    for (uint s = 0u; s < kMaxFragsPerSubgroup; ++s) {
      const uint f = fragment(s);
      if (f >= kFrags) continue;  // the same for the whole subgroup
      for (uint kk = 0u; kk < kDepth; kk += kFrag) {
        fcoopmatNV<16, gl_ScopeSubgroup, kFrag, kFrag> a, b;
        coopMatLoadNV(a, tileA, (f / kFragsPerSide) * kFrag * kDepth + kk, kDepth, false);
        coopMatLoadNV(b, tileB, kk * kTile + (f % kFragsPerSide) * kFrag, kTile, false);
        sums[s] = coopMatMulAddNV(a, b, sums[s]);
      }
    }
    barrier();
  }
  for (uint s = 0u; s < kMaxFragsPerSubgroup; ++s) {
    const uint f = fragment(s);
    if (f < kFrags)
      coopMatStoreNV(sums[s], tileC, (f / kFragsPerSide) * kFrag * kTile + (f % kFragsPerSide) * kFrag, kTile, false);
  }
  barrier();
  for (uint i = 0u; i < kTile * kTile / kThreads; ++i) {
    const uint e = gl_LocalInvocationIndex + i * kThreads, row = rowBase + e / kTile, col = colBase + e % kTile;
    if (row < M && col < N) storeC(batch, row, col, tileC[e]);
  }
}
