// The cooperative-matrix GEMM core (VK_NV_cooperative_matrix): the interface of gemm_tile.glsl (loadA4, loadB4, storeC
// defined before; gemmTile(M, N, K, aDepthContiguous, bDepthContiguous, operandPrecision)) with the products on the
// matrix units. Each 256-invocation workgroup (eight subgroups of 32) computes a 128x128 tile of C from 32-deep slices
// of A and B, staged in shared memory as fp16 (rounded to nearest, precision.glsl), the next slice read into registers
// while the current one is multiplied. Each subgroup owns a 64x32 block of the tile, 4 x 2 fragments of 16x16 summed in
// fp32, so that six fragment loads feed eight products. Shared rows are padded by 16 bytes, which spreads the fragment
// loads of neighbouring rows over the banks. A finished fragment goes out through the subgroup's own 16x16 of shared
// memory so that storeC adds the bias and activation element by element. Needs 16x16x16 fp16 x fp16 + fp32 fragments
// and subgroups of 32 invocations; the backend picks this core only where the device reports both.
#include "precision.glsl"
layout(local_size_x = 256) in;

const uint kTile = 128u;  // rows and columns of C per workgroup
const uint kDepth = 32u;  // the K slice staged at a time
const uint kThreads = 256u;
const uint kSubgroupSize = 32u;  // the probe requires it (cooperative_matrix.cpp)
const uint kFrag = 16u;
const uint kRowFrags = 4u, kColFrags = 2u;  // a subgroup's block: 64 rows, 32 columns
const uint kSubgroupColumns = kTile / (kColFrags * kFrag);  // subgroups side by side: 4 (and 2 down)
const uint kStrideA = kDepth + 8u, kStrideB = kTile + 8u;  // halves per shared row, padded

shared float16_t tileA[kTile * kStrideA];   // [row][k]
shared float16_t tileB[kDepth * kStrideB];  // [k][column]
shared float tileC[kThreads / kSubgroupSize * kFrag * kFrag];  // one fragment per subgroup on its way out

// Shared-memory element writes of gemm_staging.glsl: at = (row or column, k), rounded to fp16.
void putA(uvec2 at, float v, uint operandPrecision) { tileA[at.x * kStrideA + at.y] = float16_t(roundToHalf(v)); }
void putB(uvec2 at, float v, uint operandPrecision) { tileB[at.y * kStrideB + at.x] = float16_t(roundToHalf(v)); }

#include "gemm_staging.glsl"

// Sends fragment (i, j) of this subgroup's block to storeC through the subgroup's 16x16 of shared memory.
void storeFragment(fcoopmatNV<32, gl_ScopeSubgroup, kFrag, kFrag> sum, uint batch, uvec2 at, uint M, uint N) {
  const uint scratch = gl_SubgroupID * kFrag * kFrag;
  coopMatStoreNV(sum, tileC, scratch, kFrag, false);
  subgroupMemoryBarrierShared();
  subgroupBarrier();
  for (uint e = gl_SubgroupInvocationID; e < kFrag * kFrag; e += gl_SubgroupSize) {
    const uint row = at.x + e / kFrag, col = at.y + e % kFrag;
    if (row < M && col < N) storeC(batch, row, col, tileC[scratch + e]);
  }
  subgroupMemoryBarrierShared();
  subgroupBarrier();  // every lane has read the fragment before the next one overwrites it
}

void gemmTile(uint M, uint N, uint K, bool aDepthContiguous, bool bDepthContiguous, uint operandPrecision) {
  const uint rowBase = gl_WorkGroupID.y * kTile, colBase = gl_WorkGroupID.x * kTile, batch = gl_WorkGroupID.z;
  const uint blockRow = (gl_SubgroupID / kSubgroupColumns) * kRowFrags * kFrag;
  const uint blockCol = (gl_SubgroupID % kSubgroupColumns) * kColFrags * kFrag;
  fcoopmatNV<32, gl_ScopeSubgroup, kFrag, kFrag> sums[kRowFrags * kColFrags];
  [[unroll]] for (uint s = 0u; s < kRowFrags * kColFrags; ++s)
    sums[s] = fcoopmatNV<32, gl_ScopeSubgroup, kFrag, kFrag>(0.0);
  vec4 nextA[kVectorsPerThread], nextB[kVectorsPerThread];
  fetch(batch, rowBase, colBase, 0u, aDepthContiguous, bDepthContiguous, nextA, nextB);
  for (uint k0 = 0u; k0 < K; k0 += kDepth) {
    stage(aDepthContiguous, bDepthContiguous, operandPrecision, nextA, nextB);
    barrier();
    if (k0 + kDepth < K) fetch(batch, rowBase, colBase, k0 + kDepth, aDepthContiguous, bDepthContiguous, nextA, nextB);
    [[unroll]] for (uint kk = 0u; kk < kDepth; kk += kFrag) {
      fcoopmatNV<16, gl_ScopeSubgroup, kFrag, kFrag> a[kRowFrags], b[kColFrags];
      [[unroll]] for (uint i = 0u; i < kRowFrags; ++i)
        coopMatLoadNV(a[i], tileA, (blockRow + i * kFrag) * kStrideA + kk, kStrideA, false);
      [[unroll]] for (uint j = 0u; j < kColFrags; ++j)
        coopMatLoadNV(b[j], tileB, kk * kStrideB + blockCol + j * kFrag, kStrideB, false);
      [[unroll]] for (uint i = 0u; i < kRowFrags; ++i)
        [[unroll]] for (uint j = 0u; j < kColFrags; ++j)
          sums[i * kColFrags + j] = coopMatMulAddNV(a[i], b[j], sums[i * kColFrags + j]);
    }
    barrier();
  }
  [[unroll]] for (uint i = 0u; i < kRowFrags; ++i)
    [[unroll]] for (uint j = 0u; j < kColFrags; ++j)
      storeFragment(sums[i * kColFrags + j], batch,
                    uvec2(rowBase + blockRow + i * kFrag, colBase + blockCol + j * kFrag), M, N);
}
