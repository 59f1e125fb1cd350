// Finding the convolution + max pool pairs of a placed graph and putting one fused node in their place
// (conv_max_pool.h).
#include <set>

#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_max_pool.h"
#include "exec/cpu/placement_util.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"

namespace flowscope {
namespace {

// Below this the convolution's output stays in cache between the two kernels anyway.
constexpr int64_t kMinFusedBytes = int64_t{1} << 20;

// The index of the convolution that the max pool at `p` fuses with, or -1.
int64_t convolutionOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& pinned, size_t p) {
  const Node& pool = graph.node(p);
  if (pool.op != "MaxPool" || !floatNhwc(pool) || pool.inputs.size() != 1 || pool.inputs[0].index != 0) return -1;
  const int64_t c = graph.find(pool.inputs[0].node);
  if (c < 0) return -1;
  const Node& conv = graph.node(static_cast<size_t>(c));
  if (conv.op != "_FusedConv2D" || !fusedWithBiasOnly(conv) || !floatNhwc(conv) || conv.inputs.size() != 3 ||
      attrBool(conv, "_winograd", false) || attrBool(conv, kBlockedOutputAttr, false) || pinned.count(conv.name) ||
      soleReaderOfOutput0(graph, fanout, static_cast<size_t>(c)) != static_cast<int64_t>(p))
    return -1;
  const int64_t source = graph.find(conv.inputs[0].node);  // the fused kernel reads NHWC only
  if (source >= 0 && attrBool(graph.node(static_cast<size_t>(source)), kBlockedOutputAttr, false)) return -1;
  return c;
}

}  // namespace

void fuseConvMaxPool(Placement& placement, const PlacementRequest& request) {
  PairFusion fusion;
  fusion.op =
      floatOpDef(kConvMaxPoolOp, "A convolution and the max pool reading it, run in bands of rows that stay in cache",
                 {"input", "filter", "bias"});
  fusion.firstAttr = "convolution";
  fusion.minMiddleBytes = kMinFusedBytes;
  fusion.keepsBlockedOutput = true;
  fusion.firstOf = convolutionOf;
  fusion.kernel = makeConvMaxPoolKernel;
  fusePairs(placement, request, fusion);
}

}  // namespace flowscope
