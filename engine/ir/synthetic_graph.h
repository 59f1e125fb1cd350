// Synthetic TensorFlow-like graphs for scale tests and benchmarks: convolution units (frozen weights read through
// Identity, Conv2D, BiasAdd, inference FusedBatchNorm, Relu) nested in name scopes, with a residual Add per block.
#pragma once

#include <cstddef>

#include "ir/graph.h"

namespace flowscope {

struct SyntheticGraphOptions {
  size_t nodes = 1000;  ///< approximate node count (whole units are generated)
  int depth = 3;        ///< name-scope levels above each unit (stage/block/...)
  int channels = 8;
  int spatial = 8;  ///< height and width of the feature maps
};

/// A valid, runnable graph: input "input" [1, spatial, spatial, channels] float32, output "output".
Graph makeSyntheticGraph(const SyntheticGraphOptions& options);

}  // namespace flowscope
