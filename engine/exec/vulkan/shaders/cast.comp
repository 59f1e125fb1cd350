#version 450
// A host value cast to float32: int32 (mode 0), or bytes packed four to a word (uint8 and bool: mode 1; int8: mode 2).
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { int x[]; };
layout(std430, binding = 0) readonly buffer XWords { uint words[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint mode, count; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  if (p.mode == 0u) {
    y[i] = float(x[i]);
    return;
  }
  uint byteValue = (words[i >> 2] >> (8u * (i & 3u))) & 0xffu;
  y[i] = p.mode == 1u ? float(byteValue) : float(int(byteValue << 24) >> 24);
}
