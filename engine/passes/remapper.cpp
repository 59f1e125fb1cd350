// Remapper: fuses a contraction with the bias and activation after it into one oneDNN-friendly op, as Grappler's
// remapper does on CPU:
//   MatMul + BiasAdd [+ act]                  -> _FusedMatMul(a, b, bias; fused_ops=[BiasAdd, act])
//   Conv2D + BiasAdd [+ act]                  -> _FusedConv2D
//   DepthwiseConv2dNative + BiasAdd [+ act]   -> _FusedDepthwiseConv2dNative
//   Conv2D + FusedBatchNorm (inference) [+ act] -> _FusedConv2D(fused_ops=[FusedBatchNorm, act])
//   a fused op with only BiasAdd + act          -> the activation is added to it
//   a contraction + act, no bias in between     -> fused with a zero bias (a Const), as TensorFlow's fused ops
//                                                  always take one
//   _FusedConv2D(BiasAdd) + Add of a tensor of its shape [+ act] -> _FusedConv2D(fused_ops=[BiasAdd, Add, act])
//                                                  (remapper_add.h)
// act is Relu, Relu6, Elu, LeakyRelu, Tanh or Sigmoid. The fused node takes the last node's name, so consumers
// and fetches are unchanged. Only float NHWC convolutions and float MatMuls are fused.
#include <algorithm>
#include <vector>

#include "ops/op_registry.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"
#include "passes/remapper_add.h"

namespace flowscope {
namespace {

bool isActivation(const std::string& op) {
  return op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu" || op == "Tanh" || op == "Sigmoid";
}

bool nhwc(const Node& n) {
  const AttrValue* f = n.attr("data_format");
  return !f || (f->kind() == AttrValue::Kind::kString && f->s() == "NHWC");
}

std::vector<std::string> fusedOpsOf(const Node& n) {
  const AttrValue* f = n.attr("fused_ops");
  return f && f->kind() == AttrValue::Kind::kList ? f->list().s : std::vector<std::string>{};
}

class Remapper : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    Fanout fanout(graph);
    std::vector<bool> removed(graph.size());  // by node index (zero biases added on the way are never removed)
    const size_t before = graph.size();
    for (size_t i = 0; i < before; ++i) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      const char* what = fuseAt(graph, context, fanout, i, removed);
      if (what) ++result.stats[what];
    }
    removed.resize(graph.size());
    graph.removeNodes(removed);
    if (int64_t adds = fuseConvolutionAdds(graph, context)) result.stats["conv2d_add_fused"] = adds;
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // A node in the middle of a chain may go away: nobody else reads it and the user does not observe it.
  static bool absorbable(const Graph& graph, const PassContext& context, size_t index) {
    return !context.preserved.count(graph.node(index).name);
  }

  // What follows the contraction: a BiasAdd, an inference FusedBatchNorm (convolutions), or, when an activation
  // follows at once, nothing (a zero bias is made for it). `next` is the node absorbed (or the contraction itself).
  struct Epilogue {
    std::vector<std::string> fusedOps;
    std::vector<TensorRef> args;
    float epsilon = 1e-4f;
    size_t next = 0;
    bool zeroBias = false;
  };

  static bool matchEpilogue(const Graph& graph, const Fanout& fanout, size_t rootIndex, size_t next, Epilogue* e) {
    const Node& root = graph.node(rootIndex);
    const Node& second = graph.node(next);
    e->next = next;
    if (second.op == "BiasAdd" && second.inputs.size() == 2 && second.inputs[0].node == root.name && nhwc(second)) {
      e->fusedOps = {"BiasAdd"};
      e->args = {second.inputs[1]};
      return true;
    }
    const bool batchNorm =
        second.op == "FusedBatchNorm" || second.op == "FusedBatchNormV2" || second.op == "FusedBatchNormV3";
    if (root.op == "Conv2D" && batchNorm && second.inputs.size() == 5 && nhwc(second)) {
      const AttrValue* training = second.attr("is_training");
      if (!training || training->kind() != AttrValue::Kind::kBool || training->b()) return false;
      if (fanout.dataUses(next) != fanout.dataUsesOfOutput(graph, next, 0)) return false;
      if (typeAttr(second, "U") != DType::kInvalid && typeAttr(second, "U") != DType::kFloat) return false;
      e->fusedOps = {"FusedBatchNorm"};
      e->args = {second.inputs[1], second.inputs[2], second.inputs[3], second.inputs[4]};
      if (const AttrValue* eps = second.attr("epsilon"); eps && eps->kind() == AttrValue::Kind::kFloat)
        e->epsilon = eps->f();
      return true;
    }
    if (isActivation(second.op) && typeAttr(second) == DType::kFloat && outputChannels(graph, root) > 0) {
      e->fusedOps = {"BiasAdd"};  // the activation is taken next; the bias is zero
      e->zeroBias = true;
      e->next = rootIndex;
      return true;
    }
    return false;
  }

  // Output channels of a contraction whose weights are a Const, or -1.
  static int64_t outputChannels(const Graph& graph, const Node& root) {
    const Tensor* w = constantInput(graph, root.inputs[1]);
    if (!w) return -1;
    const Shape& s = w->shape();
    if (root.op == "MatMul") {
      const AttrValue* tb = root.attr("transpose_b");
      return s.rank() == 2 ? s.dim(tb && tb->b() ? 0 : 1) : -1;
    }
    if (s.rank() != 4) return -1;
    return root.op == "Conv2D" ? s.dim(3) : s.dim(2) * s.dim(3);
  }

