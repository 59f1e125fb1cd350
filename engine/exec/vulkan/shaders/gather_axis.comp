#version 450
// GatherV2 along one axis: y[o][j][k] = x[o][indices[j]][k], and 0 where an index is out of range (TensorFlow's GPU
// kernel does the same). Indices are int32, or int64 (int64 = 1) as two words: one whose high word is not the sign of
// its low word is out of range. With wrap = 1 negative ones count from the end (ONNX). Elements move as bits.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) readonly buffer I { int indices[]; };
layout(std430, binding = 2) writeonly buffer Y { uint y[]; };
layout(push_constant) uniform Params { uint count, axisLen, indexCount, inner, int64, wrap; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  uint k = i % p.inner, rest = i / p.inner;
  uint j = rest % p.indexCount, o = rest / p.indexCount;
  int at = indices[p.int64 != 0u ? 2u * j : j];
  if (p.int64 != 0u && indices[2u * j + 1u] != (at >> 31)) at = -2147483647 - 1;
  if (p.wrap != 0u && at < 0) at += int(p.axisLen);
  y[i] = at >= 0 && at < int(p.axisLen) ? x[(o * p.axisLen + uint(at)) * p.inner + k] : 0u;
}
