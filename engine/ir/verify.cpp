// Verifier implementation.
#include "ir/verify.h"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "base/thread_pool.h"

namespace flowscope {
namespace {

class Verifier {
 public:
  Verifier(const Graph& graph, const OpLookup& lookup, std::string function, std::vector<VerifyIssue>& issues)
      : m_graph(graph), m_lookup(lookup), m_function(std::move(function)), m_issues(issues), m_edges(graph.edges()) {}

  /// `recheck`: the nodes whose inputs are checked (null: all). Both steps over the nodes run on the intra-op
  /// threads, each chunk with issues of its own, appended in node order.
  void run(const FunctionDef* owner, const std::vector<bool>* recheck = nullptr) {
    checkNames();
    if (owner) collectArgs(*owner);
    resolveSchemas(recheck);
    checkAllInputs(recheck, owner != nullptr);
    if (!owner) checkCycles();
  }

 private:
  // A node's output types: a slice of the pool of the chunk that resolved it.
  struct TypeSpan {
    const DType* begin = nullptr;
    uint32_t count = 0;
  };

  // What one chunk of nodes keeps while its schemas are resolved or its inputs checked.
  struct ChunkState {
    std::unordered_map<std::string_view, const OpDef*> defsByOp;
    std::vector<DType> types;
    std::vector<FlatArg> expected;
    std::vector<VerifyIssue> issues;
  };

  void report(std::vector<VerifyIssue>& issues, const Node& node, std::string message) const {
    issues.push_back({m_function, node.name, node.op, std::move(message)});
  }

  // The schema of an op (a library function's signature first), looked up once per op name and chunk.
  const OpDef* lookup(ChunkState& chunk, const std::string& op) const {
    auto [it, inserted] = chunk.defsByOp.try_emplace(op, nullptr);
    if (!inserted) return it->second;
    if (const FunctionDef* f = m_graph.library.find(op))
      it->second = &f->signature;
    else if (m_lookup)
      it->second = m_lookup(op);
    return it->second;
  }

  // The nodes whose schema and output types the input checks read: every node, or those rechecked and the nodes
  // they read.
  std::vector<bool> neededNodes(const std::vector<bool>* recheck) const {
    std::vector<bool> needed(m_graph.size(), recheck == nullptr);
    if (!recheck) return needed;
    for (size_t i = 0; i < m_graph.size(); ++i) {
      if (!(*recheck)[i]) continue;
      needed[i] = true;
      for (int32_t p : m_edges->inputProducers(i))
        if (p >= 0) needed[static_cast<size_t>(p)] = true;
    }
    return needed;
  }

  // Each needed node's schema and output types (empty when unknown).
  void resolveSchemas(const std::vector<bool>* recheck) {
    const std::vector<bool> needed = neededNodes(recheck);
    m_defs.assign(m_graph.size(), nullptr);
    m_typeSpans.assign(m_graph.size(), TypeSpan{});
    std::mutex poolsMutex;
    parallelFor(static_cast<int64_t>(m_graph.size()), 200, [&](int64_t begin, int64_t end) {
      ChunkState chunk;
      std::vector<DType> scratch;
      std::vector<std::pair<size_t, uint32_t>> starts;  // (node, offset in chunk.types)
      for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
        if (!needed[i]) continue;
        const Node& node = m_graph.node(i);
        const OpDef* def = m_defs[i] = lookup(chunk, node.op);
        if (!def || !flattenArgTypes(def->outputs, node.attrs, &scratch) || scratch.empty()) continue;
        starts.emplace_back(i, static_cast<uint32_t>(chunk.types.size()));
        chunk.types.insert(chunk.types.end(), scratch.begin(), scratch.end());
        m_typeSpans[i].count = static_cast<uint32_t>(scratch.size());
      }
      std::lock_guard lock(poolsMutex);
      m_typePools.push_back(std::move(chunk.types));  // moving a vector keeps its buffer where it is
      for (const auto& [node, offset] : starts) m_typeSpans[node].begin = m_typePools.back().data() + offset;
    });
  }

