// The CPU backend's placement of activation layouts. oneDNN's Winograd convolutions run on its blocked nChw16c
// layout (channels in blocks of 16: [N, C/16, H, W, 16]); on NHWC tensors each pays a reorder in and one out, and
// one more for a fused Add's addend: a tenth of ResNet-18's run. Where a tensor's producer and readers mostly want
// the blocked layout, the placed graph keeps it blocked, so a chain of Winograd convolutions (ResNet's stride-1
// blocks) reorders only at its ends. The Winograd convolutions whose products our streamed kernel runs
// (winogradStreamsProducts: ResNet's 14x14 layers) stay on NHWC, for our own Winograd.
//
// A blocked tensor is 5-D, [N, C/16, H, W, 16]: a kernel knows it by its rank. Its producer carries
// kBlockedOutputAttr in the placed graph; the graph the user sees, optimizes and writes is unchanged. Only
// convolutions and poolings the CPU runs through oneDNN read or write blocked tensors, and none is fetched or fed.
#pragma once

#include <cstdint>

#include "exec/backend.h"
#include "ir/shape.h"

namespace flowscope {

inline constexpr const char* kBlockedOutputAttr = "_nchw16c_output";
inline constexpr int64_t kChannelBlock = 16;

/// [N, C/16, H, W, 16] for the NHWC shape [N, H, W, C] (C a multiple of 16).
Shape blockedShape(const Shape& nhwc);
/// The NHWC shape a blocked (5-D) shape stands for; any other shape as it is.
Shape logicalNhwc(const Shape& shape);
inline bool isBlocked(const Shape& shape) { return shape.rank() == 5; }

/// True where oneDNN runs Winograd convolutions here, on the blocked layout (AVX-512 machines).
bool winogradRunsBlocked();

/// Marks the producers whose output tensors are to be blocked in `placement.graph`: a tensor is blocked when more
/// of its producer and readers run on the blocked layout (Winograd convolutions) than on NHWC (direct ones), and
/// every reader is a convolution or pooling that takes either.
void placeBlockedLayouts(Placement& placement, const PlacementRequest& request);

}  // namespace flowscope
