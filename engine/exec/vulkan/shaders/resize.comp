#version 450
// NHWC ResizeBilinear / ResizeNearestNeighbor as the CPU kernel computes them: source coordinate o*scale, or
// (o+0.5)*scale-0.5 with half-pixel centers; bilinear blends along x first, then y; nearest rounds (align_corners)
// or floors, clamped to the image.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params {
  uint N, H, W, C, OH, OW;
  float scaleH, scaleW;
  uint halfPixel, bilinear, align;
} p;

struct Tap { uint lo, hi; float frac; };

Tap bilinearTap(uint o, uint size, float scale) {
  precise float f = p.halfPixel != 0u ? (float(o) + 0.5) * scale - 0.5 : float(o) * scale;
  f = max(0.0, f);
  Tap t;
  t.lo = min(uint(f), size - 1u);
  t.hi = min(t.lo + 1u, size - 1u);
  t.frac = f - float(t.lo);
  return t;
}

uint nearestTap(uint o, uint size, float scale) {
  precise float f = p.halfPixel != 0u ? (float(o) + 0.5) * scale : float(o) * scale;
  int v = int(p.align != 0u ? floor(f + 0.5) : floor(f));  // f >= 0: std::round is floor(f + 0.5)
  return uint(clamp(v, 0, int(size) - 1));
}

float at(uint n, uint h, uint w, uint c) { return x[((n * p.H + h) * p.W + w) * p.C + c]; }

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.N * p.OH * p.OW * p.C) return;
  uint c = i % p.C, ow = (i / p.C) % p.OW, oh = (i / (p.C * p.OW)) % p.OH, n = i / (p.C * p.OW * p.OH);
  if (p.bilinear == 0u) {
    y[i] = at(n, nearestTap(oh, p.H, p.scaleH), nearestTap(ow, p.W, p.scaleW), c);
    return;
  }
  Tap ty = bilinearTap(oh, p.H, p.scaleH), tx = bilinearTap(ow, p.W, p.scaleW);
  float tl = at(n, ty.lo, tx.lo, c), tr = at(n, ty.lo, tx.hi, c);
  float bl = at(n, ty.hi, tx.lo, c), br = at(n, ty.hi, tx.hi, c);
  float top = tl + (tr - tl) * tx.frac, bottom = bl + (br - bl) * tx.frac;
  y[i] = top + (bottom - top) * ty.frac;
}
