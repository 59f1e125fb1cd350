// StridedSlice planning, after TensorFlow's ValidateStridedSliceOp.
#include "ops/strided_slice.h"

#include <algorithm>

namespace flowscope {
namespace {

struct DenseDim {
  int64_t begin = 0, end = 0, stride = 1;
  bool beginMasked = true, endMasked = true, shrink = false;
};

// One entry of the output: an input dim (index into dense) or a new axis (-1).
using OutputSlot = int;

}  // namespace

Expected<StridedSlicePlan> planStridedSlice(const Shape& input, const std::vector<int64_t>& begin,
                                            const std::vector<int64_t>& end, const std::vector<int64_t>& strides,
                                            const StridedSliceMasks& m) {
  if (input.hasUnknownRank()) return invalidArgument("input rank is unknown");
  const int rank = input.rank();
  const size_t n = begin.size();
  if (end.size() != n || strides.size() != n) return invalidArgument("begin, end and strides must have equal length");
  if ((m.ellipsis & (m.ellipsis - 1)) != 0) return invalidArgument("only one ellipsis may be set in ellipsis_mask");
  int newAxesAfterEllipsis = 0;
  bool seenEllipsis = false;
  for (size_t i = 0; i < n; ++i) {
    if (m.ellipsis & (int64_t{1} << i))
      seenEllipsis = true;
    else if (seenEllipsis && (m.newAxis & (int64_t{1} << i)))
      ++newAxesAfterEllipsis;
  }
  std::vector<DenseDim> dense(static_cast<size_t>(rank));
  std::vector<OutputSlot> slots;
  int full = 0;
  bool hadEllipsis = false;
  for (size_t i = 0; i < n; ++i) {
    int64_t bit = int64_t{1} << i;
    if (m.ellipsis & bit) {
      hadEllipsis = true;
      int64_t explicitAfter = static_cast<int64_t>(n - i - 1) - newAxesAfterEllipsis;
      int next = std::min(rank, static_cast<int>(rank - explicitAfter));
      for (; full < next; ++full) slots.push_back(full);
      continue;
    }
    if (m.newAxis & bit) {
      slots.push_back(-1);
      continue;
    }
    if (full >= rank) return invalidArgument("slice has more dims than the input's rank " + std::to_string(rank));
    if (strides[i] == 0) return invalidArgument("strides must be non-zero");
    DenseDim& d = dense[static_cast<size_t>(full)];
    d = {begin[i], end[i], strides[i], (m.begin & bit) != 0, (m.end & bit) != 0, (m.shrinkAxis & bit) != 0};
    slots.push_back(full++);
  }
  if (!hadEllipsis)
    for (; full < rank; ++full) slots.push_back(full);

  StridedSlicePlan plan;
  for (int k = 0; k < rank; ++k) {
    const DenseDim& d = dense[static_cast<size_t>(k)];
    int64_t dim = input.dim(k);
    int64_t b = 0, size = -1;
    if (d.shrink) {
      b = d.begin;
      if (dim >= 0) {
        if (b < 0) b += dim;
        if (b < 0 || b >= dim)
          return outOfRange("slice index " + std::to_string(d.begin) + " of dim " + std::to_string(k) +
                            " is out of bounds for size " + std::to_string(dim));
      }
      size = 1;
    } else if (dim >= 0) {
      auto norm = [dim](int64_t v) { return v < 0 ? v + dim : v; };
      if (d.stride > 0) {
        b = d.beginMasked ? 0 : std::clamp(norm(d.begin), int64_t{0}, dim);
        int64_t e = d.endMasked ? dim : std::clamp(norm(d.end), int64_t{0}, dim);
        size = std::max<int64_t>(0, (e - b + d.stride - 1) / d.stride);
      } else {
        b = d.beginMasked ? dim - 1 : std::clamp(norm(d.begin), int64_t{-1}, dim - 1);
        int64_t e = d.endMasked ? -1 : std::clamp(norm(d.end), int64_t{-1}, dim - 1);
        size = std::max<int64_t>(0, (b - e + (-d.stride) - 1) / (-d.stride));
      }
    }
    plan.begin.push_back(b);
    plan.stride.push_back(d.stride);
    plan.size.push_back(size);
  }
  for (OutputSlot slot : slots) {
    if (slot < 0)
      plan.outputShape.push_back(1);
    else if (!dense[static_cast<size_t>(slot)].shrink)
      plan.outputShape.push_back(plan.size[static_cast<size_t>(slot)]);
  }
  return plan;
}

}  // namespace flowscope
