#version 450
// Strided copy over an iteration space of rank <= 5:
//   out[outOffset + c.outStride] = in[inOffset + (c - padBefore).inStride],
// or padValue where c - padBefore leaves the input. Transpose (permuted input strides), Slice (offset), Pad
// (padBefore, input dims) and Concat (one dispatch per input, offset output) are all this.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Params {
  uint rank, count, inOffset, outOffset;
  float padValue;
  uint dims[5];
  uint inStride[5];
  uint outStride[5];
  uint padBefore[5];
  uint inDims[5];
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.count) return;
  uint rest = i, io = p.inOffset, oo = p.outOffset;
  bool inside = true;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint coord = rest % p.dims[d];
    rest /= p.dims[d];
    oo += coord * p.outStride[d];
    int ic = int(coord) - int(p.padBefore[d]);
    if (ic < 0 || ic >= int(p.inDims[d])) inside = false;
    else io += uint(ic) * p.inStride[d];
  }
  y[oo] = inside ? x[io] : p.padValue;
}
