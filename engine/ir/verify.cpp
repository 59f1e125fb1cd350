// Verifier implementation.
#include "ir/verify.h"

#include <unordered_map>
#include <unordered_set>

namespace flowscope {
namespace {

class Verifier {
 public:
  Verifier(const Graph& graph, const OpLookup& lookup, std::string function, std::vector<VerifyIssue>& issues)
      : m_graph(graph), m_lookup(lookup), m_function(std::move(function)), m_issues(issues) {}

  void run(const FunctionDef* owner) {
    checkNames();
    if (owner) collectArgs(*owner);
    for (size_t i = 0; i < m_graph.size(); ++i) checkInputs(m_graph.node(i), owner != nullptr);
    if (!owner) checkCycles();
  }

 private:
  void report(const Node& node, std::string message) {
    m_issues.push_back({m_function, node.name, node.op, std::move(message)});
  }

  const OpDef* lookup(const std::string& op) {
    if (const FunctionDef* f = m_graph.library.find(op)) return &f->signature;
    return m_lookup ? m_lookup(op) : nullptr;
  }

  void checkNames() {
    std::unordered_set<std::string> seen;
    for (size_t i = 0; i < m_graph.size(); ++i) {
      const Node& n = m_graph.node(i);
      if (n.name.empty())
        report(n, "node " + std::to_string(i) + " has an empty name");
      else if (!seen.insert(n.name).second)
        report(n, "duplicate node name '" + n.name + "'");
      if (n.op.empty()) report(n, "node has an empty op");
    }
  }

  void collectArgs(const FunctionDef& f) {
    for (const auto& arg : f.signature.inputs) m_args.insert(arg.name);
  }

  void checkInputs(const Node& n, bool functionBody) {
    const OpDef* def = lookup(n.op);
    std::vector<FlatArg> expected;
    bool arityKnown = false;
    if (def) {
      auto flat = flattenArgs(def->inputs, n.attrs);
      if (flat) {
        expected = std::move(flat).value();
        arityKnown = true;
      } else {
        report(n, "cannot resolve inputs of op '" + n.op + "': " + flat.status().message());
      }
    }
    if (arityKnown && expected.size() != n.inputs.size())
      report(n, "op '" + n.op + "' expects " + std::to_string(expected.size()) + " data inputs, got " +
                    std::to_string(n.inputs.size()));
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const TensorRef& in = n.inputs[k];
      if (functionBody && m_args.count(in.node) && in.outputArg.empty()) continue;
      const Node* src = m_graph.findNode(in.node);
      if (!src) {
        report(n, "input " + std::to_string(k) + " '" + in.toString() + "' names no node" +
                      (functionBody ? " or argument" : ""));
        continue;
      }
      if (functionBody) continue;  // function-style output names are resolved at instantiation
      std::vector<DType> srcTypes = outputTypesOf(*src, lookup(src->op));
      if (srcTypes.empty()) continue;
      if (static_cast<size_t>(in.index) >= srcTypes.size()) {
        report(n, "input " + std::to_string(k) + " '" + in.toString() + "' reads output " + std::to_string(in.index) +
                      " but op '" + src->op + "' has " + std::to_string(srcTypes.size()) + " outputs");
        continue;
      }
      DType got = srcTypes[static_cast<size_t>(in.index)];
      if (arityKnown && k < expected.size()) {
        DType want = expected[k].dtype;
        if (want != DType::kInvalid && got != DType::kInvalid && want != got)
          report(n, "input " + std::to_string(k) + " ('" + expected[k].arg->name + "') of op '" + n.op + "' expects " +
                        std::string(dtypeName(want)) + " but '" + in.toString() + "' is " +
                        std::string(dtypeName(got)));
      }
    }
    for (const auto& c : n.controlInputs)
      if (!m_graph.findNode(c) && !(functionBody && m_args.count(c)))
        report(n, "control input '^" + c + "' names no node");
  }

