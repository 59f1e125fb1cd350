// Plan building: pruning to what is needed, kernel resolution, slots and liveness counts.
#include "exec/plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "base/strings.h"
#include "exec/backend.h"
#include "ir/graph_algorithms.h"
#include "ir/verify.h"

namespace flowscope {
namespace {

// Steps that only hand a value on: they do not make running independent ops at once worth it.
bool costsNothing(const std::string& op) {
  static const std::set<std::string> ops = {"Const",
                                            "Identity",
                                            "IdentityN",
                                            "NoOp",
                                            "Snapshot",
                                            "StopGradient",
                                            "PreventGradient",
                                            "Placeholder",
                                            "PlaceholderWithDefault",
                                            "_Arg"};
  return ops.count(op) > 0;
}

StepKind kindOf(const std::string& op) {
  if (op == "Switch" || op == "RefSwitch") return StepKind::kSwitch;
  if (op == "Merge" || op == "RefMerge") return StepKind::kMerge;
  if (op == "Enter" || op == "RefEnter") return StepKind::kEnter;
  if (op == "Exit" || op == "RefExit") return StepKind::kExit;
  if (op == "NextIteration" || op == "RefNextIteration") return StepKind::kNextIteration;
  return StepKind::kKernel;
}

}  // namespace

KernelSource kernelsFrom(Backend& backend, const FunctionLibrary& library) {
  return [&backend, &library](const Node& node) -> Expected<StepKernel> {
    FS_ASSIGN_OR_RETURN(auto kernel, backend.makeKernel(node, library));
    return StepKernel{std::move(kernel), &backend};
  };
}

namespace {

// A tensor name resolved against the graph.
Expected<std::pair<size_t, int>> resolveTensor(const Graph& g, const std::string& text, const char* role) {
  std::string name;
  int index;
  if (!parseTensorName(text, &name, &index))
    return invalidArgument(std::string(role) + " '" + text + "' is not a tensor name");
  int64_t node = g.find(name);
  if (node < 0) return notFound(std::string(role) + " '" + text + "' names no node in the graph");
  return std::make_pair(static_cast<size_t>(node), index);
}

// Non-strict: keeps only the fanin of the fetches and targets, stopping at fed nodes.
Expected<std::vector<bool>> neededNodes(const Graph& g, const std::vector<bool>& fed,
                                        const std::vector<std::pair<size_t, int>>& fetchRefs,
                                        const std::vector<std::string>& targets) {
  std::vector<bool> keep(g.size(), false);
  std::vector<size_t> work;
  for (const auto& [node, index] : fetchRefs) work.push_back(node);
  for (const auto& t : targets) {
    int64_t node = g.find(t);
    if (node < 0) return notFound("target '" + t + "' names no node in the graph");
    work.push_back(static_cast<size_t>(node));
  }
  while (!work.empty()) {
    size_t n = work.back();
    work.pop_back();
    if (keep[n]) continue;
    keep[n] = true;
    if (fed[n]) continue;
    const Node& node = g.node(n);
    auto visit = [&](const std::string& name) -> Status {
      int64_t src = g.find(name);
      if (src < 0) return invalidArgument(nodeLabel(node) + "input '" + name + "' names no node");
      work.push_back(static_cast<size_t>(src));
      return Status::ok();
    };
    for (const auto& in : node.inputs) FS_RETURN_IF_ERROR(visit(in.node));
    for (const auto& c : node.controlInputs) FS_RETURN_IF_ERROR(visit(c));
  }
  return keep;
}

// Orders the kept nodes (Kahn); NextIteration edges close TF1 loops and are not ordering constraints.
Expected<std::vector<size_t>> orderNodes(const Graph& g, const std::vector<bool>& keep, const std::vector<bool>& fed) {
  std::vector<size_t> order;
  std::vector<int> pending(g.size(), 0);
  std::vector<std::vector<size_t>> users(g.size());
  for (size_t n = 0; n < g.size(); ++n) {
    if (!keep[n] || fed[n]) continue;
    const Node& node = g.node(n);
    auto edge = [&](const std::string& name) {
      auto src = static_cast<size_t>(g.find(name));
      if (g.node(src).op == "NextIteration" && !fed[src]) return;
      users[src].push_back(n);
      ++pending[n];
    };
    for (const auto& in : node.inputs) edge(in.node);
    for (const auto& c : node.controlInputs) edge(c);
  }
  std::vector<size_t> ready;
  for (size_t n = g.size(); n-- > 0;)
    if (keep[n] && pending[n] == 0) ready.push_back(n);
  while (!ready.empty()) {
    size_t n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (size_t u : users[n])
      if (--pending[u] == 0) ready.push_back(u);
  }
  for (size_t n = 0; n < g.size(); ++n) {
    if (!keep[n] || pending[n] == 0) continue;
    const std::vector<std::string> cycle = findEdgeCycle(g);
    if (cycle.empty())
      return invalidArgument(nodeLabel(g.node(n)) + "is on a cycle of data edges that is not a TF1 loop");
    return invalidArgument("the graph's edges form a cycle that is not a TF1 loop: " + joinCycle(cycle));
  }
  return order;
}

}  // namespace

Expected<std::unique_ptr<Plan>> Plan::build(const Graph& graph, const std::vector<std::string>& feeds,
                                            const std::vector<std::string>& fetches,
                                            const std::vector<std::string>& targets, const OpLookup& lookup,
                                            const KernelSource& kernels) {
  auto plan = std::make_unique<Plan>();
  plan->m_graph = std::make_shared<const Graph>(graph);  // shares nodes copy-on-write
  const Graph& g = *plan->m_graph;
  std::map<std::pair<size_t, int>, size_t> fedOutputs;  // (node, output) -> feed position
  std::vector<bool> fed(g.size(), false);
  for (size_t i = 0; i < feeds.size(); ++i) {
    FS_ASSIGN_OR_RETURN(auto ref, resolveTensor(g, feeds[i], "feed"));
    fedOutputs[ref] = i;
    fed[ref.first] = true;
  }
  std::vector<std::pair<size_t, int>> fetchRefs;
  for (const auto& f : fetches) {
    FS_ASSIGN_OR_RETURN(auto ref, resolveTensor(g, f, "fetch"));
    fetchRefs.push_back(ref);
  }
  FS_ASSIGN_OR_RETURN(std::vector<bool> keep, neededNodes(g, fed, fetchRefs, targets));
  FS_ASSIGN_OR_RETURN(std::vector<size_t> order, orderNodes(g, keep, fed));
  std::vector<int> stepOf(g.size(), -1);
  FS_RETURN_IF_ERROR(plan->addSteps(order, fed, lookup, kernels, stepOf));
  FS_RETURN_IF_ERROR(plan->connectSteps(stepOf));
  for (const auto& [node, index] : fetchRefs) {
    const PlanStep& step = plan->m_steps[static_cast<size_t>(stepOf[node])];
    if (index >= step.numOutputs)
      return invalidArgument("fetch '" + g.node(node).name + ":" + std::to_string(index) + "': op " + g.node(node).op +
                             " has " + std::to_string(step.numOutputs) + " outputs");
    int slot = step.firstOutput + index;
    plan->m_fetchSlots.push_back(slot);
    ++plan->m_slotReaders[static_cast<size_t>(slot)];
  }
  plan->m_feedSlots.assign(feeds.size(), -1);
  for (const auto& [key, pos] : fedOutputs) {
    if (stepOf[key.first] < 0) continue;  // fed but not needed
    const PlanStep& step = plan->m_steps[static_cast<size_t>(stepOf[key.first])];
    if (key.second >= step.numOutputs)
      return invalidArgument("feed '" + feeds[pos] + "': the node has " + std::to_string(step.numOutputs) + " outputs");
    plan->m_feedSlots[pos] = step.firstOutput + key.second;
  }
  return plan;
}

Status Plan::addSteps(const std::vector<size_t>& order, const std::vector<bool>& fed, const OpLookup& lookup,
                      const KernelSource& kernels, std::vector<int>& stepOf) {
  const Graph& g = *m_graph;
  for (size_t n : order) {
    const Node& node = g.node(n);
    PlanStep step;
    step.node = n;
    step.fed = fed[n];
    step.kind = kindOf(node.op);
    const OpDef* def = lookup(node.op);
    step.stateful = isStatefulNode(node, def);
    step.numOutputs = static_cast<int>(outputTypesOf(node, def).size());
    if (!def && !step.fed)
      return unimplemented(nodeLabel(node) + "unknown op '" + node.op +
                           "'; the graph can be shown but this node cannot run");
    if (!step.fed) {
      FS_ASSIGN_OR_RETURN(StepKernel kernel, kernels(node));
      step.kernel = std::move(kernel.kernel);
      step.backend = kernel.backend;
    } else {
      step.numOutputs = std::max(step.numOutputs, 1);
    }
    if (step.kind == StepKind::kEnter) {
      if (const AttrValue* frame = node.attr("frame_name")) step.frame = frame->s();
      if (const AttrValue* c = node.attr("is_constant")) step.constantEnter = c->b();
    }
    step.firstOutput = m_slotCount;
    m_slotCount += step.numOutputs;
    stepOf[n] = static_cast<int>(m_steps.size());
    m_steps.push_back(std::move(step));
  }
  return Status::ok();
}

Status Plan::connectSteps(const std::vector<int>& stepOf) {
  const Graph& g = *m_graph;
  m_slotReaders.assign(static_cast<size_t>(m_slotCount), 0);
  m_slotProducer.assign(static_cast<size_t>(m_slotCount), -1);
  m_consumers.resize(m_steps.size());
  std::vector<int> depth(m_steps.size(), 1), computeDepth(m_steps.size(), 0);
  int longest = 1, longestCompute = 1;
  for (size_t s = 0; s < m_steps.size(); ++s) {
    PlanStep& step = m_steps[s];
    const bool computes = !step.fed && !costsNothing(g.node(step.node).op);
    computeDepth[s] = computes ? 1 : 0;
    m_computeSteps += computes;
    for (int k = 0; k < step.numOutputs; ++k)
      m_slotProducer[static_cast<size_t>(step.firstOutput + k)] = static_cast<int>(s);
    m_dataflow |= step.kind != StepKind::kKernel;
    if (step.fed) continue;
    const Node& node = g.node(step.node);
    auto dependOn = [&](int src) {
      m_consumers[static_cast<size_t>(src)].push_back(static_cast<int>(s));
      depth[s] = std::max(depth[s], depth[static_cast<size_t>(src)] + 1);
      computeDepth[s] = std::max(computeDepth[s], computeDepth[static_cast<size_t>(src)] + (computes ? 1 : 0));
    };
    for (const auto& in : node.inputs) {
      int src = stepOf[static_cast<size_t>(g.find(in.node))];
      const PlanStep& producer = m_steps[static_cast<size_t>(src)];
      if (in.index >= producer.numOutputs)
        return invalidArgument(nodeLabel(node) + "reads output " + std::to_string(in.index) + " of '" + in.node +
                               "', which has " + std::to_string(producer.numOutputs));
      int slot = producer.firstOutput + in.index;
      step.inputSlots.push_back(slot);
      ++m_slotReaders[static_cast<size_t>(slot)];
      dependOn(src);
    }
    for (const auto& c : node.controlInputs) {
      int src = stepOf[static_cast<size_t>(g.find(c))];
      step.controlSteps.push_back(src);
      dependOn(src);
    }
    longest = std::max(longest, depth[s]);
    longestCompute = std::max(longestCompute, computeDepth[s]);
  }
  m_parallelism = static_cast<double>(m_steps.size()) / longest;
  m_computeParallelism = static_cast<double>(m_computeSteps) / longestCompute;
  return Status::ok();
}

}  // namespace flowscope
