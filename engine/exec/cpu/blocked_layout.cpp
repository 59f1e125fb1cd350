// Where the CPU keeps activations in oneDNN's blocked layout (blocked_layout.h): each tensor a convolution or
// pooling produces is decided in dependency order by the votes of its producer and readers.
#include "exec/cpu/blocked_layout.h"

#include <set>

#include "exec/cpu/conv_window.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/placement_util.h"
#include "exec/cpu/winograd_nhwc.h"
#include "exec/kernel_util.h"
#include "ir/graph_algorithms.h"
#include "ops/shape_inference.h"

namespace flowscope {

Shape blockedShape(const Shape& nhwc) {
  return Shape{nhwc.dim(0), nhwc.dim(3) / kChannelBlock, nhwc.dim(1), nhwc.dim(2), kChannelBlock};
}

Shape logicalNhwc(const Shape& shape) {
  if (!isBlocked(shape)) return shape;
  return Shape{shape.dim(0), shape.dim(2), shape.dim(3), shape.dim(1) * shape.dim(4)};
}

bool winogradRunsBlocked() {
  static const bool blocked = [] {
    using dnnl::memory;
    const memory::dims act{1, kChannelBlock, 16, 16}, weights{kChannelBlock, kChannelBlock, 3, 3};
    auto any = [](const memory::dims& d) { return memory::desc(d, memory::data_type::f32, memory::format_tag::any); };
    try {
      const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                 dnnl::algorithm::convolution_winograd, any(act), any(weights),
                                                 any(act), {1, 1}, {0, 0}, {1, 1}, {1, 1});
      const dnnl::convolution_forward::primitive_desc pd(desc, dnnl_util::engine());
      return pd.src_desc() == memory::desc(act, memory::data_type::f32, memory::format_tag::nChw16c);
    } catch (const dnnl::error&) {  // no Winograd kernel on this machine
      return false;
    }
  }();
  return blocked;
}

namespace {

enum class Role { kOther, kDirect, kWinograd, kPool };

struct NodeLayout {
  Role role = Role::kOther;
  int addendSlot = -1;  ///< a fused Add's addend input
  bool blockedOutput = false;
};

bool blockableChannels(const TensorInfo* info) {
  return info && info->shape.rank() == 4 && info->shape.isFullyDefined() && info->shape.dim(3) % kChannelBlock == 0;
}

// What shape inference knows of `node`'s first input (the caller checked that its producer is in the graph).
const TensorInfo* firstInput(const Graph& graph, const GraphShapes& shapes, const Node& node) {
  return shapes.find(static_cast<size_t>(graph.find(node.inputs[0].node)), node.inputs[0].index);
}

// A convolution the CPU runs on oneDNN with a bias and activation at most (a batch norm or PRelu epilogue runs in
// C++ on NHWC), with its input and output channels in whole blocks.
NodeLayout convolutionLayout(const Graph& graph, const GraphShapes& shapes, size_t i) {
  const Node& node = graph.node(i);
  auto spec = parseFusedOps(node);
  const Tensor* filter = node.inputs.size() > 1 ? constantInput(graph, node.inputs[1]) : nullptr;
  const TensorInfo* in = firstInput(graph, shapes, node);
  if (!spec || spec->batchNorm || spec->prelu || !filter || filter->shape().rank() != 4 || !blockableChannels(in) ||
      !blockableChannels(shapes.find(i, 0)))
    return {};
  auto window = windowFor(node, in->shape, filter->shape().dim(0), filter->shape().dim(1));
  if (!window) return {};
  const AttrValue* winograd = node.attr("_winograd");
  const bool ours = ownConvEpilogueRuns(*spec) && winograd3x3(*window) &&
                    winogradStreamsProducts(winogradShapeOf(in->shape, filter->shape().dim(3), *window));
  const bool wino = winograd && winograd->kind() == AttrValue::Kind::kBool && winograd->b() &&
                    winogradWindow(*window) && winogradRunsBlocked() && !ours;
  return {wino ? Role::kWinograd : Role::kDirect, spec->addend ? static_cast<int>(2 + spec->addendArg) : -1};
}

NodeLayout layoutRole(const Graph& graph, const GraphShapes& shapes, size_t i) {
  const Node& node = graph.node(i);
  if (!floatNhwc(node) || node.inputs.empty() || graph.find(node.inputs[0].node) < 0) return {};
  if (node.op == "_FusedConv2D" || node.op == "Conv2D") return convolutionLayout(graph, shapes, i);
  if ((node.op == "MaxPool" || node.op == "AvgPool") && node.inputs.size() == 1 &&
      blockableChannels(firstInput(graph, shapes, node)))
    return {Role::kPool};
  return {};
}

class LayoutVote {
 public:
  LayoutVote(const Graph& graph, std::vector<NodeLayout>& layouts) : m_graph(graph), m_layouts(layouts) {}

  // Whether `producer`'s output is to be blocked: false when a reader cannot take it.
  bool blocked(size_t producer, const Fanout& fanout) {
    m_blocked = 0;
    m_nhwc = 0;
    vote(m_layouts[producer].role, producer, true);
    for (const auto& use : fanout.uses(producer)) {
      if (use.slot < 0) continue;  // a control edge carries no data
      const Node& reader = m_graph.node(use.node);
      const NodeLayout& r = m_layouts[use.node];
      if (reader.inputs[static_cast<size_t>(use.slot)].index != 0 || r.role == Role::kOther) return false;
      if (use.slot != 0 && use.slot != r.addendSlot) return false;  // a filter or bias
      vote(r.role, use.node, false);
    }
    return m_blocked > m_nhwc;
  }

 private:
  // A Winograd convolution works on the blocked layout, a direct one on NHWC; a pooling on its input's.
  void vote(Role role, size_t node, bool producing) {
    if (role == Role::kPool && !producing) return;  // it follows its input at no cost
    const bool blocked = role == Role::kWinograd || (role == Role::kPool && inputBlocked(node));
    ++(blocked ? m_blocked : m_nhwc);
  }

  bool inputBlocked(size_t node) const {
    const int64_t p = m_graph.find(m_graph.node(node).inputs[0].node);
    return p >= 0 && m_layouts[static_cast<size_t>(p)].blockedOutput;
  }

  const Graph& m_graph;
  std::vector<NodeLayout>& m_layouts;
  int m_blocked = 0, m_nhwc = 0;
};

}  // namespace

void placeBlockedLayouts(Placement& placement, const PlacementRequest& request) {
  Graph& graph = placement.graph;
  if (!winogradRunsBlocked()) return;
  bool anyWinograd = false;
  for (size_t i = 0; i < graph.size() && !anyWinograd; ++i) anyWinograd = graph.node(i).attr("_winograd") != nullptr;
  if (!anyWinograd) return;
  const GraphShapes shapes = inferShapes(graph);
  std::vector<NodeLayout> layouts(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) layouts[i] = layoutRole(graph, shapes, i);
  const std::set<std::string> pinned = pinnedNodes(request);  // fed and fetched tensors stay NHWC
  const Fanout fanout(graph);
  LayoutVote vote(graph, layouts);
  for (size_t i : topologicalOrder(graph)) {
    if (layouts[i].role == Role::kOther || pinned.count(graph.node(i).name)) continue;
    layouts[i].blockedOutput = vote.blocked(i, fanout);
    if (layouts[i].blockedOutput) graph.mutableNode(i).attrs[kBlockedOutputAttr] = AttrValue::fromBool(true);
  }
}

}  // namespace flowscope
