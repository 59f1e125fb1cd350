// ModelPruner: drops nodes that nothing observable needs, and bypasses trivial forwarding ops
// (Identity, IdentityN, StopGradient, PreventGradient, Snapshot) so `a -> Identity -> StopGradient -> MatMul`
// becomes `a -> MatMul`.
#include <algorithm>
#include <set>
#include <string_view>

#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool isForwardingOp(const std::string& op) {
  return op == "Identity" || op == "IdentityN" || op == "StopGradient" || op == "PreventGradient" || op == "Snapshot";
}

bool producesRef(const std::string& op) { return op == "VariableV2" || op == "Variable" || op == "TemporaryVariable"; }

// Bypasses forwarding ops by node index (the edge index of the graph as it was): which go, and what each consumer
// reads and waits for instead. Only consumers of a bypassed node are touched, and no name is looked up.
class ForwardingBypass {
 public:
  ForwardingBypass(const Graph& graph, const PassContext& context)
      : m_graph(graph), m_edges(graph.edges()), m_bypass(graph.size()) {
    for (size_t i = 0; i < graph.size(); ++i) m_bypass[i] = chosen(i, context);
  }

  int64_t apply(Graph& graph) const {
    int64_t bypassed = std::count(m_bypass.begin(), m_bypass.end(), true);
    if (!bypassed) return 0;
    for (size_t i = 0; i < graph.size(); ++i) {
      if (m_bypass[i] || !touched(i)) continue;
      std::vector<TensorRef> inputs = resolvedInputs(i);
      std::vector<std::string> controls = resolvedControls(i);
      Node& node = graph.mutableNode(i);
      node.inputs = std::move(inputs);
      node.controlInputs = std::move(controls);
    }
    graph.removeNodes(m_bypass);
    return bypassed;
  }

 private:
  bool isBypassed(int32_t p) const { return p >= 0 && m_bypass[static_cast<size_t>(p)]; }

  bool canBypass(size_t index, const PassContext& context) const {
    const Node& node = m_graph.node(index);
    if (!isForwardingOp(node.op) || context.preserved.count(node.name) || node.inputs.empty()) return false;
    for (int32_t p : m_edges->inputProducers(index)) {
      if (p < 0) return false;
      const Node& producer = m_graph.node(static_cast<size_t>(p));
      // A Switch output may be dead; the Identity after it is what TF1 loops hang their control edges on.
      if (isDataflowControlOp(producer.op) || producesRef(producer.op)) return false;
      if (!node.device.empty() && !producer.device.empty() && node.device != producer.device) return false;
    }
    return true;
  }

  // A forwarding op with control inputs whose data consumer is forwarding too waits: the next iteration takes the
  // rest of the chain.
  bool chosen(size_t index, const PassContext& context) const {
    if (!canBypass(index, context)) return false;
    if (m_graph.node(index).controlInputs.empty()) return true;
    for (const auto& use : m_edges->uses(index))
      if (use.slot >= 0 && isForwardingOp(m_graph.node(use.node).op)) return false;
    return true;
  }

  bool touched(size_t i) const {
    const auto data = m_edges->inputProducers(i), control = m_edges->controlProducers(i);
    return std::any_of(data.begin(), data.end(), [&](int32_t p) { return isBypassed(p); }) ||
           std::any_of(control.begin(), control.end(), [&](int32_t p) { return isBypassed(p); });
  }

  // What input k of node i reads once the forwarding ops it reads through are gone: output j of a forwarding op
  // is its input j.
  std::vector<TensorRef> resolvedInputs(size_t i) const {
    std::vector<TensorRef> inputs = m_graph.node(i).inputs;
    const auto producers = m_edges->inputProducers(i);
    for (size_t k = 0; k < inputs.size(); ++k) {
      int32_t p = producers[k];
      for (int hops = 0; isBypassed(p) && hops < 10000; ++hops) {
        const Node& forwarder = m_graph.node(static_cast<size_t>(p));
        const auto index = static_cast<size_t>(inputs[k].index);
        if (inputs[k].index < 0 || index >= forwarder.inputs.size()) break;
        inputs[k] = forwarder.inputs[index];
        p = m_edges->inputProducers(static_cast<size_t>(p))[index];
      }
    }
    return inputs;
  }

  // Node i's control inputs, then the control inputs of the bypassed nodes it reads (its data must still wait for
  // them), each bypassed node replaced by what it read and waited for; first occurrences, never i itself.
  std::vector<std::string> resolvedControls(size_t i) const {
    const Node& node = m_graph.node(i);
    std::vector<std::string> out;
    const auto controls = m_edges->controlProducers(i);
    for (size_t k = 0; k < controls.size(); ++k) waitFor(controls[k], node.controlInputs[k], out, 0);
    std::vector<int32_t> gated;
    for (int32_t p : m_edges->inputProducers(i))
      if (isBypassed(p) && !m_graph.node(static_cast<size_t>(p)).controlInputs.empty()) gated.push_back(p);
    std::sort(gated.begin(), gated.end());
    gated.erase(std::unique(gated.begin(), gated.end()), gated.end());
    for (int32_t p : gated) {
      const auto pc = m_edges->controlProducers(static_cast<size_t>(p));
      for (size_t k = 0; k < pc.size(); ++k)
        waitFor(pc[k], m_graph.node(static_cast<size_t>(p)).controlInputs[k], out, 0);
    }
    std::set<std::string_view> seen;  // views of `out`'s strings, which stay in place: copied, not moved, below
    std::vector<std::string> unique;
    for (const auto& name : out)
      if (name != node.name && seen.insert(name).second) unique.push_back(name);
    return unique;
  }

  // Appends what a control edge on `name` (node p) means once bypassed nodes are gone.
  void waitFor(int32_t p, const std::string& name, std::vector<std::string>& out, int depth) const {
    if (!isBypassed(p) || depth > 64) {
      out.push_back(name);
      return;
    }
    const Node& forwarder = m_graph.node(static_cast<size_t>(p));
    const auto data = m_edges->inputProducers(static_cast<size_t>(p));
    for (size_t k = 0; k < data.size(); ++k) waitFor(data[k], forwarder.inputs[k].node, out, depth + 1);
    const auto control = m_edges->controlProducers(static_cast<size_t>(p));
    for (size_t k = 0; k < control.size(); ++k) waitFor(control[k], forwarder.controlInputs[k], out, depth + 1);
  }

  const Graph& m_graph;
  std::shared_ptr<const EdgeIndex> m_edges;
  std::vector<bool> m_bypass;
};

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
    const auto dead = static_cast<int64_t>(std::count(live.begin(), live.end(), false));
    if (dead == 0) return 0;
    live.flip();
    graph.removeNodes(live);
    return dead;
  }

  static int64_t bypassForwardingOps(Graph& graph, const PassContext& context) {
    ForwardingBypass bypass(graph, context);
    return bypass.apply(graph);
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
