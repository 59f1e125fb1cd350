// Folds an inference-mode FusedBatchNorm into the convolution before it: with s = scale / sqrt(variance + eps),
// the filter's output channels are multiplied by s and the batch norm becomes BiasAdd(offset - mean * s).
// A constant BiasAdd between them is folded in as well. Conv2D and DepthwiseConv2dNative (NHWC, float, constant filter
// and batch-norm parameters) are folded; the remapper then fuses the BiasAdd and the activation into the convolution.
#include <cmath>
#include <optional>

#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool isBatchNorm(const std::string& op) {
  return op == "FusedBatchNorm" || op == "FusedBatchNormV2" || op == "FusedBatchNormV3";
}

bool attrIs(const Node& n, const char* key, const std::string& value, bool missingOk) {
  const AttrValue* a = n.attr(key);
  if (!a) return missingOk;
  return a->kind() == AttrValue::Kind::kString && a->s() == value;
}

bool floatTensor(const Tensor* t, int64_t elements) {
  return t && t->dtype() == DType::kFloat && t->numElements() == elements;
}

// `node` as an Identity of its first input (its attrs are not copied).
Node passThrough(const Node& node) {
  Node identity{node.name, "Identity", node.device, {node.inputs[0]}, node.controlInputs, {}, node.debugInfo};
  identity.attrs["T"] = AttrValue::fromType(DType::kFloat);
  return identity;
}

// What one fold reads: the batch norm, the convolution (and a constant BiasAdd between them), and the constants.
struct FoldSite {
  size_t bn = 0, conv = 0;
  int64_t biasAdd = -1;
  const Tensor *filter = nullptr, *priorBias = nullptr;
  const Tensor *scale = nullptr, *offset = nullptr, *mean = nullptr, *variance = nullptr;
  int64_t channels = 0;
  float epsilon = 1e-4f;
};

