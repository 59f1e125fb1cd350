// The CPU backend's placement: a 1x1 convolution whose only reader is a 3x3 depthwise convolution (MobileNet's
// expand-then-filter) runs with it as one node, so the expanded activations (4.6 MiB in MobileNetV2's third block)
// never travel through memory whole. The node goes in bands of rows (oneDNN's 1x1 convolution into a per-thread
// buffer, a depthwise kernel from it: ours on AVX-512, oneDNN's elsewhere, depthwise_band_rows.h); where the bands
// cannot take a case (or FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0 without AVX-512) it is one oneDNN primitive, the
// depthwise convolution a post-op of the 1x1 one.
//
// The graph the user sees and writes keeps both TensorFlow nodes; only the placed graph the CPU runs has the
// _FusedPointwiseDepthwise node, under the depthwise node's name (its readers and fetches are unchanged), timed as
// one. Where neither fused form takes a pair (its pads, this machine), the node runs the two kernels one after the
// other.
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
/// the depthwise node's after its first (filter, bias). It runs the pair in bands of rows where it can
/// (pointwise_depthwise_bands.cpp), else as one oneDNN primitive, else as the two nodes' kernels.
std::unique_ptr<OpKernel> makePointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise);

/// The banded kernel, which hands the cases it cannot take to `otherwise`.
std::unique_ptr<OpKernel> makeBandedPointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise,
                                                             std::unique_ptr<OpKernel> otherwise);

}  // namespace flowscope
