// The CPU backend's placement: a convolution whose only reader is a max pool (the stem of ResNets: 7x7 stride 2,
// then a 3x3 stride-2 pool) runs with it as one node, in bands of rows, so the convolution's output (3 MiB in
// ResNet-18, more than a core's L2) never travels through memory whole: the pool reads each band while it is in
// cache.
//
// The graph the user sees and writes keeps both nodes; only the placed graph the CPU runs has the
// _FusedConv2DMaxPool node, under the pool's name (its readers and fetches are unchanged), timed as one. Where the
// fused kernel cannot take a case, the node runs the two kernels one after the other.
#pragma once

#include <memory>

#include "exec/backend.h"
#include "exec/kernel.h"

namespace flowscope {

inline constexpr const char* kConvMaxPoolOp = "_FusedConv2DMaxPool";

/// `placement.graph` with each such pair replaced by one fused node, its schema and kernel added to `placement`:
/// a _FusedConv2D with a bias and at most a ReLU or ReLU6 on float32 NHWC, not marked for Winograd, whose output
/// (at least 1 MiB) only a MaxPool reads. Pairs whose convolution output is fed, fetched or read elsewhere stay.
/// Runs after placeBlockedLayouts: the pool's choice of a blocked output carries over to the fused node.
void fuseConvMaxPool(Placement& placement, const PlacementRequest& request);

/// The fused node's kernel from the two nodes it replaced; its inputs are the convolution's.
std::unique_ptr<OpKernel> makeConvMaxPoolKernel(const Node& conv, const Node& pool);

}  // namespace flowscope
