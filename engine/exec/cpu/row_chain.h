// The CPU backend's placement: two fused nodes whose kernels can pass rows run as one. The first (a RowProducer:
// the NCHW-input stem, transpose_conv.h) writes any rows of its output on the calling thread; the second (a
// RowConsumer: the depthwise + 1x1 kernel, depthwise_pointwise.h) reads its input in bands of rows and pulls each
// band's rows from the first into the thread's buffer while it is in cache. The first's output (1.6 MiB in
// MobileNetV2's stem, which a run's other tensors push out to DRAM before the next node reads it) never goes through
// memory whole.
//
// The graph the user sees and writes keeps every node; only the placed graph the CPU runs has the _FusedRowChain
// node, under the second node's name, timed as one. Where the two kernels cannot pass rows for a case, the node runs
// them one after the other.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "exec/backend.h"
#include "exec/kernel.h"

namespace flowscope {

inline constexpr const char* kRowChainOp = "_FusedRowChain";

/// A kernel whose output rows (NHWC, counted over the batch) can be made a few at a time.
class RowProducer {
 public:
  virtual ~RowProducer() = default;
  /// The float32 output's shape for these inputs, where produceRows takes them; nullopt where it does not.
  virtual std::optional<Shape> producedShape(const std::vector<Tensor>& inputs) = 0;
  /// Output rows [begin, end) into `out`, which holds the first, on the calling thread (after producedShape).
  virtual void produceRows(const std::vector<Tensor>& inputs, int64_t begin, int64_t end, float* out) const = 0;
  /// The FLOPs of the whole output.
  virtual int64_t producedFlops() const = 0;
};

/// A kernel that can read its first input's rows from a RowProducer instead of a tensor.
class RowConsumer {
 public:
  virtual ~RowConsumer() = default;
  /// Computes ctx's outputs, ctx.inputs being the producer's inputs (`producerInputs`), then this kernel's after its
  /// first, which the producer makes with shape `produced`. False, with nothing written, where it cannot.
  virtual bool computeFrom(KernelContext& ctx, const std::vector<Tensor>& producerInputs, RowProducer& producer,
                           const Shape& produced) = 0;
};

/// `placement.graph` with each _FusedTransposeConv2D whose output (at least 1 MiB) only a _FusedDepthwisePointwise
/// reads fused with it into one node; pairs whose middle tensor is fed, fetched or read elsewhere stay apart.
void fuseRowChains(Placement& placement, const PlacementRequest& request);

/// The chain's kernel: `first` (taking the first `firstArity` inputs) then `second`, rows passed where they can be.
std::unique_ptr<OpKernel> makeRowChainKernel(const Node& first, const Node& second, std::unique_ptr<OpKernel> a,
                                             std::unique_ptr<OpKernel> b);

}  // namespace flowscope
