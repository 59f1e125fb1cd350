#version 450
// Softmax (or LogSoftmax) over the last axis, one row per invocation.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint rows, cols, logSoftmax; } p;

void main() {
  uint row = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (row >= p.rows) return;
  uint base = row * p.cols;
  float m = -3.402823466e38;
  for (uint j = 0u; j < p.cols; ++j) m = max(m, x[base + j]);
  float sum = 0.0;
  for (uint j = 0u; j < p.cols; ++j) sum += exp(x[base + j] - m);
  for (uint j = 0u; j < p.cols; ++j)
    y[base + j] = p.logSoftmax != 0u ? x[base + j] - m - log(sum) : exp(x[base + j] - m) / sum;
}
