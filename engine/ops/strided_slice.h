// StridedSlice semantics (masks, ellipsis, new axes, shrink, negative strides), shared by shape inference
// and the CPU kernel so both agree.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "ir/shape.h"

namespace flowscope {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, newAxis = 0, shrinkAxis = 0;
};

/// Per input dim: where the slice starts, its stride and how many elements it takes (-1 if unknown).
struct StridedSlicePlan {
  std::vector<int64_t> begin, stride, size;
  std::vector<int64_t> outputShape;  ///< after new axes are inserted and shrunk dims removed
};

/// `input` may have unknown dims (sizes then come out -1). Errors follow TensorFlow's messages in spirit.
Expected<StridedSlicePlan> planStridedSlice(const Shape& input, const std::vector<int64_t>& begin,
                                            const std::vector<int64_t>& end, const std::vector<int64_t>& strides,
                                            const StridedSliceMasks& masks);

}  // namespace flowscope
