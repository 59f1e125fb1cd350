// Generic N-d gather by strides: out[i0..in] = src[offset + sum(ik * stride[k])]. Transpose, Slice, StridedSlice,
// Tile and Reverse are all this one loop with different strides. The output's rows (its innermost dimension) are
// shared among the intra-op threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "exec/thread_pool.h"

namespace flowscope {

/// Copies output rows [rowBegin, rowEnd) (rank >= 1).
template <typename T>
void stridedCopyRows(const T* src, int64_t offset, const std::vector<int64_t>& srcStrides,
                     const std::vector<int64_t>& dims, T* out, int64_t rowBegin, int64_t rowEnd) {
  const size_t rank = dims.size();
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = srcStrides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t base = offset, rest = rowBegin;
  for (size_t d = rank - 1; d-- > 0;) {  // the outer coordinates of row `rowBegin`
    index[d] = rest % dims[d];
    rest /= dims[d];
    base += index[d] * srcStrides[d];
  }
  for (int64_t row = rowBegin; row < rowEnd; ++row) {
    T* o = out + row * inner;
    if (innerStride == 1) {
      std::memcpy(o, src + base, static_cast<size_t>(inner) * sizeof(T));
    } else {
      for (int64_t i = 0; i < inner; ++i) o[i] = src[base + i * innerStride];
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

template <typename T>
void stridedCopy(const T* src, int64_t offset, const std::vector<int64_t>& srcStrides, const std::vector<int64_t>& dims,
                 T* out) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  if (dims.empty()) {
    out[0] = src[offset];
    return;
  }
  const int64_t inner = dims.back();
  const int64_t cost = srcStrides.back() == 1 ? inner / 8 + 4 : inner + 4;  // memcpy rows are cheap per element
  parallelFor(total / inner, cost,
              [&](int64_t begin, int64_t end) { stridedCopyRows(src, offset, srcStrides, dims, out, begin, end); });
}

}  // namespace flowscope
