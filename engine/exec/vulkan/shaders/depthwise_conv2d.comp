#version 450
// NHWC depthwise convolution, one output element per invocation (+ bias, activation): filter [KH, KW, C, multiplier],
// output channel o reads input channel o / multiplier. (Other convolutions run as an implicit GEMM: conv2d_gemm.comp.)
#extension GL_GOOGLE_include_directive : require
#include "activation.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer W { float w[]; };
layout(std430, binding = 2) readonly buffer Bias { float bias[]; };
layout(std430, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params {
  uint N, H, W, C, KH, KW, OH, OW, OC;
  uint strideH, strideW, dilationH, dilationW;
  int padTop, padLeft;
  uint hasBias, act;
  float alpha;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.N * p.OH * p.OW * p.OC) return;
  uint oc = i % p.OC, ow = (i / p.OC) % p.OW, oh = (i / (p.OC * p.OW)) % p.OH, n = i / (p.OC * p.OW * p.OH);
  uint multiplier = p.OC / p.C, c = oc / multiplier;
  float sum = 0.0;
  for (uint kh = 0u; kh < p.KH; ++kh) {
    int ih = int(oh * p.strideH + kh * p.dilationH) - p.padTop;
    if (ih < 0 || ih >= int(p.H)) continue;
    for (uint kw = 0u; kw < p.KW; ++kw) {
      int iw = int(ow * p.strideW + kw * p.dilationW) - p.padLeft;
      if (iw < 0 || iw >= int(p.W)) continue;
      const float weight = w[((kh * p.KW + kw) * p.C + c) * multiplier + oc % multiplier];
      sum += x[((n * p.H + uint(ih)) * p.W + uint(iw)) * p.C + c] * weight;
    }
  }
  if (p.hasBias != 0u) sum += bias[oc];
  y[i] = activate(sum, p.act, p.alpha);
}
