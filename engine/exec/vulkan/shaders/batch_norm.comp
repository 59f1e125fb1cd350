#version 450
// FusedBatchNorm in inference over the last (NHWC) or second (NCHW) dimension: y = x * a + b with
// a = scale / sqrt(var + eps), b = offset - mean * a, as the CPU kernel computes them.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer S { float scale[]; };
layout(std430, binding = 2) readonly buffer O { float offset[]; };
layout(std430, binding = 3) readonly buffer M { float mean[]; };
layout(std430, binding = 4) readonly buffer V { float var[]; };
layout(std430, binding = 5) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint count, C, inner; float eps; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  uint k = (i / p.inner) % p.C;
  float a = scale[k] / sqrt(var[k] + p.eps);
  float b = offset[k] - mean[k] * a;
  y[i] = x[i] * a + b;
}
