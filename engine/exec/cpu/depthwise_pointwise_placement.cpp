// Finding the depthwise + 1x1 pairs of a placed graph and putting one fused node in their place
// (depthwise_pointwise.h).
#include <set>

#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/depthwise_pointwise.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/placement_util.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"

namespace flowscope {
namespace {

// Below this the depthwise output stays in cache between the two kernels anyway.
constexpr int64_t kMinFusedBytes = int64_t{1} << 20;

bool squareDepthwiseFilter(const Tensor* filter) {
  if (!filter || filter->shape().rank() != 4 || filter->shape().dim(3) != 1) return false;
  const int64_t k = filter->shape().dim(0);
  return (k == 3 || k == 5) && filter->shape().dim(1) == k;
}

// A 1x1 _FusedConv2D at stride 1 with a bias, its fused Add and activation ones the fused kernel applies.
bool pointwiseProjection(const Graph& graph, const Node& pw) {
  if (pw.op != "_FusedConv2D" || !floatNhwc(pw) || pw.inputs.size() < 3 || attrBool(pw, kBlockedOutputAttr, false) ||
      attrInts(pw, "strides") != std::vector<int64_t>{1, 1, 1, 1})
    return false;
  const auto spec = parseFusedOps(pw);
  if (!spec || !spec->bias || spec->batchNorm || spec->prelu ||
      (!spec->activation.empty() && spec->activation != "Relu" && spec->activation != "Relu6"))
    return false;
  const Tensor* filter = constantInput(graph, pw.inputs[1]);
  return filter && filter->shape().rank() == 4 && filter->shape().dim(0) == 1 && filter->shape().dim(1) == 1;
}

// The index of the depthwise node that the 1x1 node at `p` fuses with, or -1.
int64_t depthwiseOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& pinned, size_t p) {
  const Node& pw = graph.node(p);
  if (!DepthwiseBandRows::runsHere() || !pointwiseProjection(graph, pw) || pw.inputs[0].index != 0) return -1;
  const int64_t d = graph.find(pw.inputs[0].node);
  if (d < 0) return -1;
  const Node& dw = graph.node(static_cast<size_t>(d));
  if (!fusedDepthwise(dw) || !fusedWithBiasOnly(dw) || !floatNhwc(dw) || dw.inputs.size() != 3 ||
      pinned.count(dw.name) || soleReaderOfOutput0(graph, fanout, static_cast<size_t>(d)) != static_cast<int64_t>(p))
    return -1;
  const std::vector<int64_t> dilations = attrInts(dw, "dilations");
  if (!dilations.empty() && dilations != std::vector<int64_t>{1, 1, 1, 1}) return -1;
  // The fused kernel reads NHWC only (a blocked output chosen by an earlier placement step would not be).
  const int64_t source = graph.find(dw.inputs[0].node);
  if (source >= 0 && attrBool(graph.node(static_cast<size_t>(source)), kBlockedOutputAttr, false)) return -1;
  return squareDepthwiseFilter(constantInput(graph, dw.inputs[1])) ? d : -1;
}

}  // namespace

void fuseDepthwisePointwise(Placement& placement, const PlacementRequest& request) {
  PairFusion fusion;
  fusion.op = floatOpDef(kDepthwisePointwiseOp,
                         "A depthwise convolution and the 1x1 convolution reading it, run in bands of rows that stay "
                         "in cache",
                         {"input", "depthwise_filter", "depthwise_bias", "pointwise_filter", "pointwise_args"});
  fusion.firstAttr = "depthwise";
  fusion.minMiddleBytes = kMinFusedBytes;
  fusion.firstOf = depthwiseOf;
  fusion.kernel = makeDepthwisePointwiseKernel;
  fusePairs(placement, request, fusion);
}

}  // namespace flowscope