  static TensorRef zeroBias(Graph& graph, const Node& root) {
    const std::string name = uniqueNodeName(graph, root.name + "/zero_bias");
    graph.addNode(makeConst(name, Tensor(DType::kFloat, Shape{outputChannels(graph, root)}), root.device));
    return TensorRef{name, 0, ""};
  }

  static Node fusedNode(const Node& root, const std::string& name, const Epilogue& e, float alpha) {
    Node fused;
    fused.name = name;
    fused.op = root.op == "MatMul"   ? "_FusedMatMul"
               : root.op == "Conv2D" ? "_FusedConv2D"
                                     : "_FusedDepthwiseConv2dNative";
    fused.device = root.device;
    fused.inputs = root.inputs;
    fused.inputs.insert(fused.inputs.end(), e.args.begin(), e.args.end());
    fused.attrs = root.attrs;
    fused.attrs.erase("_output_shapes");
    fused.attrs["num_args"] = AttrValue::fromInt(static_cast<int64_t>(e.args.size()));
    AttrList ops;
    ops.s = e.fusedOps;
    fused.attrs["fused_ops"] = AttrValue::fromList(ops);
    fused.attrs["epsilon"] = AttrValue::fromFloat(e.epsilon);
    fused.attrs["leakyrelu_alpha"] = AttrValue::fromFloat(alpha);
    if (const OpSchema* schema = OpRegistry::global().find(fused.op)) fillDefaultAttrs(fused, schema->def);
    return fused;
  }

  static const char* fuseAt(Graph& graph, const PassContext& context, const Fanout& fanout, size_t rootIndex,
                            std::vector<bool>& removed) {
    const Node& root = graph.node(rootIndex);
    if (removed[rootIndex]) return nullptr;
    const bool already =
        root.op == "_FusedConv2D" || root.op == "_FusedMatMul" || root.op == "_FusedDepthwiseConv2dNative";
    if (already) return addActivation(graph, context, fanout, rootIndex, removed);
    const bool matmul = root.op == "MatMul", conv = root.op == "Conv2D", depthwise = root.op == "DepthwiseConv2dNative";
    if ((!matmul && !conv && !depthwise) || typeAttr(root) != DType::kFloat || root.inputs.size() != 2) return nullptr;
    if (!matmul && !nhwc(root)) return nullptr;
    if (!absorbable(graph, context, rootIndex)) return nullptr;
    int64_t next = soleReaderOfOutput0(graph, fanout, rootIndex);
    Epilogue e;
    if (next < 0 || !matchEpilogue(graph, fanout, rootIndex, static_cast<size_t>(next), &e)) return nullptr;
    size_t last = e.next;
    float alpha = 0.2f;
    if (absorbable(graph, context, last) && fanout.uses(last).size() == 1 && fanout.uses(last)[0].slot == 0) {
      const Node& act = graph.node(fanout.uses(last)[0].node);
      if (isActivation(act.op) && typeAttr(act) == DType::kFloat) {
        e.fusedOps.push_back(act.op);
        if (const AttrValue* a = act.attr("alpha"); a && a->kind() == AttrValue::Kind::kFloat) alpha = a->f();
        last = fanout.uses(last)[0].node;
      }
    }
    if (e.zeroBias && last == rootIndex) return nullptr;  // no activation after all: nothing to fuse
    if (e.zeroBias) e.args = {zeroBias(graph, graph.node(rootIndex))};
    const Node& rootNow = graph.node(rootIndex);  // (adding the bias may have moved the node table)
    Node fused = fusedNode(rootNow, graph.node(last).name, e, alpha);
    recordFusion(fused, {&rootNow, &graph.node(e.next), &graph.node(last)});
    for (size_t k : {rootIndex, e.next, last})  // control inputs of every absorbed node move onto the fused one
      for (const auto& c : graph.node(k).controlInputs)
        if (std::find(fused.controlInputs.begin(), fused.controlInputs.end(), c) == fused.controlInputs.end())
          fused.controlInputs.push_back(c);
    removed[rootIndex] = true;
    if (last != e.next && e.next != rootIndex) removed[e.next] = true;
    graph.mutableNode(last) = std::move(fused);
    return matmul ? "matmul_fused" : conv ? "conv2d_fused" : "depthwise_fused";
  }

  static const char* addActivation(Graph& graph, const PassContext& context, const Fanout& fanout, size_t rootIndex,
                                   std::vector<bool>& removed) {
    const Node& root = graph.node(rootIndex);
    if (fusedOpsOf(root) != std::vector<std::string>{"BiasAdd"} || !absorbable(graph, context, rootIndex))
      return nullptr;
    int64_t next = soleReaderOfOutput0(graph, fanout, rootIndex);
    if (next < 0) return nullptr;
    const Node& act = graph.node(static_cast<size_t>(next));
    if (!isActivation(act.op) || typeAttr(act) != typeAttr(root)) return nullptr;
    Node fused = root;
    fused.name = act.name;
    recordFusion(fused, {&root, &act});
    AttrList ops;
    ops.s = {"BiasAdd", act.op};
    fused.attrs["fused_ops"] = AttrValue::fromList(ops);
    if (const AttrValue* a = act.attr("alpha"); a && a->kind() == AttrValue::Kind::kFloat)
      fused.attrs["leakyrelu_alpha"] = *a;
    for (const auto& c : act.controlInputs) fused.controlInputs.push_back(c);
    removed[rootIndex] = true;
    graph.mutableNode(static_cast<size_t>(next)) = std::move(fused);
    return "activation_fused";
  }
};

}  // namespace

std::unique_ptr<Pass> createRemapper() { return std::make_unique<Remapper>(); }

}  // namespace flowscope
