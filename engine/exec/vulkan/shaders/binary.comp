#version 450
// Elementwise binary ops with NumPy broadcasting (rank <= 5): a stride of 0 repeats a broadcast dimension.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params {
  uint op, count, rank;
  uint dims[5];
  uint strideA[5];
  uint strideB[5];
} p;

// x^y as C's pow: GLSL's pow is undefined for x < 0, so a negative base takes an integer exponent's sign (x^2 of a
// negative x is positive, x^3 negative) and gives NaN for any other exponent; 0^y and 1^y as C's.
float power(float x, float y) {
  if (x >= 0.0) return x == 0.0 ? (y == 0.0 ? 1.0 : y > 0.0 ? 0.0 : 1.0 / 0.0) : pow(x, y);
  if (floor(y) != y) return uintBitsToFloat(0x7fc00000u);
  float magnitude = pow(-x, y);
  return mod(y, 2.0) == 1.0 ? -magnitude : magnitude;
}

float apply(float x, float y) {
  switch (p.op) {
    case 0u: return x + y;
    case 1u: return x - y;
    case 2u: return x * y;
    case 3u: return x / y;
    case 4u: return max(x, y);
    case 5u: return min(x, y);
    case 6u: return (x - y) * (x - y);
    case 7u: return power(x, y);
  }
  return 0.0;
}

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  uint rest = i, ia = 0u, ib = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint coord = rest % p.dims[d];
    rest /= p.dims[d];
    ia += coord * p.strideA[d];
    ib += coord * p.strideB[d];
  }
  c[i] = apply(a[ia], b[ib]);
}
