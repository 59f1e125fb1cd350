// The CPU backend's placement: an ONNX vision model's input goes through a transpose to channels-last (the
// channels-last pass's `to_nhwc`) on its way to the first convolution. Where that convolution has at most four input
// channels and the transpose is its input's only use, the two run as one node whose kernel (nchw_input_conv.h)
// reads the NCHW image itself: the transposed copy of the image is never written or read back.
//
// The graph the user sees and writes keeps both nodes; only the placed graph the CPU runs has the
// _FusedTransposeConv2D node, under the convolution's name (its readers and fetches are unchanged), timed as one.
// Where the fused kernel cannot take a case, the node runs the two kernels one after the other.
#pragma once

#include <memory>

#include "exec/backend.h"
#include "exec/kernel.h"

namespace flowscope {

inline constexpr const char* kTransposeConvOp = "_FusedTransposeConv2D";

/// `placement.graph` with each such pair replaced by one fused node, its schema and kernel added to `placement`: a
/// Transpose with a constant perm [0, 2, 3, 1] whose output only a float32 NHWC _FusedConv2D reads, the convolution
/// with a constant [kh, kw, C, OC] filter (at most 5x5, C at most 4, OC 16, 32, 48 or 64, undilated), a bias and at
/// most a ReLU or ReLU6, on a machine with AVX-512. A transpose that is fed or fetched stays.
void fuseTransposeConv(Placement& placement, const PlacementRequest& request);

/// The fused node's kernel from the two nodes it replaced. Its inputs: the transpose's (input, perm), then the
/// convolution's filter and bias.
std::unique_ptr<OpKernel> makeTransposeConvKernel(const Node& transpose, const Node& conv);

}  // namespace flowscope
