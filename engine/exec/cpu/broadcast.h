// NumPy broadcasting for elementwise kernels: collapses dims and walks the output with per-input strides.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/thread_pool.h"
#include "ir/shape.h"

namespace flowscope {

/// A broadcast of up to three inputs over an output, with adjacent dims merged where possible.
struct BroadcastPlan {
  std::vector<int64_t> dims;                  ///< collapsed output dims
  std::vector<std::vector<int64_t>> strides;  ///< per input, per collapsed dim (0 where broadcast)
  int64_t total = 0;

  /// Calls visit(outIndex, length, inOffset[0..n), innerStride[0..n)) for each run of `length` contiguous output
  /// elements, where input k advances by innerStride[k] per element.
  template <typename Visit>
  void forEachRun(Visit&& visit) const {
    forEachRunIn(0, runCount(), visit);
  }
  /// The same for runs [begin, end) only (runs are the output's rows of the innermost collapsed dim), so threads
  /// can share them.
  template <typename Visit>
  void forEachRunIn(int64_t begin, int64_t end, Visit&& visit) const;
  /// How many runs the output has.
  int64_t runCount() const { return dims.empty() ? (total > 0 ? 1 : 0) : total / std::max<int64_t>(dims.back(), 1); }
  /// The length of every run.
  int64_t runLength() const { return dims.empty() ? 1 : dims.back(); }
};

/// Fails (returns false) when the shapes do not broadcast. `out` receives the output shape.
bool planBroadcast(const std::vector<Shape>& inputs, Shape* out, BroadcastPlan* plan);

/// forEachRun with the runs shared among the intra-op threads (`elementCost` rough operations per element).
template <typename Visit>
void forEachRunInParallel(const BroadcastPlan& plan, int64_t elementCost, Visit&& visit) {
  parallelFor(plan.runCount(), plan.runLength() * elementCost + 2,
              [&](int64_t begin, int64_t end) { plan.forEachRunIn(begin, end, visit); });
}

template <typename Visit>
void BroadcastPlan::forEachRunIn(int64_t begin, int64_t end, Visit&& visit) const {
  const size_t rank = dims.size();
  const size_t n = strides.size();
  if (total == 0 || begin >= end) return;
  int64_t offsets[3] = {0, 0, 0};
  int64_t inner[3] = {0, 0, 0};
  if (rank == 0) {
    visit(int64_t{0}, int64_t{1}, offsets, inner);
    return;
  }
  const int64_t innerLen = dims[rank - 1];
  for (size_t k = 0; k < n; ++k) inner[k] = strides[k][rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t rest = begin;  // the outer coordinates of run `begin`
  for (size_t d = rank - 1; d-- > 0;) {
    index[d] = rest % dims[d];
    rest /= dims[d];
    for (size_t k = 0; k < n; ++k) offsets[k] += index[d] * strides[k][d];
  }
  for (int64_t run = begin; run < end; ++run) {
    visit(run * innerLen, innerLen, offsets, inner);
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
