#version 450
// Elementwise unary ops; codes below 16 are the activations of activation.glsl.
#extension GL_GOOGLE_include_directive : require
#include "activation.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint op, count; float alpha; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  float v = x[i];
  switch (p.op) {
    case 16u: v = exp(v); break;
    case 17u: v = log(v); break;
    case 18u: v = -v; break;
    case 19u: v = sqrt(v); break;
    case 20u: v = inversesqrt(v); break;
    case 21u: v = v * v; break;
    case 22u: v = abs(v); break;
    case 23u: v = log(1.0 + exp(v)); break;
    case 24u: v = 1.0 / v; break;
    case 25u: break;
    default: v = activate(v, p.op, p.alpha);
  }
  y[i] = v;
}
