#version 450
// BiasAdd over the last dimension, then an optional activation.
#extension GL_GOOGLE_include_directive : require
#include "activation.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Bias { float bias[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint count, channels, act; float alpha; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  y[i] = activate(x[i] + bias[i % p.channels], p.act, p.alpha);
}
