// Folds an inference-mode FusedBatchNorm into the convolution before it: with s = scale / sqrt(variance + eps),
// the filter's output channels are multiplied by s and the batch norm becomes BiasAdd(offset - mean * s).
// A constant BiasAdd between them is folded in as well. Conv2D and DepthwiseConv2dNative (NHWC, float, constant filter
// and batch-norm parameters) are folded; the remapper then fuses the BiasAdd and the activation into the convolution.
#include <cmath>

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

class BatchNormFolding : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    Fanout fanout(graph);
    for (size_t i = 0; i < graph.size(); ++i) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      if (foldOne(graph, context, fanout, i)) ++result.stats["batch_norms_folded"];
    }
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  static bool foldOne(Graph& graph, const PassContext& context, const Fanout& fanout, size_t bnIndex) {
    const Node& bn = graph.node(bnIndex);
    if (!isBatchNorm(bn.op) || bn.inputs.size() != 5 || context.preserved.count(bn.name)) return false;
    const AttrValue* training = bn.attr("is_training");
    if (!training || training->kind() != AttrValue::Kind::kBool || training->b()) return false;
    if (!attrIs(bn, "data_format", "NHWC", true) || typeAttr(bn) != DType::kFloat) return false;
    for (const auto& use : fanout.uses(bnIndex))
      if (use.slot >= 0 && graph.node(use.node).inputs[static_cast<size_t>(use.slot)].index != 0) return false;
    int64_t convIndex = graph.find(bn.inputs[0].node);
    if (convIndex < 0 || bn.inputs[0].index != 0) return false;
    // Conv2D -> BiasAdd(constant) -> FusedBatchNorm folds too: the bias joins the batch norm's shift.
    const Tensor* priorBias = nullptr;
    int64_t biasAddIndex = -1;
    if (const Node& between = graph.node(static_cast<size_t>(convIndex));
        between.op == "BiasAdd" && between.inputs.size() == 2 && attrIs(between, "data_format", "NHWC", true)) {
      priorBias = constantInput(graph, between.inputs[1]);
      if (!priorBias || priorBias->dtype() != DType::kFloat ||
          fanout.uses(static_cast<size_t>(convIndex)).size() != 1 || context.preserved.count(between.name) ||
          between.inputs[0].index != 0)
        return false;
      biasAddIndex = convIndex;
      convIndex = graph.find(between.inputs[0].node);
      if (convIndex < 0) return false;
    }
    const Node& conv = graph.node(static_cast<size_t>(convIndex));
    const bool depthwise = conv.op == "DepthwiseConv2dNative";
    if ((conv.op != "Conv2D" && !depthwise) || conv.inputs.size() != 2 || context.preserved.count(conv.name))
      return false;
    if (!attrIs(conv, "data_format", "NHWC", true) || typeAttr(conv) != DType::kFloat) return false;
    if (fanout.uses(static_cast<size_t>(convIndex)).size() != 1) return false;  // the batch norm is its only consumer
    const Tensor* filter = constantInput(graph, conv.inputs[1]);
    if (!filter || filter->dtype() != DType::kFloat || filter->shape().rank() != 4) return false;
    const int64_t channels = depthwise ? filter->shape().dim(2) * filter->shape().dim(3) : filter->shape().dim(3);
    const Tensor *scale = constantInput(graph, bn.inputs[1]), *offset = constantInput(graph, bn.inputs[2]),
                 *mean = constantInput(graph, bn.inputs[3]), *variance = constantInput(graph, bn.inputs[4]);
    if (!floatTensor(scale, channels) || !floatTensor(offset, channels) || !floatTensor(mean, channels) ||
        !floatTensor(variance, channels) || (priorBias && priorBias->numElements() != channels))
      return false;
    const AttrValue* eps = bn.attr("epsilon");
    const float epsilon = eps && eps->kind() == AttrValue::Kind::kFloat ? eps->f() : 1e-4f;

    std::vector<float> s(static_cast<size_t>(channels));
    Tensor bias(DType::kFloat, Shape{channels});
    for (int64_t c = 0; c < channels; ++c) {
      s[static_cast<size_t>(c)] = scale->data<float>()[c] / std::sqrt(variance->data<float>()[c] + epsilon);
      const float shifted = (priorBias ? priorBias->data<float>()[c] : 0.0f) - mean->data<float>()[c];
      bias.data<float>()[c] = offset->data<float>()[c] + shifted * s[static_cast<size_t>(c)];
    }
    Tensor folded = Tensor::uninitialized(DType::kFloat, filter->shape());
    const float* w = filter->data<float>();
    float* out = folded.data<float>();
    for (int64_t k = 0; k < filter->numElements(); ++k) out[k] = w[k] * s[static_cast<size_t>(k % channels)];

    const std::string bnName = bn.name, convName = conv.name, device = bn.device;
    std::vector<std::string> controls = bn.controlInputs;
    std::string filterName = uniqueNodeName(graph, convName + "/folded_filter");
    std::string biasName = uniqueNodeName(graph, bnName + "/folded_bias");
    graph.addNode(makeConst(filterName, folded, conv.device));
    graph.addNode(makeConst(biasName, bias, device));
    graph.mutableNode(static_cast<size_t>(convIndex)).inputs[1] = TensorRef{filterName, 0, ""};
    Node biasAdd{bnName, "BiasAdd", device, {TensorRef{convName, 0, ""}, TensorRef{biasName, 0, ""}}, controls, {}, {}};
    if (biasAddIndex >= 0)
      for (const auto& c : graph.node(static_cast<size_t>(biasAddIndex)).controlInputs)
        biasAdd.controlInputs.push_back(c);
    biasAdd.attrs["T"] = AttrValue::fromType(DType::kFloat);
    biasAdd.attrs["data_format"] = AttrValue::fromString("NHWC");
    graph.replaceNode(bnIndex, std::move(biasAdd));
    if (biasAddIndex >= 0) {  // the old BiasAdd now has no consumer; it becomes a pass-through pruning removes
      const auto at = static_cast<size_t>(biasAddIndex);
      graph.replaceNode(at, passThrough(graph.node(at)));
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createBatchNormFolding() { return std::make_unique<BatchNormFolding>(); }

}  // namespace flowscope
