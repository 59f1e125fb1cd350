// The CPU backend's placement: a depthwise convolution whose only reader is a 1x1 convolution (MobileNet's filter
// then project, with the block's residual Add fused into the projection) runs with it as one node, in bands of rows:
// a depthwise kernel (ours on AVX-512, oneDNN's elsewhere: depthwise_band_rows.h) writes a band into a per-thread
// buffer and oneDNN's 1x1 convolution reads it there while it is in cache, so the depthwise output (1.6-1.8 MiB in
// MobileNetV2's first blocks) never travels through memory whole.
//
// The graph the user sees and writes keeps both nodes; only the placed graph the CPU runs has the
// _FusedDepthwisePointwise node, under the 1x1 node's name (its readers and fetches are unchanged), timed as one.
// Where the fused kernel cannot take a case, the node runs the two kernels one after the other.
#pragma once

#include <memory>

#include "exec/backend.h"
#include "exec/kernel.h"

namespace flowscope {

inline constexpr const char* kDepthwisePointwiseOp = "_FusedDepthwisePointwise";

/// `placement.graph` with each such pair replaced by one fused node, its schema and kernel added to `placement`:
/// a float32 NHWC _FusedDepthwiseConv2dNative with a constant square 3x3 or 5x5 filter, a bias and at most a ReLU or
/// ReLU6, whose output (at least 1 MiB) only a _FusedConv2D with a constant 1x1 filter, stride 1 and a bias reads
/// (its fused Add and activation kept), unless FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0 on a machine without AVX-512. Pairs
/// whose depthwise output is fed, fetched or read elsewhere stay apart.
void fuseDepthwisePointwise(Placement& placement, const PlacementRequest& request);

/// The fused node's kernel from the two nodes it replaced. Its inputs: the depthwise node's (input, filter, bias),
/// then the 1x1 node's after its first (filter, bias, and the addend of a fused Add).
std::unique_ptr<OpKernel> makeDepthwisePointwiseKernel(const Node& depthwise, const Node& pointwise);

}  // namespace flowscope
