// Broadcast planning.
#include "exec/cpu/broadcast.h"

#include <algorithm>

namespace flowscope {

bool planBroadcast(const std::vector<Shape>& inputs, Shape* out, BroadcastPlan* plan) {
  size_t rank = 0;
  for (const auto& s : inputs) rank = std::max(rank, s.dims().size());
  std::vector<int64_t> dims(rank, 1);
  // Right-align every input; each dim pair must be equal or 1.
  std::vector<std::vector<int64_t>> aligned;
  for (const auto& s : inputs) {
    std::vector<int64_t> a(rank, 1);
    std::copy(s.dims().begin(), s.dims().end(), a.begin() + static_cast<long>(rank - s.dims().size()));
    for (size_t d = 0; d < rank; ++d) {
      if (a[d] == dims[d] || a[d] == 1) continue;
      if (dims[d] != 1) return false;
      dims[d] = a[d];
    }
    aligned.push_back(std::move(a));
  }
  *out = Shape(dims);
  // Collapse adjacent dims when every input is either full in both or broadcast in both.
  std::vector<int64_t> cdims;
  std::vector<std::vector<bool>> cfull(inputs.size());
  for (size_t d = 0; d < rank; ++d) {
    if (dims[d] == 1) continue;  // size-1 output dims contribute nothing
    bool merge = !cdims.empty();
    for (size_t k = 0; k < inputs.size() && merge; ++k) merge = cfull[k].back() == (aligned[k][d] != 1);
    if (merge) {
      cdims.back() *= dims[d];
    } else {
      cdims.push_back(dims[d]);
      for (size_t k = 0; k < inputs.size(); ++k) cfull[k].push_back(aligned[k][d] != 1);
    }
  }
  plan->dims = cdims;
  plan->total = 1;
  for (int64_t d : dims) plan->total *= d;
  plan->strides.assign(inputs.size(), std::vector<int64_t>(cdims.size(), 0));
  for (size_t k = 0; k < inputs.size(); ++k) {
    int64_t stride = 1;
    for (size_t d = cdims.size(); d-- > 0;) {
      if (cfull[k][d]) {
        plan->strides[k][d] = stride;
        stride *= cdims[d];
      }
    }
  }
  return true;
}

}  // namespace flowscope
