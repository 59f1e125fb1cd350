#version 450
// Elementwise unary ops; codes below 16 are the activations of activation.glsl. Code 36 writes alpha everywhere (Fill,
// ZerosLike, OnesLike): it binds the output as its input too, and reads x[i] only before writing y[i].
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
    case 26u: v = floor(v); break;
    case 27u: v = ceil(v); break;
    case 28u: v = roundEven(v); break;
    case 29u: v = sign(v); break;
    case 30u: v = sin(v); break;
    case 31u: v = cos(v); break;
    case 32u: v = v / (1.0 + abs(v)); break;
    case 33u: v = 1.0507009873554805 * (v > 0.0 ? v : 1.6732632423543772 * (exp(v) - 1.0)); break;
    case 34u: v = exp(v) - 1.0; break;
    case 35u: v = log(1.0 + v); break;
    case 36u: v = p.alpha; break;
    default: v = activate(v, p.op, p.alpha);
  }
  y[i] = v;
}
