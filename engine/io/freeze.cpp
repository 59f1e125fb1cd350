// Variable freezing for convert.
#include "io/freeze.h"

#include <map>
#include <set>

#include "base/strings.h"
#include "ir/inline_calls.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

Node constNode(const std::string& name, const std::string& device, const Tensor& value) {
  Node n{name, "Const", device, {}, {}, {}, {}};
  n.attrs["dtype"] = AttrValue::fromType(value.dtype());
  n.attrs["value"] = AttrValue::fromTensor(value);
  return n;
}

// Ops whose input 0 is a variable they change or manage: meaningless once the variable is a constant
// (training updates such as ResourceApplyGradientDescent included), so freezing drops them.
bool isVariableMutation(const std::string& op) {
  return op == "Assign" || op == "DisableCopyOnRead" || op == "DestroyResourceOp" ||
         (startsWith(op, "Assign") && endsWith(op, "VariableOp")) || startsWith(op, "ResourceApply") ||
         startsWith(op, "ResourceSparseApply") || startsWith(op, "ResourceScatter");
}

// Removes nodes and every control edge that pointed at them.
void removeAll(Graph& graph, const std::set<std::string>& names) {
  if (names.empty()) return;
  graph.removeNodes([&](const Node& n) { return names.count(n.name) > 0; });
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto& controls = graph.node(i).controlInputs;
    bool dangling = std::any_of(controls.begin(), controls.end(), [&](const auto& c) { return names.count(c) > 0; });
    if (dangling) std::erase_if(graph.mutableNode(i).controlInputs, [&](const auto& c) { return names.count(c) > 0; });
  }
}

}  // namespace

Expected<FrozenGraph> freezeModel(const Model& model) {
  if (!model.missingWeights.empty())
    return dataLoss(model.path + ": cannot freeze: " + std::to_string(model.missingWeights.size()) +
                    " weights have no values (weight shards missing), e.g. '" + model.missingWeights[0] + "'");
  FrozenGraph out;
  out.graph = model.graph;
  std::map<std::string, const Variable*> byNode;
  for (const auto& v : model.variables)
    if (!v.node.empty()) byNode[v.node] = &v;
  if (byNode.empty()) return out;

  Graph& g = out.graph;
  bool tf2 = false;
  for (const auto& [node, v] : byNode) tf2 |= g.findNode(node) && g.findNode(node)->op == "VarHandleOp";
  if (tf2) {
    auto inlined = inlineFunctionCalls(g, OpRegistry::global().lookupWith(&g.library));
    if (!inlined) return inlined.status().withContext(model.path + ": ");
    out.inlinedCalls = inlined->callsInlined;
  }

  std::set<std::string> drop;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(i);
    auto variableOf = [&](size_t input) -> const Variable* {
      if (n.inputs.size() <= input) return nullptr;
      auto it = byNode.find(n.inputs[input].node);
      return it == byNode.end() ? nullptr : it->second;
    };
    if (isVariableMutation(n.op) && variableOf(0)) {
      drop.insert(n.name);
    } else if (n.op == "ReadVariableOp" && variableOf(0)) {
      const Variable* v = variableOf(0);
      if (!v->value.isValid())
        return dataLoss(model.path + ": variable '" + v->checkpointKey + "' has no value to freeze");
      std::vector<std::string> controls = n.controlInputs;
      g.mutableNode(i) = constNode(n.name, n.device, v->value);
      g.mutableNode(i).controlInputs = controls;
    } else if (n.op == "VarIsInitializedOp" && variableOf(0)) {
      std::vector<std::string> controls = n.controlInputs;
      g.mutableNode(i) = constNode(n.name, n.device, Tensor::scalar<uint8_t>(DType::kBool, 1));
      g.mutableNode(i).controlInputs = controls;
    }
  }
  for (size_t i = 0; i < g.size(); ++i) {
    auto it = byNode.find(g.node(i).name);
    if (it == byNode.end()) continue;
    const Variable* v = it->second;
    if (g.node(i).op == "VarHandleOp") continue;  // handled below once reads are gone
    if (!v->value.isValid())
      return dataLoss(model.path + ": variable '" + v->checkpointKey + "' has no value to freeze");
    g.mutableNode(i) = constNode(g.node(i).name, g.node(i).device, v->value);
    ++out.frozenVariables;
  }
  removeAll(g, drop);
  // A VarHandleOp nothing reads any more disappears; one still used (e.g. captured by a While) stays.
  std::set<std::string> used;
  for (size_t i = 0; i < g.size(); ++i)
    for (const auto& in : g.node(i).inputs) used.insert(in.node);
  std::set<std::string> handles;
  for (size_t i = 0; i < g.size(); ++i)
    if (g.node(i).op == "VarHandleOp" && byNode.count(g.node(i).name) && !used.count(g.node(i).name)) {
      handles.insert(g.node(i).name);
      ++out.frozenVariables;
    }
  removeAll(g, handles);
  return out;
}

}  // namespace flowscope
