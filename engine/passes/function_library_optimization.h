// Function library optimization, as Grappler's meta-optimizer does it after the main graph: the pass pipeline over
// the body of every function the graph reaches (If and Loop branches, While bodies, calls), each body as a graph of
// its own with an _Arg per input and a _Retval per output, both kept. An ONNX model whose network sits inside an
// If's branch (Silero VAD) gets the same fusions, folding and channels-last convolutions as a top-level one.
#pragma once

#include "passes/pass_manager.h"

namespace flowscope {

struct LibraryOptimization {
  FunctionLibrary library;  ///< the graph's library with the optimized bodies
  PassStats stats;          ///< "functions_optimized", "body_nodes_before"/"_after", and "<pass>.<stat>" summed
  bool changed = false;
};

/// Optimizes the bodies of the functions `graph` reaches with `options`' passes (nested bodies included; functions
/// with attr placeholders or list arguments stay as they are). A body whose pipeline fails keeps its old body.
Expected<LibraryOptimization> optimizeFunctionLibrary(const Graph& graph, const PipelineOptions& options);

}  // namespace flowscope
