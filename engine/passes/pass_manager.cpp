// The pass pipeline and its recording.
#include "passes/pass_manager.h"

#include <chrono>

#include "base/strings.h"
#include "ir/graph_algorithms.h"
#include "ir/hash.h"
#include "ir/inline_calls.h"
#include "ir/verify.h"
#include "ops/op_registry.h"
#include "passes/function_library_optimization.h"

namespace flowscope {

bool PassContext::isPreserved(const Node& node) const { return preserved.count(node.name) > 0 || hasSideEffects(node); }

bool PassContext::hasSideEffects(const Node& node) const {
  auto cached = m_sideEffectsByOp.find(node.op);
  if (cached == m_sideEffectsByOp.end()) {
    bool effects =
        node.op.rfind("Placeholder", 0) == 0 || node.op == "_Arg" || node.op == "_Retval";  // feeds stay feedable
    if (!effects) {
      const OpDef* def = lookup ? lookup(node.op) : nullptr;
      effects = !def || def->isStateful;
    }
    cached = m_sideEffectsByOp.emplace(node.op, effects).first;
  }
  return cached->second || isStatefulNode(node, nullptr);  // the op's flags are cached; a node may add its own
}

std::vector<const PassInfo*> defaultPasses() {
  std::vector<const PassInfo*> passes;
  for (const auto& p : passTable())
    if (p.onByDefault) passes.push_back(&p);
  return passes;
}

Expected<std::vector<const PassInfo*>> parsePassList(const std::string& text) {
  std::vector<std::string> items;
  for (auto& item : splitString(text, ',')) {
    std::string trimmed = trim(item);
    if (!trimmed.empty()) items.push_back(trimmed);
  }
  if (items.empty()) return invalidArgument("--passes needs at least one pass name");
  bool relative = items[0][0] == '+' || items[0][0] == '-';
  std::vector<const PassInfo*> explicitList;
  std::set<const PassInfo*> on, off;
  for (const auto& item : items) {
    bool sign = item[0] == '+' || item[0] == '-';
    if (sign != relative) return invalidArgument("--passes mixes a plain list with +/- changes: '" + text + "'");
    const PassInfo* info = findPass(sign ? item.substr(1) : item);
    if (!info) {
      std::string known;
      for (const auto& p : passTable()) known += std::string(known.empty() ? "" : ", ") + p.name;
      return invalidArgument("unknown pass '" + item + "' (passes: " + known + ")");
    }
    if (!sign)
      explicitList.push_back(info);
    else
      (item[0] == '+' ? on : off).insert(info);
  }
  if (!relative) return explicitList;
  std::vector<const PassInfo*> passes;
  for (const auto& p : passTable())
    if ((p.onByDefault || on.count(&p)) && !off.count(&p)) passes.push_back(&p);
  return passes;
}

size_t countEdges(const Graph& graph) {
  size_t edges = 0;
  for (size_t i = 0; i < graph.size(); ++i) edges += graph.node(i).inputs.size() + graph.node(i).controlInputs.size();
  return edges;
}

PassManager::PassManager(PipelineOptions options) : m_options(std::move(options)) {
  if (m_options.passes.empty()) m_options.passes = defaultPasses();
}

// Where the pipeline stands between passes: the current graph, its hash, edge count and the hash cache (which
// holds the current graph's nodes), and whether the current graph is known to pass verification.
struct PassManager::PipelineState {
  std::shared_ptr<const Graph> current;
  uint64_t hash = 0;
  size_t edges = 0;
  NodeHashCache hashCache;
  bool verified = false;
};

namespace {

// After a pass: a graph made from a verified one whose functions the pass left alone has only its changed nodes
// checked again.
Status verifyAfterPass(const Graph& graph, const Graph& before, bool beforeVerified, const NodeHashCache& beforeNodes,
                       const OpLookup& lookup) {
  if (!beforeVerified || !graph.library.sameFunctionsAs(before.library)) return verifyGraphStatus(graph, lookup);
  return verifyGraphChangesStatus(
      graph, [&](const Node* node) { return beforeNodes.contains(node); }, lookup);
}

}  // namespace

Expected<PassRecord> PassManager::runPass(const PassInfo& info, int iteration, PipelineState& state,
                                          const PreservedNames& preserved, bool fetchesKnown) const {
  Graph graph = *state.current;  // shares every node until the pass touches it
  PassContext context;
  context.lookup = OpRegistry::global().lookupWith(&graph.library);
  context.preserved = preserved;
  context.fetchesKnown = fetchesKnown;
  context.cancelled = m_options.cancelled;
  context.evaluator = m_options.evaluator;

  PassRecord record;
  record.pass = info.name;
  record.iteration = iteration;
  record.nodesBefore = state.current->size();
  record.edgesBefore = state.edges;
  record.hashBefore = state.hash;
  const auto passStart = std::chrono::steady_clock::now();
  auto outcome = info.create()->run(graph, context);
  if (outcome && outcome->changed && m_options.verify) {  // an unchanged graph stays valid
    context.lookup = OpRegistry::global().lookupWith(&graph.library);
    Status valid = verifyAfterPass(graph, *state.current, state.verified, state.hashCache, context.lookup);
    if (!valid) outcome = Status(valid.code(), "the pass left an invalid graph: " + valid.message());
  }
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - passStart).count();
  if (!outcome) {
    if (outcome.status().code() == ErrorCode::kCancelled) return outcome.status();
    record.error = outcome.status().message();  // the graph from before the pass is kept
  } else {
    record.stats = outcome->stats;
    if (outcome->changed) {
      uint64_t after = hashGraph(graph, &state.hashCache);  // `current` still holds the old nodes here
      record.changed = after != state.hash;                 // a pass may report work that cancels out
      state.hash = after;
      state.edges = countEdges(graph);
      if (m_options.verify) graph.markVerified();
      state.current = std::make_shared<const Graph>(std::move(graph));
      state.verified = m_options.verify;
    }
  }
  record.nodesAfter = state.current->size();
  record.edgesAfter = state.edges;
  record.hashAfter = state.hash;
  if (m_options.keepSnapshots) record.snapshot = state.current;
  return record;
}

