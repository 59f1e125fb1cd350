// Finding the NCHW-input transpose + convolution pairs of a placed graph and putting one fused node in their place
// (transpose_conv.h).
#include <set>

#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/cpu_features.h"
#include "exec/cpu/nchw_input_conv.h"
#include "exec/cpu/placement_util.h"
#include "exec/cpu/transpose_conv.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"

namespace flowscope {
namespace {

// A filter nchw_input_conv takes: [kh, kw, C, OC], kh and kw 1 to kMaxWindow, C 1-4, OC a multiple of 16 up to 64.
bool smallInputFilter(const Tensor* filter) {
  if (!filter || filter->dtype() != DType::kFloat || filter->shape().rank() != 4) return false;
  const auto& d = filter->shape().dims();
  return d[0] >= 1 && d[0] <= kMaxWindow && d[1] >= 1 && d[1] <= kMaxWindow && d[2] >= 1 && d[2] <= 4 &&
         d[3] % 16 == 0 && d[3] >= 16 && d[3] <= 64;
}

bool toChannelsLast(const Graph& graph, const Node& node) {
  if (node.op != "Transpose" || node.inputs.size() != 2) return false;
  const Tensor* perm = constantInput(graph, node.inputs[1]);
  return perm && intValues(*perm) == std::vector<int64_t>{0, 2, 3, 1};
}

// The index of the transpose that the convolution at `c` fuses with, or -1.
int64_t transposeOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& pinned, size_t c) {
  const Node& conv = graph.node(c);
  if (!cpuHasAvx512() || conv.op != "_FusedConv2D" || !fusedWithBiasOnly(conv) || !floatNhwc(conv) ||
      conv.inputs.size() != 3 || conv.inputs[0].index != 0 || attrBool(conv, kBlockedOutputAttr, false) ||
      !smallInputFilter(constantInput(graph, conv.inputs[1])))
    return -1;
  const std::vector<int64_t> dilations = attrInts(conv, "dilations");
  if (!dilations.empty() && dilations != std::vector<int64_t>{1, 1, 1, 1}) return -1;
  const int64_t t = graph.find(conv.inputs[0].node);
  if (t < 0) return -1;
  const Node& transpose = graph.node(static_cast<size_t>(t));
  if (!toChannelsLast(graph, transpose) || pinned.count(transpose.name) ||
      soleReaderOfOutput0(graph, fanout, static_cast<size_t>(t)) != static_cast<int64_t>(c))
    return -1;
  return t;
}

}  // namespace

void fuseTransposeConv(Placement& placement, const PlacementRequest& request) {
  PairFusion fusion;
  fusion.op = floatOpDef(kTransposeConvOp,
                         "A transpose of an NCHW input to NHWC and the convolution reading it, run as a convolution "
                         "that reads the NCHW input",
                         {"input", "perm", "filter", "bias"});
  fusion.firstAttr = "transpose";
  fusion.firstOf = transposeOf;
  fusion.kernel = makeTransposeConvKernel;
  fusePairs(placement, request, fusion);
}

}  // namespace flowscope
