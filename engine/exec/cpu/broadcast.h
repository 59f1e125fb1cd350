// NumPy broadcasting for elementwise kernels: collapses dims and walks the output with per-input strides.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/shape.h"

namespace flowscope {

/// A broadcast of up to three inputs over an output, with adjacent dims merged where possible.
struct BroadcastPlan {
  std::vector<int64_t> dims;                  ///< collapsed output dims
  std::vector<std::vector<int64_t>> strides;  ///< per input, per collapsed dim (0 where broadcast)
  int64_t total = 0;

  /// Calls visit(outIndex, inOffset[0..n)) for a run of `length` contiguous output elements, where input k
  /// advances by innerStride[k] per element.
  template <typename Visit>
  void forEachRun(Visit&& visit) const;
};

/// Fails (returns false) when the shapes do not broadcast. `out` receives the output shape.
bool planBroadcast(const std::vector<Shape>& inputs, Shape* out, BroadcastPlan* plan);

template <typename Visit>
void BroadcastPlan::forEachRun(Visit&& visit) const {
  const size_t rank = dims.size();
  const size_t n = strides.size();
  if (total == 0) return;
  if (rank == 0) {
    int64_t offsets[3] = {0, 0, 0};
    int64_t inner[3] = {0, 0, 0};
    visit(int64_t{0}, int64_t{1}, offsets, inner);
    return;
  }
  const int64_t innerLen = dims[rank - 1];
  int64_t inner[3] = {0, 0, 0};
  for (size_t k = 0; k < n; ++k) inner[k] = strides[k][rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t offsets[3] = {0, 0, 0};
  for (int64_t out = 0; out < total; out += innerLen) {
    visit(out, innerLen, offsets, inner);
    for (size_t d = rank - 1; d-- > 0;) {  // odometer over the outer dims
      ++index[d];
      for (size_t k = 0; k < n; ++k) offsets[k] += strides[k][d];
      if (index[d] < dims[d]) break;
      for (size_t k = 0; k < n; ++k) offsets[k] -= strides[k][d] * dims[d];
      index[d] = 0;
    }
  }
}

}  // namespace flowscope
