// Generic N-d gather by strides: out[i0..in] = src[offset + sum(ik * stride[k])]. Transpose, Slice, StridedSlice,
// Tile and Reverse are all this one loop with different strides. The output's rows (its innermost dimension) are
// shared among the intra-op threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "base/thread_pool.h"

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

/// Copies blocks [blockBegin, blockEnd) of the two innermost dimensions (rank >= 2) with a plain double loop: for
/// rows of a few elements (the channels of an NHWC image, reversed or picked) a row at a time costs more in index
/// updates than in copying.
template <typename T>
void stridedCopyBlocks(const T* src, int64_t offset, const std::vector<int64_t>& srcStrides,
                       const std::vector<int64_t>& dims, T* out, int64_t blockBegin, int64_t blockEnd) {
  const size_t rank = dims.size();
  const int64_t rows = dims[rank - 2], inner = dims[rank - 1];
  const int64_t rowStride = srcStrides[rank - 2], innerStride = srcStrides[rank - 1];
  std::vector<int64_t> index(rank - 2, 0);
  int64_t base = offset, rest = blockBegin;
  for (size_t d = rank - 2; d-- > 0;) {  // the outer coordinates of block `blockBegin`
    index[d] = rest % dims[d];
    rest /= dims[d];
    base += index[d] * srcStrides[d];
  }
  T* o = out + blockBegin * rows * inner;
  for (int64_t block = blockBegin; block < blockEnd; ++block) {
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = src + base + r * rowStride;
      for (int64_t i = 0; i < inner; ++i) *o++ = row[i * innerStride];
    }
    for (size_t d = rank - 2; d-- > 0;) {
      ++index[d];
      base += srcStrides[d];
      if (index[d] < dims[d]) break;
      base -= srcStrides[d] * dims[d];
      index[d] = 0;
    }
  }
}

/// Merges dimensions the source walks as one (stride[d] == stride[d + 1] * dims[d + 1]) and drops size-1 ones, so a
/// slice of a contiguous block copies as one run and a channel of NHWC as one strided loop, not a row per pixel.
inline void coalesceDims(std::vector<int64_t>* dims, std::vector<int64_t>* strides) {
  std::vector<int64_t> d, s;
  for (size_t k = 0; k < dims->size(); ++k) {
    if ((*dims)[k] == 1) continue;
    if (!d.empty() && s.back() == (*strides)[k] * (*dims)[k]) {
      d.back() *= (*dims)[k];
      s.back() = (*strides)[k];
    } else {
      d.push_back((*dims)[k]);
      s.push_back((*strides)[k]);
    }
  }
  if (d.empty()) d = {1}, s = {1};
  *dims = std::move(d);
  *strides = std::move(s);
}

template <typename T>
void stridedCopy(const T* src, int64_t offset, std::vector<int64_t> srcStrides, std::vector<int64_t> dims, T* out) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  if (dims.empty()) {
    out[0] = src[offset];
    return;
  }
  coalesceDims(&dims, &srcStrides);
  if (dims.size() == 1) {  // one run: its elements are shared among the threads
    const int64_t stride = srcStrides[0];
    parallelFor(total, stride == 1 ? 1 : 2, [&](int64_t begin, int64_t end) {
      if (stride == 1)
        std::memcpy(out + begin, src + offset + begin, static_cast<size_t>(end - begin) * sizeof(T));
      else
        for (int64_t i = begin; i < end; ++i) out[i] = src[offset + i * stride];
    });
    return;
  }
  const int64_t inner = dims.back();
  if (inner < 8) {  // short rows: blocks of the two innermost dimensions
    const int64_t block = dims[dims.size() - 2] * inner;
    parallelFor(total / block, block + 4,
                [&](int64_t begin, int64_t end) { stridedCopyBlocks(src, offset, srcStrides, dims, out, begin, end); });
    return;
  }
  const int64_t cost = srcStrides.back() == 1 ? inner / 8 + 4 : inner + 4;  // memcpy rows are cheap per element
  parallelFor(total / inner, cost,
              [&](int64_t begin, int64_t end) { stridedCopyRows(src, offset, srcStrides, dims, out, begin, end); });
}

}  // namespace flowscope
