// ONNX channels-last: runs an ONNX model's 1-D and 2-D float convolutions in NHWC, as ONNX Runtime runs them in NCHWc
// (a 1-D value [N, C, W] as [N, 1, W, C]).
// oneDNN's fast convolutions take channels-last activations; on plain NCHW they fall back to im2col or reference
// code. In dependency order:
//   onnx::Conv [+ BatchNormalization] [+ Relu | Clip(0, 6)] -> _FusedConv2D / _FusedDepthwiseConv2dNative
//       (weights in HWIO with the batch norm folded in, made once here; bias and activation as oneDNN post-ops)
//   onnx::MaxPool / AveragePool of an NHWC value            -> MaxPool / AvgPool with explicit pads
//   onnx::GlobalAveragePool of an NHWC value                -> Mean over H and W, keep_dims
//   elementwise ops (Relu, Clip, Add, Mul, ...) whose tensor operands are all NHWC stay as they are, and NHWC
// A value crosses between the layouts through one Transpose (a oneDNN reorder), only where a chain of such nodes
// begins or ends. A GlobalAveragePool ends a chain after it, so the transpose moves N x C values, not the last
// feature map (MobileNetV2's 7x7x1280 took 53 us to transpose).
// Fetched and fed nodes keep their layout; the fused node takes the last absorbed node's name.
#include <algorithm>
#include <map>
#include <set>

#include "ops/onnx_op_set.h"
#include "passes/graph_rewrite.h"
#include "passes/onnx_nhwc_nodes.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

using namespace onnx_nhwc;

const std::set<std::string>& layoutFreeOps() {
  static const std::set<std::string> ops = {
      "onnx::Relu",    "onnx::Clip", "onnx::Add",         "onnx::Sub",       "onnx::Mul",       "onnx::Div",
      "onnx::Sigmoid", "onnx::Tanh", "onnx::HardSigmoid", "onnx::HardSwish", "onnx::LeakyRelu", "onnx::Identity"};
  return ops;
}

class ChannelsLast {
 public:
  ChannelsLast(Graph& graph, const PassContext& context) : m_graph(graph), m_context(context), m_fanout(graph) {}

  PassResult run() {
    PassResult result;
    for (size_t i : topologicalOrder(m_graph)) {
      if (m_absorbed.count(m_graph.node(i).name) || m_context.isPreserved(m_graph.node(i))) continue;
      if (const char* what = convertAt(i)) ++result.stats[what];
    }
    if (m_nhwc.empty()) return result;
    insertTransposes(result);
    m_graph.removeNodes([&](const Node& n) { return m_absorbed.count(n.name) > 0; });
    result.changed = true;
    return result;
  }

 private:
  bool isNhwc(const TensorRef& ref) const { return ref.index == 0 && m_nhwc.count(ref.node); }
  // An NHWC value that is a 1-D one ([N, 1, W, C] for ONNX's [N, C, W]).
  bool isOneD(const TensorRef& ref) const { return isNhwc(ref) && m_oneD.count(ref.node); }

  // The one consumer of output 0 of `producer` (reading it at `slot`, no other use of any kind), or -1.
  int64_t soleConsumer(size_t producer, int slot) const {
    const auto& uses = m_fanout.uses(producer);
    if (uses.size() != 1 || uses[0].slot != slot) return -1;
    const Node& consumer = m_graph.node(uses[0].node);
    if (consumer.inputs[static_cast<size_t>(slot)].index != 0 || m_context.isPreserved(consumer)) return -1;
    return static_cast<int64_t>(uses[0].node);
  }

