// DependencyOptimizer: removes control edges that another path already implies (a data edge from the same node,
// a constant with no inputs, or an ancestor of another input), turns side-effect-free nodes that only feed
// control edges into NoOps, and bypasses NoOps and control-only Identities when that does not add edges.
#include <set>
#include <unordered_set>

#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

constexpr size_t kAncestorSearchLimit = 512;  // nodes visited per redundant-edge check

class DependencyOptimization : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    int64_t converted = 0, bypassed = 0;
    {
      Fanout fanout(graph);
      Rewirer rewirer;
      std::set<std::string> removed;
      for (size_t i = 0; i < graph.size(); ++i) {
        const Node& n = graph.node(i);
        if (context.isPreserved(n) || isDataflowControlOp(n.op) || fanout.uses(i).empty() || fanout.dataUses(i) > 0)
          continue;
        if (n.op == "NoOp" || n.op == "Identity") {
          if (bypass(graph, fanout, i, rewirer)) {
            removed.insert(n.name);
            ++bypassed;
          }
        } else if (n.op != "Const") {
          toNoOp(graph, i);
          ++converted;
        }
      }
      if (!removed.empty()) {
        graph.removeNodes([&](const Node& n) { return removed.count(n.name) > 0; });
        rewirer.apply(graph);
      }
    }
    int64_t edges = removeRedundantControlEdges(graph, context);
    if (converted) result.stats["nodes_turned_into_noop"] = converted;
    if (bypassed) result.stats["noop_identity_bypassed"] = bypassed;
    if (edges) result.stats["control_edges_removed"] = edges;
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  // Control consumers of a NoOp or control-only Identity wait directly for what it waits for.
  static bool bypass(const Graph& graph, const Fanout& fanout, size_t i, Rewirer& rewirer) {
    const Node& n = graph.node(i);
    std::vector<std::string> waitFor;
    for (const auto& in : n.inputs) {
      const Node* producer = graph.findNode(in.node);
      if (!producer || isDataflowControlOp(producer->op)) return false;  // deadness would change
      waitFor.push_back(in.node);
    }
    waitFor.insert(waitFor.end(), n.controlInputs.begin(), n.controlInputs.end());
    const size_t in = waitFor.size(), out = fanout.uses(i).size();
    if (in * out > in + out && in > 1 && out > 1) return false;  // bypassing would add edges
    rewirer.forwardControl(n.name, waitFor);
    return true;
  }

  static void toNoOp(Graph& graph, size_t i) {
    Node& n = graph.mutableNode(i);
    std::vector<std::string> controls;
    for (const auto& in : n.inputs) controls.push_back(in.node);
    controls.insert(controls.end(), n.controlInputs.begin(), n.controlInputs.end());
    std::set<std::string> seen;
    n.controlInputs.clear();
    for (auto& c : controls)
      if (seen.insert(c).second) n.controlInputs.push_back(c);
    n.op = "NoOp";
    n.inputs.clear();
    n.attrs.clear();
  }

  // Is `target` reachable upstream of `from` (bounded search)?
  static bool isAncestor(const Graph& graph, const std::string& from, const std::string& target) {
    std::unordered_set<std::string> seen{from};
    std::vector<std::string> work{from};
    while (!work.empty() && seen.size() < kAncestorSearchLimit) {
      const Node* n = graph.findNode(work.back());
      work.pop_back();
      if (!n || n->op == "NextIteration") continue;
      auto visit = [&](const std::string& p) {
        if (p == target) return true;
        if (seen.insert(p).second) work.push_back(p);
        return false;
      };
      for (const auto& in : n->inputs)
        if (visit(in.node)) return true;
      for (const auto& c : n->controlInputs)
        if (visit(c)) return true;
    }
    return false;
  }

  static int64_t removeRedundantControlEdges(Graph& graph, const PassContext& context) {
    int64_t removed = 0;
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& n = graph.node(i);
      if (n.controlInputs.empty() || isDataflowControlOp(n.op)) continue;
      std::vector<std::string> keep;
      for (const auto& c : n.controlInputs) {
        const Node* producer = graph.findNode(c);
        bool redundant = false;
        for (const auto& in : n.inputs) redundant |= in.node == c;
        // A constant with no inputs of its own is ready at once: waiting for it orders nothing.
        redundant |= producer && producer->op == "Const" && producer->inputs.empty() &&
                     producer->controlInputs.empty() && !context.preserved.count(c);
        if (!redundant && n.inputs.size() + n.controlInputs.size() > 1)
          for (const auto& in : n.inputs)
            if (isAncestor(graph, in.node, c)) {
              redundant = true;
              break;
            }
        if (!redundant)
          for (const auto& other : n.controlInputs)
            if (other != c && std::find(keep.begin(), keep.end(), other) != keep.end() && isAncestor(graph, other, c)) {
              redundant = true;
              break;
            }
        if (!redundant) keep.push_back(c);
      }
      if (keep.size() == n.controlInputs.size()) continue;
      removed += static_cast<int64_t>(n.controlInputs.size() - keep.size());
      graph.mutableNode(i).controlInputs = std::move(keep);
    }
    return removed;
  }
};

}  // namespace

std::unique_ptr<Pass> createDependencyOptimization() { return std::make_unique<DependencyOptimization>(); }

}  // namespace flowscope