Expected<PassRecord> PassManager::runOnFunctionLibrary(int iteration, PipelineState& state) const {
  PassRecord record;
  record.pass = "function_library";
  record.iteration = iteration;
  record.nodesBefore = record.nodesAfter = state.current->size();
  record.edgesBefore = record.edgesAfter = state.edges;
  record.hashBefore = record.hashAfter = state.hash;
  const auto start = std::chrono::steady_clock::now();
  FS_ASSIGN_OR_RETURN(LibraryOptimization library, optimizeFunctionLibrary(*state.current, m_options));
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record.stats = std::move(library.stats);
  if (library.changed) {
    auto graph = std::make_shared<Graph>(*state.current);  // the same nodes; only the library's bodies changed
    graph->library = std::move(library.library);
    state.current = std::move(graph);
    record.changed = true;
  }
  if (m_options.keepSnapshots) record.snapshot = state.current;
  return record;
}

Expected<PipelineResult> PassManager::run(const Graph& input, std::set<std::string> preserved,
                                          bool fetchesKnown) const {
  const auto start = std::chrono::steady_clock::now();
  PipelineResult result;
  PipelineState state;
  state.current = std::make_shared<const Graph>(input);
  result.input = state.current;
  state.hash = hashGraph(*state.current, &state.hashCache);
  state.edges = countEdges(*state.current);
  state.verified = input.knownVerified();  // a loaded graph was verified as it loaded: passes check their changes

  const PreservedNames names(preserved);
  std::vector<std::pair<int, const PassInfo*>> schedule;
  for (int it = 0; it < std::max(1, m_options.iterations); ++it)
    for (const PassInfo* p : m_options.passes)
      if (it == 0 || !p->runOnce) schedule.emplace_back(it, p);

  int lastIteration = -1;
  bool iterationChanged = true;
  for (size_t step = 0; step < schedule.size(); ++step) {
    auto [iteration, info] = schedule[step];
    if (iteration != lastIteration) {
      if (!iterationChanged) break;  // a whole iteration changed nothing: the next would not either
      iterationChanged = false;
      lastIteration = iteration;
    }
    if (m_options.cancelled && m_options.cancelled->load()) return cancelled("optimizing was cancelled");
    if (m_options.progress) m_options.progress(step, schedule.size(), info->name);
    FS_ASSIGN_OR_RETURN(PassRecord record, runPass(*info, iteration, state, names, fetchesKnown));
    iterationChanged |= record.changed;
    result.records.push_back(std::move(record));
  }
  if (m_options.optimizeFunctions && !reachableFunctions(*state.current).empty()) {
    if (m_options.progress) m_options.progress(schedule.size(), schedule.size() + 1, "function_library");
    FS_ASSIGN_OR_RETURN(PassRecord record, runOnFunctionLibrary(std::max(0, lastIteration), state));
    if (record.changed) result.records.push_back(std::move(record));  // listed when some body changed
  }
  result.output = state.current;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::set<std::string> modelNodesToPreserve(const Model& model, bool* fetchesKnown) {
  std::set<std::string> keep;
  auto add = [&](const std::string& tensor) {
    std::string node;
    int index = 0;
    if (parseTensorName(tensor, &node, &index)) keep.insert(node);
  };
  for (size_t i = 0; i < model.graph.size(); ++i) {
    const Node& n = model.graph.node(i);
    if (n.op == "Placeholder" || n.op == "PlaceholderWithDefault" || n.op == "PlaceholderV2") keep.insert(n.name);
  }
  bool haveOutputs = false;
  for (const auto& s : model.signatures) {
    for (const auto& in : s.inputs) add(in.tensorName);
    for (const auto& out : s.outputs) {
      add(out.tensorName);
      haveOutputs = true;
    }
  }
  if (!haveOutputs)
    for (const auto& sink : sinkNodes(model.graph)) keep.insert(sink);
  if (fetchesKnown) *fetchesKnown = true;  // signature outputs, or the sinks, are everything a user can fetch
  return keep;
}

}  // namespace flowscope
