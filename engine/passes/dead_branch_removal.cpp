// Dead-branch removal (Grappler's loop optimizer): an If or Case whose predicate is a constant becomes its taken
// branch, inlined; a Switch on a constant predicate becomes an Identity, the nodes only its untaken output feeds
// are removed, and Merges left with one live input become Identities.
#include <set>

#include "ir/inline_calls.h"
#include "ir/verify.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

class DeadBranchRemoval : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    for (size_t i = 0; i < graph.size(); ++i) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      FS_ASSIGN_OR_RETURN(bool inlined, replaceConstantBranch(graph, context, i));
      if (inlined) ++result.stats["constant_branches_inlined"];
    }
    std::vector<std::string> switches;
    for (size_t i = 0; i < graph.size(); ++i)
      if ((graph.node(i).op == "Switch" || graph.node(i).op == "RefSwitch") && graph.node(i).inputs.size() == 2)
        switches.push_back(graph.node(i).name);
    for (const auto& name : switches)
      if (graph.find(name) >= 0 && graph.node(static_cast<size_t>(graph.find(name))).op != "Identity" &&
          removeDeadSide(graph, context, name))
        ++result.stats["switches_removed"];
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // If/StatelessIf/Case/StatelessCase with a constant predicate -> a call of the taken branch, inlined.
  static Expected<bool> replaceConstantBranch(Graph& graph, const PassContext& context, size_t i) {
    const Node& node = graph.node(i);
    const bool isIf = node.op == "If" || node.op == "StatelessIf",
               isCase = node.op == "Case" || node.op == "StatelessCase";
    if ((!isIf && !isCase) || node.inputs.empty()) return false;
    const Tensor* pred = constantInput(graph, node.inputs[0]);
    if (!pred) return false;
    std::string branch;
    if (isIf) {
      const AttrValue* f = node.attr(tensorIsTrue(*pred) ? "then_branch" : "else_branch");
      if (!f || f->kind() != AttrValue::Kind::kFunc) return false;
      branch = f->func().name;
    } else {
      const AttrValue* list = node.attr("branches");
      if (!list || list->kind() != AttrValue::Kind::kList || list->list().func.empty() || pred->numElements() != 1)
        return false;
      int64_t index = static_cast<int64_t>(pred->elementAsDouble(0));
      const auto& funcs = list->list().func;
      if (index < 0 || index >= static_cast<int64_t>(funcs.size())) index = static_cast<int64_t>(funcs.size()) - 1;
      branch = funcs[static_cast<size_t>(index)].name;
    }
    if (!graph.library.find(branch)) return false;
    Node call = node;
    call.op = node.op.rfind("Stateless", 0) == 0 ? "PartitionedCall" : "StatefulPartitionedCall";
    call.inputs.erase(call.inputs.begin());
    call.attrs.clear();
    for (const char* key : {"Tin", "Tout"})
      if (const AttrValue* a = node.attr(key)) call.attrs[key] = *a;
    call.attrs["f"] = AttrValue::fromFunc(FuncAttr{branch, {}});
    for (const char* key : {"config", "config_proto", "executor_type"}) call.attrs[key] = AttrValue::fromString("");
    graph.mutableNode(i) = std::move(call);
    FS_RETURN_IF_ERROR(inlineCall(graph, i, context.lookup));
    return true;
  }

  static bool removeDeadSide(Graph& graph, const PassContext& context, const std::string& switchName) {
    const int64_t sw = graph.find(switchName);
    const Node& node = graph.node(static_cast<size_t>(sw));
    const Tensor* pred = constantInput(graph, node.inputs[1]);
    if (!pred || pred->dtype() != DType::kBool || pred->numElements() != 1) return false;
    const int live = *pred->data<bool>() ? 1 : 0;
    Fanout fanout(graph);
    std::set<size_t> dead;
    std::map<size_t, std::set<size_t>> deadMergeInputs;  // merge -> input slots that are dead
    std::vector<std::pair<size_t, int>> work;            // (consumer, slot) reached by a dead value
    for (const auto& use : fanout.uses(static_cast<size_t>(sw))) {
      if (use.slot < 0) return false;  // control edges from a Switch: leave them to the runtime
      if (graph.node(use.node).inputs[static_cast<size_t>(use.slot)].index != live)
        work.emplace_back(use.node, use.slot);
    }
    while (!work.empty()) {
      auto [n, slot] = work.back();
      work.pop_back();
      if (dead.count(n)) continue;
      const Node& consumer = graph.node(n);
      if (consumer.op == "Merge" || consumer.op == "RefMerge") {
        if (slot < 0) return false;
        deadMergeInputs[n].insert(static_cast<size_t>(slot));
        if (deadMergeInputs[n].size() < consumer.inputs.size()) continue;
      }
      if (context.isPreserved(consumer) || consumer.op == "Enter" || consumer.op == "Exit" ||
          consumer.op == "NextIteration" || consumer.op == "LoopCond")
        return false;
      dead.insert(n);
      for (const auto& use : fanout.uses(n)) work.emplace_back(use.node, use.slot);
    }
    // Merges that stay: drop their dead inputs; one live input left makes them an Identity.
    Rewirer rewirer;
    for (const auto& [m, slots] : deadMergeInputs) {
      if (dead.count(m)) continue;
      Node merge = graph.node(m);
      std::vector<TensorRef> inputs;
      int64_t liveIndex = -1;
      for (size_t k = 0; k < merge.inputs.size(); ++k)
        if (!slots.count(k)) {
          inputs.push_back(merge.inputs[k]);
          liveIndex = static_cast<int64_t>(k);
        }
      if (inputs.size() == 1) {
        if (fanout.dataUses(m) != fanout.dataUsesOfOutput(graph, m, 0)) {  // value_index is read: a constant now
          std::string name = uniqueNodeName(graph, merge.name + "/value_index");
          graph.addNode(makeConst(name, Tensor::scalar<int32_t>(DType::kInt32, static_cast<int32_t>(liveIndex)),
                                  merge.device, {merge.name}));
          rewirer.forward(merge.name, 1, TensorRef{name, 0, ""});
        }
        merge.op = "Identity";
        DType t = typeAttr(merge);
        merge.attrs.clear();
        merge.attrs["T"] = AttrValue::fromType(t);
      } else {
        merge.attrs["N"] = AttrValue::fromInt(static_cast<int64_t>(inputs.size()));
      }
      merge.inputs = std::move(inputs);
      graph.mutableNode(m) = std::move(merge);
    }
    Node identity{node.name, "Identity", node.device, {node.inputs[0]}, node.controlInputs, {}, {}};
    identity.attrs["T"] = AttrValue::fromType(typeAttr(node));
    if (live == 1) rewirer.forward(node.name, 1, TensorRef{node.name, 0, ""});
    graph.mutableNode(static_cast<size_t>(sw)) = std::move(identity);
    std::set<std::string> deadNames;
    for (size_t d : dead) deadNames.insert(graph.node(d).name);
    graph.removeNodes([&](const Node& n) { return deadNames.count(n.name) > 0; });
    rewirer.apply(graph);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createDeadBranchRemoval() { return std::make_unique<DeadBranchRemoval>(); }

}  // namespace flowscope
