#include "exec/cpu/placement_util.h"

#include "exec/cpu/blocked_layout.h"
#include "exec/kernel_util.h"
#include "ops/shape_inference.h"

namespace flowscope {

bool floatNhwc(const Node& node) {
  const AttrValue* t = node.attr("T");
  return attrString(node, "data_format", "NHWC") == "NHWC" && t && t->kind() == AttrValue::Kind::kType &&
         t->type() == DType::kFloat;
}

bool fusedWithBiasOnly(const Node& node) {
  const AttrValue* ops = node.attr("fused_ops");
  if (!ops || ops->kind() != AttrValue::Kind::kList || ops->list().s.empty() || ops->list().s[0] != "BiasAdd")
    return false;
  const auto& names = ops->list().s;
  return names.size() == 1 || (names.size() == 2 && (names[1] == "Relu" || names[1] == "Relu6"));
}

bool fusedDepthwise(const Node& node) {
  return node.op == "_FusedDepthwiseConv2dNative" || node.op == "FusedDepthwiseConv2dNative";
}

std::set<std::string> pinnedNodes(const PlacementRequest& request) {
  std::set<std::string> pinned = request.fedNodes;
  for (const std::string& f : request.fetches) pinned.insert(f.substr(0, f.find(':')));
  return pinned;
}

OpDef floatOpDef(const std::string& name, const std::string& summary, std::initializer_list<const char*> inputs) {
  OpDef def;
  def.name = name;
  def.summary = summary;
  for (const char* input : inputs) {
    ArgDef arg;
    arg.name = input;
    arg.type = DType::kFloat;
    def.inputs.push_back(arg);
  }
  ArgDef out;
  out.name = "output";
  out.type = DType::kFloat;
  def.outputs.push_back(out);
  return def;
}

namespace {

// The fused node declares its output's shape (the second node's, where known), so that shape inference, which has no
// schema for it, carries shapes past it to the placement steps after this one.
Node fusedNode(const PairFusion& fusion, const Node& first, const Node& second, const TensorInfo* output) {
  Node fused;
  fused.name = second.name;
  fused.op = fusion.op.name;
  fused.device = second.device;
  fused.inputs = first.inputs;
  fused.inputs.insert(fused.inputs.end(), second.inputs.begin() + 1, second.inputs.end());
  fused.controlInputs = first.controlInputs;
  fused.controlInputs.insert(fused.controlInputs.end(), second.controlInputs.begin(), second.controlInputs.end());
  fused.attrs["T"] = AttrValue::fromType(DType::kFloat);
  fused.attrs[fusion.firstAttr] = AttrValue::fromString(first.name);
  if (output && output->shape.isFullyDefined()) {
    AttrList shapes;
    shapes.shape.push_back(output->shape);
    fused.attrs[kPlacedOutputShapesAttr] = AttrValue::fromList(std::move(shapes));
  }
  const AttrValue* blocked = second.attr(kBlockedOutputAttr);
  if (fusion.keepsBlockedOutput && blocked) fused.attrs[kBlockedOutputAttr] = *blocked;
  recordFusion(fused, {&first, &second});
  return fused;
}

// The fused node's kernel factory: from the two nodes, or from the factories a step before prepared for them (null
// where one has none: such a pair stays apart).
std::function<std::unique_ptr<OpKernel>()> preparedKernel(const Placement& placement, const PairFusion& fusion,
                                                          const Node& first, const Node& second) {
  if (!fusion.chain) return [kernel = fusion.kernel, first, second] { return kernel(first, second); };
  const auto a = placement.preparedKernels.find(first.name), b = placement.preparedKernels.find(second.name);
  if (a == placement.preparedKernels.end() || b == placement.preparedKernels.end()) return nullptr;
  return [chain = fusion.chain, a = a->second, b = b->second, first, second] { return chain(first, second, a(), b()); };
}

}  // namespace

void fusePairs(Placement& placement, const PlacementRequest& request, const PairFusion& fusion) {
  Graph& graph = placement.graph;
  const std::set<std::string> pinned = pinnedNodes(request);
  const Fanout fanout(graph);
  std::vector<std::pair<size_t, size_t>> pairs;  // (second, first)
  for (size_t s = 0; s < graph.size(); ++s)
    if (const int64_t f = fusion.firstOf(graph, fanout, pinned, s); f >= 0)
      pairs.emplace_back(s, static_cast<size_t>(f));
  if (pairs.empty()) return;
  const GraphShapes shapes = inferShapes(graph);
  std::vector<bool> drop(graph.size(), false);
  std::vector<std::pair<size_t, Node>> fused;
  for (auto [s, f] : pairs) {
    const TensorInfo* middle = shapes.find(f, 0);
    if (!middle || !middle->shape.isFullyDefined() ||
        middle->shape.numElements() * int64_t{sizeof(float)} < fusion.minMiddleBytes)
      continue;
    const Node& first = graph.node(f);
    const Node& second = graph.node(s);
    auto kernel = preparedKernel(placement, fusion, first, second);
    if (!kernel) continue;
    fused.emplace_back(s, fusedNode(fusion, first, second, shapes.find(s, 0)));
    placement.preparedKernels[second.name] = std::move(kernel);
    drop[f] = true;
  }
  if (fused.empty()) return;
  for (auto& [index, node] : fused) graph.replaceNode(index, std::move(node));
  graph.removeNodes(drop);
  placement.addedOps[fusion.op.name] = fusion.op;
}

}  // namespace flowscope
