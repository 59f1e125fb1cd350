// Remapper: fuses a contraction with the bias and activation after it into one oneDNN-friendly op, as Grappler's
// remapper does on CPU:
//   MatMul + BiasAdd [+ act]                  -> _FusedMatMul(a, b, bias; fused_ops=[BiasAdd, act])
//   Conv2D + BiasAdd [+ act]                  -> _FusedConv2D
//   DepthwiseConv2dNative + BiasAdd [+ act]   -> _FusedDepthwiseConv2dNative
//   Conv2D + FusedBatchNorm (inference) [+ act] -> _FusedConv2D(fused_ops=[FusedBatchNorm, act])
//   a fused op with only BiasAdd + act          -> the activation is added to it
// act is Relu, Relu6, Elu, LeakyRelu, Tanh or Sigmoid. The fused node takes the last node's name, so consumers
// and fetches are unchanged. Only float NHWC convolutions and float MatMuls are fused.
#include <set>

#include "ops/op_registry.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

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
    std::set<std::string> removed;
    for (size_t i = 0; i < graph.size(); ++i) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      const char* what = fuseAt(graph, context, fanout, i, removed);
      if (what) ++result.stats[what];
    }
    if (!removed.empty()) graph.removeNodes([&](const Node& n) { return removed.count(n.name) > 0; });
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // The only consumer of `producer` (one data use of output 0, no control uses), or -1.
  static int64_t soleConsumer(const Graph& graph, const Fanout& fanout, size_t producer) {
    const auto& uses = fanout.uses(producer);
    if (uses.size() != 1 || uses[0].slot < 0) return -1;
    if (graph.node(uses[0].node).inputs[static_cast<size_t>(uses[0].slot)].index != 0) return -1;
    return static_cast<int64_t>(uses[0].node);
  }

  // A node in the middle of a chain may go away: nobody else reads it and the user does not observe it.
  static bool absorbable(const Graph& graph, const PassContext& context, size_t index) {
    return !context.preserved.count(graph.node(index).name);
  }

  static const char* fuseAt(Graph& graph, const PassContext& context, const Fanout& fanout, size_t rootIndex,
                            std::set<std::string>& removed) {
    const Node& root = graph.node(rootIndex);
    if (removed.count(root.name)) return nullptr;
    const bool already =
        root.op == "_FusedConv2D" || root.op == "_FusedMatMul" || root.op == "_FusedDepthwiseConv2dNative";
    if (already) return addActivation(graph, context, fanout, rootIndex, removed);
    const bool matmul = root.op == "MatMul", conv = root.op == "Conv2D", depthwise = root.op == "DepthwiseConv2dNative";
    if ((!matmul && !conv && !depthwise) || typeAttr(root) != DType::kFloat || root.inputs.size() != 2) return nullptr;
    if (!matmul && !nhwc(root)) return nullptr;
    if (!absorbable(graph, context, rootIndex)) return nullptr;
    int64_t next = soleConsumer(graph, fanout, rootIndex);
    if (next < 0) return nullptr;
    const Node& second = graph.node(static_cast<size_t>(next));
    std::vector<std::string> fusedOps;
    std::vector<TensorRef> args;
    float epsilon = 1e-4f;
    if (second.op == "BiasAdd" && second.inputs.size() == 2 && second.inputs[0].node == root.name && nhwc(second)) {
      fusedOps = {"BiasAdd"};
      args = {second.inputs[1]};
    } else if (conv &&
               (second.op == "FusedBatchNorm" || second.op == "FusedBatchNormV2" || second.op == "FusedBatchNormV3") &&
               second.inputs.size() == 5 && nhwc(second)) {
      const AttrValue* training = second.attr("is_training");
      if (!training || training->kind() != AttrValue::Kind::kBool || training->b()) return nullptr;
      if (fanout.dataUses(static_cast<size_t>(next)) != fanout.dataUsesOfOutput(graph, static_cast<size_t>(next), 0))
        return nullptr;
      if (typeAttr(second, "U") != DType::kInvalid && typeAttr(second, "U") != DType::kFloat) return nullptr;
      fusedOps = {"FusedBatchNorm"};
      args = {second.inputs[1], second.inputs[2], second.inputs[3], second.inputs[4]};
      if (const AttrValue* e = second.attr("epsilon"); e && e->kind() == AttrValue::Kind::kFloat) epsilon = e->f();
    } else {
      return nullptr;
    }
    size_t last = static_cast<size_t>(next);
    float alpha = 0.2f;
    if (absorbable(graph, context, last) && fanout.uses(last).size() == 1 && fanout.uses(last)[0].slot == 0) {
      const Node& act = graph.node(fanout.uses(last)[0].node);
      if (isActivation(act.op) && typeAttr(act) == DType::kFloat) {
        fusedOps.push_back(act.op);
        if (const AttrValue* a = act.attr("alpha"); a && a->kind() == AttrValue::Kind::kFloat) alpha = a->f();
        last = fanout.uses(last)[0].node;
      }
    }
    Node fused;
    fused.name = graph.node(last).name;
    fused.op = matmul ? "_FusedMatMul" : conv ? "_FusedConv2D" : "_FusedDepthwiseConv2dNative";
    fused.device = root.device;
    fused.inputs = root.inputs;
    fused.inputs.insert(fused.inputs.end(), args.begin(), args.end());
    fused.attrs = root.attrs;
    fused.attrs.erase("_output_shapes");
    fused.attrs["num_args"] = AttrValue::fromInt(static_cast<int64_t>(args.size()));
    AttrList ops;
    ops.s = fusedOps;
    fused.attrs["fused_ops"] = AttrValue::fromList(ops);
    fused.attrs["epsilon"] = AttrValue::fromFloat(epsilon);
    fused.attrs["leakyrelu_alpha"] = AttrValue::fromFloat(alpha);
    // Control inputs of every absorbed node move onto the fused one.
    for (size_t k : {rootIndex, static_cast<size_t>(next), last})
      for (const auto& c : graph.node(k).controlInputs)
        if (std::find(fused.controlInputs.begin(), fused.controlInputs.end(), c) == fused.controlInputs.end())
          fused.controlInputs.push_back(c);
    if (const OpSchema* schema = OpRegistry::global().find(fused.op)) fillDefaultAttrs(fused, schema->def);
    removed.insert(root.name);
    if (last != static_cast<size_t>(next)) removed.insert(graph.node(static_cast<size_t>(next)).name);
    graph.mutableNode(last) = std::move(fused);
    return matmul ? "matmul_fused" : conv ? "conv2d_fused" : "depthwise_fused";
  }

  static const char* addActivation(Graph& graph, const PassContext& context, const Fanout& fanout, size_t rootIndex,
                                   std::set<std::string>& removed) {
    const Node& root = graph.node(rootIndex);
    if (fusedOpsOf(root) != std::vector<std::string>{"BiasAdd"} || !absorbable(graph, context, rootIndex))
      return nullptr;
    int64_t next = soleConsumer(graph, fanout, rootIndex);
    if (next < 0) return nullptr;
    const Node& act = graph.node(static_cast<size_t>(next));
    if (!isActivation(act.op) || typeAttr(act) != typeAttr(root)) return nullptr;
    Node fused = root;
    fused.name = act.name;
    AttrList ops;
    ops.s = {"BiasAdd", act.op};
    fused.attrs["fused_ops"] = AttrValue::fromList(ops);
    if (const AttrValue* a = act.attr("alpha"); a && a->kind() == AttrValue::Kind::kFloat)
      fused.attrs["leakyrelu_alpha"] = *a;
    for (const auto& c : act.controlInputs) fused.controlInputs.push_back(c);
    removed.insert(root.name);
    graph.mutableNode(static_cast<size_t>(next)) = std::move(fused);
    return "activation_fused";
  }
};

}  // namespace

std::unique_ptr<Pass> createRemapper() { return std::make_unique<Remapper>(); }

}  // namespace flowscope