  void checkCycles() {
    const std::vector<std::string> cycle = findEdgeCycle(m_graph);
    if (cycle.empty()) return;
    const Node* first = m_graph.findNode(cycle.front());
    report(*first, "cycle in the graph's edges: " + joinCycle(cycle) +
                       " (only TF1 loops may be cyclic, through NextIteration)");
  }

  const Graph& m_graph;
  const OpLookup& m_lookup;
  std::string m_function;
  std::vector<VerifyIssue>& m_issues;
  std::unordered_set<std::string> m_args;
};

// Inputs of each node by index over data and control edges; edges out of NextIteration close TF1 loops and are left
// out.
std::vector<std::vector<size_t>> acyclicPredecessors(const Graph& graph) {
  std::vector<std::vector<size_t>> preds(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    auto addEdge = [&](const std::string& from) {
      int64_t src = graph.find(from);
      if (src >= 0 && graph.node(static_cast<size_t>(src)).op != "NextIteration")
        preds[i].push_back(static_cast<size_t>(src));
    };
    for (const auto& in : n.inputs) addEdge(in.node);
    for (const auto& c : n.controlInputs) addEdge(c);
  }
  return preds;
}

// The stack of an iterative DFS along inputs holds each node's input above it; when an input is already on the
// stack, the entries from it to the top are a cycle, which in data-flow order runs from the top down.
std::vector<std::string> cycleFromStack(const Graph& graph, const std::vector<std::pair<size_t, size_t>>& stack,
                                        size_t repeated) {
  std::vector<std::string> cycle{graph.node(repeated).name};
  for (auto it = stack.rbegin(); it != stack.rend() && it->first != repeated; ++it)
    cycle.push_back(graph.node(it->first).name);
  return cycle;
}

}  // namespace

std::vector<std::string> findEdgeCycle(const Graph& graph) {
  const std::vector<std::vector<size_t>> preds = acyclicPredecessors(graph);
  std::vector<uint8_t> state(graph.size(), 0);  // 0 new, 1 on stack, 2 done
  for (size_t root = 0; root < graph.size(); ++root) {
    if (state[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == preds[node].size()) {
        state[node] = 2;
        stack.pop_back();
        continue;
      }
      const size_t p = preds[node][next++];
      if (state[p] == 1) return cycleFromStack(graph, stack, p);
      if (state[p] == 0) {
        state[p] = 1;
        stack.emplace_back(p, 0);
      }
    }
  }
  return {};
}

std::string joinCycle(const std::vector<std::string>& cycle) {
  std::string text;
  for (const auto& name : cycle) text += "'" + name + "' -> ";
  return cycle.empty() ? text : text + "'" + cycle.front() + "'";
}

std::string VerifyIssue::toString() const {
  std::string where = function.empty() ? "" : "function '" + function + "', ";
  return where + "node '" + node + "' (op " + op + "): " + message;
}

std::vector<DType> outputTypesOf(const Node& node, const OpDef* def) {
  if (!def) return {};
  auto flat = flattenArgs(def->outputs, node.attrs);
  if (!flat) return {};
  std::vector<DType> types;
  for (const auto& f : *flat) types.push_back(f.dtype);
  return types;
}

std::vector<VerifyIssue> verifyGraph(const Graph& graph, const OpLookup& lookup) {
  std::vector<VerifyIssue> issues;
  Verifier(graph, lookup, "", issues).run(nullptr);
  for (const auto& f : graph.library.functions()) {
    if (!f.body) continue;
    Graph body = *f.body;
    body.library = graph.library;  // calls inside bodies resolve against the same library
    Verifier(body, lookup, f.name(), issues).run(&f);
  }
  return issues;
}

Status verifyGraphStatus(const Graph& graph, const OpLookup& lookup, size_t maxIssues) {
  auto issues = verifyGraph(graph, lookup);
  if (issues.empty()) return Status::ok();
  std::string message = std::to_string(issues.size()) + " problem(s) in the graph:";
  for (size_t i = 0; i < issues.size() && i < maxIssues; ++i) message += "\n  " + issues[i].toString();
  return invalidArgument(message);
}

}  // namespace flowscope
