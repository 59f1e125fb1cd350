#version 450
// Reduction of the middle axis of an [outer, reduced, inner] view: 0 sum, 1 mean, 2 max, 3 min, 4 product.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint outer, reduced, inner, op; } p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.outer * p.inner) return;
  uint o = i / p.inner, in_ = i % p.inner;
  float acc = p.op == 2u ? -3.402823466e38 : p.op == 3u ? 3.402823466e38 : p.op == 4u ? 1.0 : 0.0;
  for (uint r = 0u; r < p.reduced; ++r) {
    float v = x[(o * p.reduced + r) * p.inner + in_];
    if (p.op == 2u) acc = max(acc, v);
    else if (p.op == 3u) acc = min(acc, v);
    else if (p.op == 4u) acc *= v;
    else acc += v;
  }
  y[i] = p.op == 1u ? acc / float(p.reduced) : acc;
}
