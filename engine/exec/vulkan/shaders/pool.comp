#version 450
// NHWC max or average pooling (average over the window's valid positions, as TensorFlow does).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params {
  uint N, H, W, C, KH, KW, OH, OW, strideH, strideW;
  int padTop, padLeft;
  uint isMax;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.N * p.OH * p.OW * p.C) return;
  uint c = i % p.C, ow = (i / p.C) % p.OW, oh = (i / (p.C * p.OW)) % p.OH, n = i / (p.C * p.OW * p.OH);
  float acc = p.isMax != 0u ? -3.402823466e38 : 0.0;
  uint count = 0u;
  for (uint kh = 0u; kh < p.KH; ++kh) {
    int ih = int(oh * p.strideH + kh) - p.padTop;
    if (ih < 0 || ih >= int(p.H)) continue;
    for (uint kw = 0u; kw < p.KW; ++kw) {
      int iw = int(ow * p.strideW + kw) - p.padLeft;
      if (iw < 0 || iw >= int(p.W)) continue;
      float v = x[((n * p.H + uint(ih)) * p.W + uint(iw)) * p.C + c];
      acc = p.isMax != 0u ? max(acc, v) : acc + v;
      ++count;
    }
  }
  y[i] = p.isMax != 0u ? acc : acc / float(max(count, 1u));
}