  const char* convertAt(size_t i) {
    const Node node = m_graph.node(i);
    if (node.op == "onnx::Conv") return convertConv(i) ? "convolutions_nhwc" : nullptr;
    if (node.inputs.empty() || !isNhwc(node.inputs[0])) return nullptr;
    if (isOneD(node.inputs[0])) return keepsLayout(node) ? keep(i) : nullptr;  // poolings stay 2-D only
    std::optional<Node> replacement;
    if (node.op == "onnx::MaxPool" || node.op == "onnx::AveragePool") replacement = makePool(node);
    if (node.op == "onnx::GlobalAveragePool") replacement = makeGlobalAveragePool(m_graph, node);
    if (replacement) {
      replace(i, std::move(*replacement));
      return "poolings_nhwc";
    }
    return keepsLayout(node) ? keep(i) : nullptr;
  }

  bool convertConv(size_t i) {
    const Node conv = m_graph.node(i);
    std::optional<ConvPlan> plan = planConv(m_graph, conv);
    if (!plan || (isNhwc(conv.inputs[0]) && isOneD(conv.inputs[0]) != plan->oneD)) return false;
    size_t last = i;
    std::optional<Node> bn;
    int64_t next = soleConsumer(i, 0);
    const int64_t channels = plan->weights->shape().dim(0);
    if (next >= 0 && foldableBatchNorm(m_graph, m_graph.node(static_cast<size_t>(next)), channels)) {
      bn = m_graph.node(static_cast<size_t>(next));
      last = static_cast<size_t>(next);
      next = soleConsumer(last, 0);
    }
    const std::string activation = next >= 0 ? fusedActivation(m_graph, m_graph.node(static_cast<size_t>(next))) : "";
    if (!activation.empty()) last = static_cast<size_t>(next);
    const std::string name = m_graph.node(last).name;
    if (last != i) m_absorbed.insert(conv.name);
    if (bn && bn->name != name) m_absorbed.insert(bn->name);
    Node fused = makeFusedConv(m_graph, conv, name, *plan, bn ? &*bn : nullptr, activation);
    recordFusion(fused, {&conv, bn ? &*bn : &conv, &m_graph.node(last)});
    replace(last, std::move(fused));
    if (plan->oneD) m_oneD.insert(name);
    return true;
  }

  // An elementwise node stays NHWC when every tensor operand is NHWC (all 1-D or all 2-D) or a one-element constant.
  bool keepsLayout(const Node& node) const {
    if (!layoutFreeOps().count(node.op) || onnxCaptureCount(node)) return false;
    for (const auto& ref : node.inputs) {
      const Tensor* c = constantValue(m_graph, ref);
      if (isNhwc(ref) ? isOneD(ref) != isOneD(node.inputs[0]) : !(c && c->numElements() == 1)) return false;
    }
    return true;
  }

  const char* keep(size_t i) {
    m_graph.mutableNode(i).attrs.erase("_output_shapes");  // they were NCHW
    if (isOneD(m_graph.node(i).inputs[0])) m_oneD.insert(m_graph.node(i).name);
    m_nhwc.insert(m_graph.node(i).name);
    m_kept.insert(m_graph.node(i).name);
    return "elementwise_nhwc";
  }

  void replace(size_t i, Node node) {
    for (const auto& c : m_graph.node(i).controlInputs)
      if (std::find(node.controlInputs.begin(), node.controlInputs.end(), c) == node.controlInputs.end())
        node.controlInputs.push_back(c);
    m_nhwc.insert(node.name);
    m_graph.mutableNode(i) = std::move(node);
  }

  void insertTransposes(PassResult& result);
  TensorRef transposed(const TensorRef& ref, const Node& reader, bool toNhwc, bool oneD, PassResult& result);

  Graph& m_graph;
  const PassContext& m_context;
  Fanout m_fanout;
  std::set<std::string> m_nhwc;      // nodes whose output 0 is NHWC now
  std::set<std::string> m_oneD;      // those of them whose value is a 1-D one
  std::set<std::string> m_kept;      // elementwise nodes on NHWC values (they read nothing else)
  std::set<std::string> m_absorbed;  // nodes folded into a fused convolution
  struct Made {
    std::string output;              // the node whose output is the value in the other layout
    std::vector<std::string> nodes;  // every node made for it (a 1-D value's two)
  };
  std::map<std::pair<std::string, bool>, Made> m_transposes;  // by (value, to NHWC)
};

