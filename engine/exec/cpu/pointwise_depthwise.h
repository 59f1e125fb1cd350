// The CPU backend's placement: a 1x1 convolution whose only reader is a 3x3 depthwise convolution (MobileNet's
// expand-then-filter) runs with it as one oneDNN primitive, the depthwise one a post-op of the 1x1 one, so the
// expanded activations (4.6 MiB in MobileNetV2's third block) never travel through memory whole.
//
// The graph the user sees and writes keeps both TensorFlow nodes; only the placed graph the CPU runs has the
// _FusedPointwiseDepthwise node, under the depthwise node's name (its readers and fetches are unchanged), timed as
// one. Where oneDNN cannot fuse a pair (its pads, this machine), the node runs the two kernels one after the other.
#pragma once

#include <memory>

#include "exec/backend.h"
#include "exec/kernel.h"

namespace flowscope {

inline constexpr const char* kPointwiseDepthwiseOp = "_FusedPointwiseDepthwise";

/// `placement.graph` with every such pair replaced by one fused node, its schema and kernel added to `placement`,
/// where the 1x1 output is known to be at least 4 MiB (below that, oneDNN's fused kernel is the slower). Pairs whose
/// 1x1 output is fetched, read elsewhere or a control input stay as they are.
void fusePointwiseDepthwise(Placement& placement, const PlacementRequest& request);

/// The fused node's kernel from the two nodes it replaced. Its inputs: the 1x1 node's (input, filter, bias), then
/// the depthwise node's after its first (filter, bias).
std::unique_ptr<OpKernel> makePointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise);

}  // namespace flowscope
