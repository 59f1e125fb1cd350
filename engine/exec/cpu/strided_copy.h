// Generic N-d gather by strides: out[i0..in] = src[offset + sum(ik * stride[k])]. Transpose, Slice,
// StridedSlice, Tile, Pad and Reverse are all this one loop with different strides.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace flowscope {

template <typename T>
void stridedCopy(const T* src, int64_t offset, const std::vector<int64_t>& srcStrides, const std::vector<int64_t>& dims,
                 T* out) {
  const size_t rank = dims.size();
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  if (rank == 0) {
    out[0] = src[offset];
    return;
  }
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = srcStrides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t base = offset;
  for (int64_t o = 0; o < total; o += inner) {
    if (innerStride == 1) {
      std::memcpy(out + o, src + base, static_cast<size_t>(inner) * sizeof(T));
    } else {
      for (int64_t i = 0; i < inner; ++i) out[o + i] = src[base + i * innerStride];
    }
    for (size_t d = rank - 1; d-- > 0;) {
      ++index[d];
      base += srcStrides[d];
      if (index[d] < dims[d]) break;
      base -= srcStrides[d] * dims[d];
      index[d] = 0;
    }
  }
}

}  // namespace flowscope