// Convolutions and poolings read NHWC at their first input, elementwise nodes kept NHWC read only NHWC values and
// constants; every other node reads NCHW.
void ChannelsLast::insertTransposes(PassResult& result) {
  const size_t n = m_graph.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string name = m_graph.node(i).name;
    if (m_absorbed.count(name) || m_kept.count(name)) continue;
    const bool readsNhwc = m_nhwc.count(name) > 0;
    const std::vector<TensorRef> inputs = m_graph.node(i).inputs;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const bool wantNhwc = readsNhwc && k == 0;
      const bool oneD = wantNhwc ? m_oneD.count(name) > 0 : isOneD(inputs[k]);
      if (isNhwc(inputs[k]) != wantNhwc)
        m_graph.mutableNode(i).inputs[k] = transposed(inputs[k], m_graph.node(i), wantNhwc, oneD, result);
    }
  }
}

// A 1-D value goes between [N, C, W] and [N, 1, W, C] through [N, C, 1, W]: ExpandDims then Transpose, or
// Transpose then Squeeze.
// The nodes made record the nodes that read them as what they were made for (recordFusion, without their own name): a
// profile of the graph the user opened spreads their time over those readers, as ONNX Runtime's convolutions count
// their own input reorders.
TensorRef ChannelsLast::transposed(const TensorRef& ref, const Node& reader, bool toNhwc, bool oneD,
                                   PassResult& result) {
  auto key = std::make_pair(ref.toString(), toNhwc);
  if (auto it = m_transposes.find(key); it != m_transposes.end()) {
    for (const std::string& made : it->second.nodes) {
      Node& node = m_graph.mutableNode(static_cast<size_t>(m_graph.find(made)));
      recordFusion(node, {&node, &reader});  // one more reader
    }
    return TensorRef{it->second.output, 0, ""};
  }
  const Node* producer = m_graph.findNode(ref.node);
  const std::string device = producer ? producer->device : "";
  const std::string name = uniqueNodeName(m_graph, ref.node + (toNhwc ? "/to_nhwc" : "/to_nchw"));
  const std::vector<int32_t> perm = toNhwc ? std::vector<int32_t>{0, 2, 3, 1} : std::vector<int32_t>{0, 3, 1, 2};
  Node madeFor;  // the reader's name and debug info: `reader` itself may move as nodes are added
  madeFor.name = reader.name;
  madeFor.debugInfo = reader.debugInfo;
  Made made{name, {}};
  const auto add = [&](Node node) {
    recordFusion(node, {&madeFor});
    made.nodes.push_back(node.name);
    m_graph.addNode(std::move(node));
  };
  if (!oneD) {
    add(makeTranspose(m_graph, name, ref, perm, device));
  } else if (toNhwc) {
    const std::string expanded = uniqueNodeName(m_graph, name + "/expand");
    add(makeExpandDims(m_graph, expanded, ref, 2, device));
    add(makeTranspose(m_graph, name, TensorRef{expanded, 0, ""}, perm, device));
  } else {
    const std::string transposedName = uniqueNodeName(m_graph, name + "/transpose");
    add(makeTranspose(m_graph, transposedName, ref, perm, device));
    add(makeSqueeze(name, TensorRef{transposedName, 0, ""}, 2, device));
  }
  ++result.stats["transposes"];
  m_transposes.emplace(key, std::move(made));
  return TensorRef{name, 0, ""};
}

class OnnxChannelsLast : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    bool onnx = false;
    for (size_t i = 0; i < graph.size() && !onnx; ++i) onnx = graph.node(i).op == "onnx::Conv";
    if (!onnx) return PassResult{};
    return ChannelsLast(graph, context).run();
  }
};

}  // namespace

std::unique_ptr<Pass> createOnnxChannelsLast() { return std::make_unique<OnnxChannelsLast>(); }

}  // namespace flowscope