class BatchNormFolding : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    StableProducers producers(graph);  // folding adds nodes and rewrites some, but never removes or renames one
    const size_t count = graph.size();
    for (size_t i = 0; i < count; ++i) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      if (!isBatchNorm(graph.node(i).op)) continue;
      if (auto site = match(graph, context, producers, i)) {
        fold(graph, producers, *site);
        ++result.stats["batch_norms_folded"];
      }
    }
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // The batch norm at `bnIndex` when it can fold: the uses come from the edges as the pass found them, as before.
  static std::optional<FoldSite> match(const Graph& graph, const PassContext& context, const StableProducers& producers,
                                       size_t bnIndex) {
    const Node& bn = graph.node(bnIndex);
    if (bn.inputs.size() != 5 || context.preserved.count(bn.name)) return std::nullopt;
    const AttrValue* training = bn.attr("is_training");
    if (!training || training->kind() != AttrValue::Kind::kBool || training->b()) return std::nullopt;
    if (!attrIs(bn, "data_format", "NHWC", true) || typeAttr(bn) != DType::kFloat) return std::nullopt;
    const EdgeIndex& edges = producers.edges();
    for (const auto& use : edges.uses(bnIndex))
      if (use.slot >= 0 && graph.node(use.node).inputs[static_cast<size_t>(use.slot)].index != 0) return std::nullopt;
    FoldSite site;
    site.bn = bnIndex;
    int64_t convIndex = producers.of(graph, bnIndex, 0);
    if (convIndex < 0 || bn.inputs[0].index != 0) return std::nullopt;
    // Conv2D -> BiasAdd(constant) -> FusedBatchNorm folds too: the bias joins the batch norm's shift.
    if (const Node& between = graph.node(static_cast<size_t>(convIndex));
        between.op == "BiasAdd" && between.inputs.size() == 2 && attrIs(between, "data_format", "NHWC", true)) {
      const auto at = static_cast<size_t>(convIndex);
      site.priorBias = producers.constant(graph, at, 1);
      if (!site.priorBias || site.priorBias->dtype() != DType::kFloat || edges.uses(at).size() != 1 ||
          context.preserved.count(between.name) || between.inputs[0].index != 0)
        return std::nullopt;
      site.biasAdd = convIndex;
      convIndex = producers.of(graph, at, 0);
      if (convIndex < 0) return std::nullopt;
    }
    site.conv = static_cast<size_t>(convIndex);
    const Node& conv = graph.node(site.conv);
    const bool depthwise = conv.op == "DepthwiseConv2dNative";
    if ((conv.op != "Conv2D" && !depthwise) || conv.inputs.size() != 2 || context.preserved.count(conv.name))
      return std::nullopt;
    if (!attrIs(conv, "data_format", "NHWC", true) || typeAttr(conv) != DType::kFloat) return std::nullopt;
    if (edges.uses(site.conv).size() != 1) return std::nullopt;  // the batch norm is its only consumer
    site.filter = producers.constant(graph, site.conv, 1);
    if (!site.filter || site.filter->dtype() != DType::kFloat || site.filter->shape().rank() != 4) return std::nullopt;
    const Shape& fs = site.filter->shape();
    site.channels = depthwise ? fs.dim(2) * fs.dim(3) : fs.dim(3);
    site.scale = producers.constant(graph, bnIndex, 1);
    site.offset = producers.constant(graph, bnIndex, 2);
    site.mean = producers.constant(graph, bnIndex, 3);
    site.variance = producers.constant(graph, bnIndex, 4);
    for (const Tensor* t : {site.scale, site.offset, site.mean, site.variance})
      if (!floatTensor(t, site.channels)) return std::nullopt;
    if (site.priorBias && site.priorBias->numElements() != site.channels) return std::nullopt;
    const AttrValue* eps = bn.attr("epsilon");
    if (eps && eps->kind() == AttrValue::Kind::kFloat) site.epsilon = eps->f();
    return site;
  }

  static void fold(Graph& graph, StableProducers& producers, const FoldSite& site) {
    const auto channels = static_cast<size_t>(site.channels);
    std::vector<float> s(channels);
    Tensor bias(DType::kFloat, Shape{site.channels});
    for (size_t c = 0; c < channels; ++c) {
      s[c] = site.scale->data<float>()[c] / std::sqrt(site.variance->data<float>()[c] + site.epsilon);
      const float shifted = (site.priorBias ? site.priorBias->data<float>()[c] : 0.0f) - site.mean->data<float>()[c];
      bias.data<float>()[c] = site.offset->data<float>()[c] + shifted * s[c];
    }
    Tensor folded = Tensor::uninitialized(DType::kFloat, site.filter->shape());
    const float* w = site.filter->data<float>();
    float* out = folded.data<float>();
    const auto elements = static_cast<size_t>(site.filter->numElements());
    for (size_t k = 0; k < elements; k += channels)  // the output channels are the innermost dimension
      for (size_t c = 0; c < channels; ++c) out[k + c] = w[k + c] * s[c];

    const Node& bn = graph.node(site.bn);
    const std::string bnName = bn.name, convName = graph.node(site.conv).name, device = bn.device;
    std::vector<std::string> controls = bn.controlInputs;
    std::string filterName = uniqueNodeName(graph, convName + "/folded_filter");
    std::string biasName = uniqueNodeName(graph, bnName + "/folded_bias");
    graph.addNode(makeConst(filterName, folded, graph.node(site.conv).device));
    graph.addNode(makeConst(biasName, bias, device));
    graph.mutableNode(site.conv).inputs[1] = TensorRef{filterName, 0, ""};
    Node biasAdd{bnName, "BiasAdd", device, {TensorRef{convName, 0, ""}, TensorRef{biasName, 0, ""}}, controls, {}, {}};
    if (site.biasAdd >= 0)
      for (const auto& c : graph.node(static_cast<size_t>(site.biasAdd)).controlInputs)
        biasAdd.controlInputs.push_back(c);
    biasAdd.attrs["T"] = AttrValue::fromType(DType::kFloat);
    biasAdd.attrs["data_format"] = AttrValue::fromString("NHWC");
    biasAdd.debugInfo = graph.node(site.bn).debugInfo;
    if (site.biasAdd >= 0)
      recordFusion(biasAdd, {&graph.node(static_cast<size_t>(site.biasAdd)), &graph.node(site.bn)});
    graph.replaceNode(site.bn, std::move(biasAdd));
    producers.rewrote(site.conv);
    producers.rewrote(site.bn);
    if (site.biasAdd >= 0) {  // the old BiasAdd now has no consumer; it becomes a pass-through pruning removes
      const auto at = static_cast<size_t>(site.biasAdd);
      graph.replaceNode(at, passThrough(graph.node(at)));
      producers.rewrote(at);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> createBatchNormFolding() { return std::make_unique<BatchNormFolding>(); }

}  // namespace flowscope
