// ConstantFolding: evaluates nodes whose inputs are all constants (through the context's evaluator, the CPU
// backend's kernels) and replaces them with Const nodes (same name, so consumers and fetches keep working), and
// materializes Shape/Size/Rank when shape inference knows the answer. Results larger than the context's cap stay
// computed at run time. Control inputs of the folded node and of its constant inputs are kept on the new Const, so
// frames and ordering survive.
#include <set>

#include "ir/verify.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool foldableOp(const Node& node, const PassContext& context) {
  // A fetched node may fold: it keeps its name. A multi-output one is replaced by new nodes, so it may not.
  // ONNX's Constant becomes a Const, which the other passes read as a constant (fusions, branch specialization).
  const bool source = node.inputs.empty() && node.op != "onnx::Constant";
  if (node.op == "Const" || source || context.hasSideEffects(node) || isDataflowControlOp(node.op)) return false;
  OpCategory category = OpRegistry::global().categoryOf(node.op, nullptr);
  if (category == OpCategory::kControlFlow || category == OpCategory::kFunctionCall || category == OpCategory::kInput ||
      category == OpCategory::kVariable || category == OpCategory::kRandom)
    return false;
  return context.evaluator && context.evaluator->canEvaluate(node.op);
}

std::vector<std::string> unionOfControls(const Graph& graph, const Node& node) {
  std::set<std::string> seen;
  std::vector<std::string> controls;
  auto add = [&](const std::string& c) {
    if (seen.insert(c).second) controls.push_back(c);
  };
  for (const auto& c : node.controlInputs) add(c);
  for (const auto& in : node.inputs)
    if (const Node* producer = graph.findNode(in.node))
      for (const auto& c : producer->controlInputs) add(c);
  return controls;
}

class ConstantFolding : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    int64_t materialized = materializeShapes(graph);
    if (materialized) result.stats["shapes_materialized"] = materialized;
    FS_ASSIGN_OR_RETURN(int64_t folded, foldConstants(graph, context));
    if (folded) result.stats["nodes_folded"] = folded;
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  static int64_t materializeShapes(Graph& graph) {
    bool any = false;
    for (size_t i = 0; i < graph.size() && !any; ++i) {
      const std::string& op = graph.node(i).op;
      any = op == "Shape" || op == "Size" || op == "Rank";
    }
    if (!any) return 0;
    GraphShapes shapes = inferShapes(graph);
    int64_t count = 0;
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& node = graph.node(i);
      if ((node.op != "Shape" && node.op != "Size" && node.op != "Rank") || node.inputs.size() != 1) continue;
      int64_t producer = graph.find(node.inputs[0].node);
      if (producer < 0) continue;
      const TensorInfo* info = shapes.find(static_cast<size_t>(producer), node.inputs[0].index);
      if (!info) continue;
      const Shape& shape = info->shape;
      DType outType = node.op == "Rank" ? DType::kInt32 : typeAttr(node, "out_type");
      if (outType != DType::kInt32 && outType != DType::kInt64) continue;
      Tensor value;
      auto store = [&](Tensor& t, size_t k, int64_t v) {
        if (outType == DType::kInt32)
          t.data<int32_t>()[k] = static_cast<int32_t>(v);
        else
          t.data<int64_t>()[k] = v;
      };
      if (node.op == "Rank") {
        if (shape.hasUnknownRank()) continue;
        value = Tensor::scalar<int32_t>(DType::kInt32, shape.rank());
      } else {
        if (!shape.isFullyDefined()) continue;
        if (node.op == "Size") {
          value = Tensor(outType, Shape{});
          store(value, 0, shape.numElements());
        } else {
          value = Tensor(outType, Shape{shape.rank()});
          for (int d = 0; d < shape.rank(); ++d) store(value, static_cast<size_t>(d), shape.dim(d));
        }
      }
      std::vector<std::string> controls = node.controlInputs;
      controls.push_back(node.inputs[0].node);  // the value still waits for (and is dead with) its input
      graph.mutableNode(i) = makeConst(node.name, value, node.device, controls);
      ++count;
    }
    return count;
  }

  static Expected<int64_t> foldConstants(Graph& graph, const PassContext& context) {
    Rewirer rewirer;
    std::set<std::string> replaced;
    int64_t count = 0;
    for (size_t i : topologicalOrder(graph)) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      const Node& node = graph.node(i);
      if (!foldableOp(node, context)) continue;
      std::vector<Tensor> inputs;
      for (const auto& in : node.inputs) {
        const Tensor* t = constantInput(graph, in);
        if (!t) break;
        inputs.push_back(*t);
      }
      if (inputs.size() != node.inputs.size()) continue;
      const OpDef* def = context.lookup(node.op);
      auto types = outputTypesOf(node, def);
      if (types.empty()) continue;
      auto evaluated = context.evaluator->evaluate(node, std::move(inputs), types.size());
      if (!evaluated) continue;  // an error stays a run-time error (the node may never run)
      std::vector<Tensor> outputs = std::move(evaluated).value();
      size_t bytes = 0;
      bool valid = true;
      for (const auto& t : outputs) {
        valid &= t.isValid() && t.dtype() != DType::kResource && t.dtype() != DType::kVariant;
        bytes += t.byteSize();
      }
      if (!valid || bytes > context.maxConstantBytes) continue;
      std::vector<std::string> controls = unionOfControls(graph, node);
      if (outputs.size() != 1 && context.preserved.count(node.name)) continue;
      if (outputs.size() == 1) {
        graph.mutableNode(i) = makeConst(node.name, outputs[0], node.device, controls);
      } else {
        const std::string name = node.name, device = node.device;
        for (size_t k = 0; k < outputs.size(); ++k) {
          std::string constName = uniqueNodeName(graph, "ConstantFolding/" + name + "-folded-" + std::to_string(k));
          graph.addNode(makeConst(constName, outputs[k], device, controls));
          rewirer.forward(name, static_cast<int>(k), TensorRef{constName, 0, ""});
        }
        rewirer.forwardControl(name, controls);
        replaced.insert(name);
      }
      ++count;
    }
    if (!replaced.empty()) {
      graph.removeNodes([&](const Node& n) { return replaced.count(n.name) > 0; });
      rewirer.apply(graph);
    }
    return count;
  }
};

}  // namespace

std::unique_ptr<Pass> createConstantFolding() { return std::make_unique<ConstantFolding>(); }

}  // namespace flowscope
