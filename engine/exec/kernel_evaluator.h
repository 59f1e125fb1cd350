// KernelEvaluator: the fallback (CPU) backend's kernels behind the NodeEvaluator interface, for constant folding.
#pragma once

#include "ir/node_evaluator.h"

namespace flowscope {

/// Evaluates nodes with the backend table's fallback (CPU) kernels. Shared and thread-safe.
const NodeEvaluator& kernelEvaluator();

}  // namespace flowscope
