// Kernels that call library functions through the run's FunctionCaller: If / StatelessIf, While / StatelessWhile,
// Case, PartitionedCall, StatefulPartitionedCall, and nodes whose op is a library function's name. They are generic
// (the bodies run on whatever backend the function runtime uses); the CPU backend registers them in its table.
#pragma once

#include <memory>

#include "exec/kernel.h"

namespace flowscope {

class KernelTable;

/// A kernel for a node whose op is a function in the graph's library.
Expected<std::unique_ptr<OpKernel>> makeLibraryCallKernel(const Node& node);

/// Adds the call kernels (If, While, Case, PartitionedCall, ...) to a backend's table.
void registerFunctionCallKernels(KernelTable& table);

}  // namespace flowscope