  void checkAllInputs(const std::vector<bool>* recheck, bool functionBody) {
    std::vector<std::pair<int64_t, std::vector<VerifyIssue>>> found;  // (chunk's first node, its issues)
    std::mutex foundMutex;
    parallelFor(static_cast<int64_t>(m_graph.size()), 200, [&](int64_t begin, int64_t end) {
      ChunkState chunk;
      for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i)
        if (!recheck || (*recheck)[i]) checkInputs(chunk, i, functionBody);
      if (chunk.issues.empty()) return;
      std::lock_guard lock(foundMutex);
      found.emplace_back(begin, std::move(chunk.issues));
    });
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [begin, issues] : found) std::move(issues.begin(), issues.end(), std::back_inserter(m_issues));
  }

  std::span<const DType> outputTypes(size_t node) const { return {m_typeSpans[node].begin, m_typeSpans[node].count}; }

  // The name index keeps the first node of each name: a node that is not the one it finds repeats a name.
  void checkNames() {
    const bool unique = m_graph.namesUnique();
    for (size_t i = 0; i < m_graph.size(); ++i) {
      const Node& n = m_graph.node(i);
      if (n.name.empty())
        report(m_issues, n, "node " + std::to_string(i) + " has an empty name");
      else if (!unique && m_graph.find(n.name) != static_cast<int64_t>(i))
        report(m_issues, n, "duplicate node name '" + n.name + "'");
      if (n.op.empty()) report(m_issues, n, "node has an empty op");
    }
  }

  void collectArgs(const FunctionDef& f) {
    for (const auto& arg : f.signature.inputs) m_args.insert(arg.name);
  }

  void checkInputs(ChunkState& chunk, size_t index, bool functionBody) const {
    const Node& n = m_graph.node(index);
    const OpDef* def = m_defs[index];
    std::vector<FlatArg>& expected = chunk.expected;
    expected.clear();
    bool arityKnown = false;
    if (def) {
      Status flat = flattenArgs(def->inputs, n.attrs, &expected);
      arityKnown = flat.isOk();
      if (!arityKnown) report(chunk.issues, n, "cannot resolve inputs of op '" + n.op + "': " + flat.message());
    }
    if (arityKnown && expected.size() != n.inputs.size())
      report(chunk.issues, n,
             "op '" + n.op + "' expects " + std::to_string(expected.size()) + " data inputs, got " +
                 std::to_string(n.inputs.size()));
    const auto producers = m_edges->inputProducers(index);
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const TensorRef& in = n.inputs[k];
      if (functionBody && m_args.count(in.node) && in.outputArg.empty()) continue;
      if (producers[k] < 0) {
        report(chunk.issues, n,
               "input " + std::to_string(k) + " '" + in.toString() + "' names no node" +
                   (functionBody ? " or argument" : ""));
        continue;
      }
      if (functionBody) continue;  // function-style output names are resolved at instantiation
      checkInputType(chunk, n, k, static_cast<size_t>(producers[k]), arityKnown);
    }
    const auto controls = m_edges->controlProducers(index);
    for (size_t k = 0; k < n.controlInputs.size(); ++k)
      if (controls[k] < 0 && !(functionBody && m_args.count(n.controlInputs[k])))
        report(chunk.issues, n, "control input '^" + n.controlInputs[k] + "' names no node");
  }

  // Input `k` of `n` reads an output its producer has, of the dtype the schema expects there.
  void checkInputType(ChunkState& chunk, const Node& n, size_t k, size_t producer, bool arityKnown) const {
    const TensorRef& in = n.inputs[k];
    const std::span<const DType> srcTypes = outputTypes(producer);
    if (srcTypes.empty()) return;
    if (static_cast<size_t>(in.index) >= srcTypes.size()) {
      report(chunk.issues, n,
             "input " + std::to_string(k) + " '" + in.toString() + "' reads output " + std::to_string(in.index) +
                 " but op '" + m_graph.node(producer).op + "' has " + std::to_string(srcTypes.size()) + " outputs");
      return;
    }
    const std::vector<FlatArg>& expected = chunk.expected;
    if (!arityKnown || k >= expected.size()) return;
    const DType got = srcTypes[static_cast<size_t>(in.index)], want = expected[k].dtype;
    if (want != DType::kInvalid && got != DType::kInvalid && want != got)
      report(chunk.issues, n,
             "input " + std::to_string(k) + " ('" + expected[k].arg->name + "') of op '" + n.op + "' expects " +
                 std::string(dtypeName(want)) + " but '" + in.toString() + "' is " + std::string(dtypeName(got)));
  }

  void checkCycles() {
    const std::vector<std::string> cycle = findEdgeCycle(m_graph);
    if (cycle.empty()) return;
    const Node* first = m_graph.findNode(cycle.front());
    report(
        m_issues, *first,
        "cycle in the graph's edges: " + joinCycle(cycle) + " (only TF1 loops may be cyclic, through NextIteration)");
  }

  const Graph& m_graph;
  const OpLookup& m_lookup;
  std::string m_function;
  std::vector<VerifyIssue>& m_issues;
  std::unordered_set<std::string> m_args;
  std::shared_ptr<const EdgeIndex> m_edges;
  std::vector<const OpDef*> m_defs;             ///< by node: its schema, or null (unknown, or not needed)
  std::vector<TypeSpan> m_typeSpans;            ///< by node: its output types
  std::vector<std::vector<DType>> m_typePools;  ///< the chunks' output types, which m_typeSpans point into
};

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
  const auto edges = graph.edges();
  std::vector<uint8_t> state(graph.size(), 0);   // 0 new, 1 on stack, 2 done
  std::vector<std::pair<size_t, size_t>> stack;  // (node, position in its data then control inputs)
  for (size_t root = 0; root < graph.size(); ++root) {
    if (state[root]) continue;
    stack.assign(1, {root, 0});
    state[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto data = edges->inputProducers(node), control = edges->controlProducers(node);
      if (next == data.size() + control.size()) {
        state[node] = 2;
        stack.pop_back();
        continue;
      }
      const int32_t producer = next < data.size() ? data[next] : control[next - data.size()];
      ++next;
      if (producer < 0 || edges->closesLoop(static_cast<size_t>(producer))) continue;  // TF1 loops may be cyclic
      const auto p = static_cast<size_t>(producer);
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
  std::vector<DType> types;
  if (def && !flattenArgTypes(def->outputs, node.attrs, &types)) types.clear();
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

Status verifyGraphChangesStatus(const Graph& graph, const std::function<bool(const Node*)>& unchanged,
                                const OpLookup& lookup, size_t maxIssues) {
  const auto edges = graph.edges();
  std::vector<bool> changed(graph.size()), recheck(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) changed[i] = !unchanged(&graph.node(i));
  auto producerChanged = [&](int32_t p) { return p < 0 || changed[static_cast<size_t>(p)]; };
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto data = edges->inputProducers(i), control = edges->controlProducers(i);
    recheck[i] = changed[i] || std::any_of(data.begin(), data.end(), producerChanged) ||
                 std::any_of(control.begin(), control.end(), producerChanged);
  }
  std::vector<VerifyIssue> issues;
  Verifier(graph, lookup, "", issues).run(nullptr, &recheck);
  return issues.empty() ? Status::ok() : verifyGraphStatus(graph, lookup, maxIssues);
}

Status verifyGraphStatus(const Graph& graph, const OpLookup& lookup, size_t maxIssues) {
  auto issues = verifyGraph(graph, lookup);
  if (issues.empty()) return Status::ok();
  std::string message = std::to_string(issues.size()) + " problem(s) in the graph:";
  for (size_t i = 0; i < issues.size() && i < maxIssues; ++i) message += "\n  " + issues[i].toString();
  return invalidArgument(message);
}

}  // namespace flowscope
