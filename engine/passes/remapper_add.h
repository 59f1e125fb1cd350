// The remapper's Contraction + BiasAdd + Add [+ activation] fusion (Grappler's ContractionWithBiasAddAndAdd on
// oneDNN CPUs): a residual connection joins the convolution before it.
#pragma once

#include <cstdint>

#include "passes/pass.h"

namespace flowscope {

/// Rewrites every `_FusedConv2D(x, w, bias; fused_ops=[BiasAdd])` read only by an Add (Add, AddV2 or onnx::Add) of
/// a second tensor of the very same static shape, and the activation after that Add if it alone reads it, into
/// `_FusedConv2D(x, w, bias, addend; fused_ops=[BiasAdd, Add(, activation)], num_args=2)` under the last node's
/// name. Returns how many it fused.
int64_t fuseConvolutionAdds(Graph& graph, const PassContext& context);

}  // namespace flowscope
