// FLOP estimates for the profiler: matrix products and convolutions (2 per multiply-add).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/node.h"

namespace flowscope {

int64_t estimateFlops(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs);
int64_t tensorBytes(const std::vector<Tensor>& tensors);

}  // namespace flowscope
