// Finding the 1x1 + depthwise pairs of a placed graph and putting one fused node in their place
// (pointwise_depthwise.h). A pair: a _FusedConv2D with a constant [1, 1, C, OC] filter, stride 1 and a bias, read
// only by a _FusedDepthwiseConv2dNative with a constant [3, 3, OC, 1] filter, equal strides of 1 or 2 and a bias;
// both NHWC float32 with a bias and at most a ReLU or ReLU6 (so each has three inputs).
#include <set>

#include "exec/cpu/placement_util.h"
#include "exec/cpu/pointwise_depthwise.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"

namespace flowscope {
namespace {

// oneDNN 2.6's fused kernel wins only where the 1x1 output is large: MobileNetV2's 4.6 MiB one in its third block
// took 638 us fused against 886 us as two kernels at 1 thread (370 against 495 at 2); at 1.7 MiB (the fourth
// block) fused lost, 571 against 425, as did every smaller pair, in the same alternating runs. The banded form
// (pointwise_depthwise_bands.cpp) at 1 MiB, on a Zen 2 host: features.3's pair 541 + its projection 240 us against
// 308 + 462 (the depthwise then fused with the projection), features.4's 354 against 350: no gain, so 4 MiB for both.
constexpr int64_t kMinFusedMiddleBytes = int64_t{4} << 20;

bool filterShaped(const Graph& graph, const Node& node, const Shape& want) {
  const Tensor* filter = node.inputs.size() > 1 ? constantInput(graph, node.inputs[1]) : nullptr;
  return filter && filter->shape() == want;
}

// The index of the 1x1 node that `depthwise` (at index d) fuses with, or -1. `fetched`: nodes fed or fetched.
int64_t pointwiseOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& fetched, size_t d) {
  const Node& dw = graph.node(d);
  if (!fusedDepthwise(dw) || !fusedWithBiasOnly(dw) || !floatNhwc(dw) || dw.inputs.size() != 3) return -1;
  const std::vector<int64_t> strides = attrInts(dw, "strides"), dilations = attrInts(dw, "dilations");
  if (strides.size() != 4 || strides[1] != strides[2] || strides[1] < 1 || strides[1] > 2 ||
      (!dilations.empty() && dilations != std::vector<int64_t>{1, 1, 1, 1}))
    return -1;
  const int64_t p = dw.inputs[0].index == 0 ? graph.find(dw.inputs[0].node) : -1;
  if (p < 0) return -1;
  const Node& pw = graph.node(static_cast<size_t>(p));
  if (pw.op != "_FusedConv2D" || !fusedWithBiasOnly(pw) || !floatNhwc(pw) || pw.inputs.size() != 3 ||
      attrInts(pw, "strides") != std::vector<int64_t>{1, 1, 1, 1} || fetched.count(pw.name) ||
      fanout.dataUses(static_cast<size_t>(p)) != 1 || fanout.controlUses(static_cast<size_t>(p)) != 0)
    return -1;
  const Tensor* pwFilter = constantInput(graph, pw.inputs[1]);
  if (!pwFilter || pwFilter->shape().rank() != 4 || pwFilter->shape().dim(0) != 1 || pwFilter->shape().dim(1) != 1)
    return -1;
  return filterShaped(graph, dw, Shape{3, 3, pwFilter->shape().dim(3), 1}) ? p : -1;
}

}  // namespace

void fusePointwiseDepthwise(Placement& placement, const PlacementRequest& request) {
  PairFusion fusion;
  fusion.op = floatOpDef(kPointwiseDepthwiseOp,
                         "A 1x1 convolution and the 3x3 depthwise convolution reading it, run as one oneDNN primitive",
                         {"input", "pointwise_filter", "pointwise_bias", "depthwise_filter", "depthwise_bias"});
  fusion.firstAttr = "pointwise";
  fusion.minMiddleBytes = kMinFusedMiddleBytes;
  fusion.firstOf = pointwiseOf;
  fusion.kernel = makePointwiseDepthwiseKernel;
  fusePairs(placement, request, fusion);
}

}  // namespace flowscope
