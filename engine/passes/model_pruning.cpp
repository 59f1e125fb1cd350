// ModelPruner: drops nodes that nothing observable needs, and bypasses trivial forwarding ops
// (Identity, IdentityN, StopGradient, PreventGradient, Snapshot) so `a -> Identity -> StopGradient -> MatMul`
// becomes `a -> MatMul`.
#include <set>
#include <unordered_set>

#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool isForwardingOp(const std::string& op) {
  return op == "Identity" || op == "IdentityN" || op == "StopGradient" || op == "PreventGradient" || op == "Snapshot";
}

bool producesRef(const std::string& op) { return op == "VariableV2" || op == "Variable" || op == "TemporaryVariable"; }

class ModelPruning : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    if (context.fetchesKnown) {
      int64_t dropped = dropUnreachable(graph, context);
      if (dropped) result.stats["unreachable_removed"] = dropped;
    }
    int64_t bypassed = bypassForwardingOps(graph, context);
    if (bypassed) result.stats["forwarding_ops_bypassed"] = bypassed;
    int64_t duplicates = dropDuplicateControlInputs(graph);
    if (duplicates) result.stats["duplicate_control_inputs_removed"] = duplicates;
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // Everything outside the fan-in of the preserved (fetched and fed) nodes. As in a TensorFlow session, a
  // stateful op that no fetch depends on would not run, so it goes too (a SavedModel's save/restore subgraph).
  static int64_t dropUnreachable(Graph& graph, const PassContext& context) {
    const auto edges = graph.edges();
    std::vector<bool> live(graph.size(), false);
    std::vector<size_t> work;
    auto reach = [&](int64_t p) {
      if (p >= 0 && !live[static_cast<size_t>(p)]) {
        live[static_cast<size_t>(p)] = true;
        work.push_back(static_cast<size_t>(p));
      }
    };
    for (size_t i = 0; i < graph.size(); ++i)
      if (context.preserved.count(graph.node(i).name) || graph.node(i).op.rfind("Placeholder", 0) == 0)
        reach(static_cast<int64_t>(i));
    while (!work.empty()) {
      const size_t n = work.back();
      work.pop_back();
      for (int32_t p : edges->inputProducers(n)) reach(p);
      for (int32_t p : edges->controlProducers(n)) reach(p);
    }
    std::unordered_set<const Node*> dead;
    for (size_t i = 0; i < live.size(); ++i)
      if (!live[i]) dead.insert(&graph.node(i));
    if (dead.empty()) return 0;
    graph.removeNodes([&](const Node& n) { return dead.count(&n) > 0; });
    return static_cast<int64_t>(dead.size());
  }

  static bool canBypass(const Graph& graph, const EdgeIndex& edges, size_t index, const PassContext& context) {
    const Node& node = graph.node(index);
    if (!isForwardingOp(node.op) || context.preserved.count(node.name) || node.inputs.empty()) return false;
    for (int32_t p : edges.inputProducers(index)) {
      if (p < 0) return false;
      const Node& producer = graph.node(static_cast<size_t>(p));
      // A Switch output may be dead; the Identity after it is what TF1 loops hang their control edges on.
      if (isDataflowControlOp(producer.op) || producesRef(producer.op)) return false;
      if (!node.device.empty() && !producer.device.empty() && node.device != producer.device) return false;
    }
    return true;
  }

  static int64_t bypassForwardingOps(Graph& graph, const PassContext& context) {
    Rewirer rewirer;
    std::unordered_set<const Node*> bypassed;
    std::vector<std::pair<std::string, std::vector<std::string>>> extraControls;  // consumer gets these
    Fanout fanout(graph);
    const auto edges = graph.edges();
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& node = graph.node(i);
      if (!canBypass(graph, *edges, i, context)) continue;
      bool consumerIsForwarding = false;
      for (const auto& use : fanout.uses(i))
        consumerIsForwarding |= use.slot >= 0 && isForwardingOp(graph.node(use.node).op);
      if (!node.controlInputs.empty() && consumerIsForwarding)
        continue;  // the next iteration takes the rest of the chain
      for (size_t k = 0; k < node.inputs.size(); ++k) rewirer.forward(node.name, static_cast<int>(k), node.inputs[k]);
      std::vector<std::string> waitFor;
      for (const auto& in : node.inputs) waitFor.push_back(in.node);
      waitFor.insert(waitFor.end(), node.controlInputs.begin(), node.controlInputs.end());
      rewirer.forwardControl(node.name, waitFor);
      if (!node.controlInputs.empty())  // data consumers must still wait for what the Identity waited for
        for (const auto& use : fanout.uses(i))
          if (use.slot >= 0) extraControls.emplace_back(graph.node(use.node).name, node.controlInputs);
      bypassed.insert(&node);
    }
    if (bypassed.empty()) return 0;
    for (const auto& [consumer, controls] : extraControls) {
      Node& m = graph.mutableNode(static_cast<size_t>(graph.find(consumer)));
      m.controlInputs.insert(m.controlInputs.end(), controls.begin(), controls.end());
    }
    graph.removeNodes([&](const Node& n) { return bypassed.count(&n) > 0; });
    rewirer.apply(graph);
    return static_cast<int64_t>(bypassed.size());
  }

  static int64_t dropDuplicateControlInputs(Graph& graph) {
    int64_t removed = 0;
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& n = graph.node(i);
      std::set<std::string> seen;
      bool duplicate = false;
      for (const auto& c : n.controlInputs) duplicate |= !seen.insert(c).second;
      if (!duplicate) continue;
      Node& m = graph.mutableNode(i);
      seen.clear();
      size_t before = m.controlInputs.size();
      std::erase_if(m.controlInputs, [&](const std::string& c) { return !seen.insert(c).second; });
      removed += static_cast<int64_t>(before - m.controlInputs.size());
    }
    return removed;
  }
};

}  // namespace

std::unique_ptr<Pass> createModelPruning() { return std::make_unique<ModelPruning>(); }

}  // namespace flowscope
