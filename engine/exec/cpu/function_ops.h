// Kernels that call library functions: If / StatelessIf, While / StatelessWhile, Case, PartitionedCall,
// StatefulPartitionedCall, and nodes whose op is a library function's name.
#pragma once

#include <memory>

#include "exec/kernel.h"

namespace flowscope {

/// A kernel for a node whose op is a function in the graph's library.
Expected<std::unique_ptr<OpKernel>> makeLibraryCallKernel(const Node& node);

/// TensorFlow's truth of a condition tensor: bools as is, other scalars when non-zero (strings when non-empty),
/// non-scalars when non-empty.
bool tensorIsTrue(const Tensor& t);

}  // namespace flowscope
