// Plan building: pruning to what is needed, kernel resolution, slots and liveness counts.
#include "exec/plan.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "base/strings.h"
#include "exec/cpu/function_ops.h"
#include "ir/verify.h"

namespace flowscope {
namespace {

StepKind kindOf(const std::string& op) {
  if (op == "Switch" || op == "RefSwitch") return StepKind::kSwitch;
  if (op == "Merge" || op == "RefMerge") return StepKind::kMerge;
  if (op == "Enter" || op == "RefEnter") return StepKind::kEnter;
  if (op == "Exit" || op == "RefExit") return StepKind::kExit;
  if (op == "NextIteration" || op == "RefNextIteration") return StepKind::kNextIteration;
  return StepKind::kKernel;
}

Expected<std::unique_ptr<OpKernel>> kernelFor(const Node& node, const Graph& graph, const KernelProvider& provider) {
  if (provider)
    if (auto kernel = provider(node)) return kernel;
  if (graph.library.find(node.op)) return makeLibraryCallKernel(node);
  const KernelFactory* factory = KernelRegistry::global().find(node.op);
  if (!factory)
    return unimplemented(nodeLabel(node) + "no CPU kernel for op '" + node.op +
                         "'; the graph can be shown but this node cannot run");
  return (*factory)(node);
}

}  // namespace

bool parseTensorName(const std::string& text, std::string* node, int* index) {
  TensorRef ref;
  if (!parseTensorRef(text, false, &ref)) return false;
  *node = ref.node;
  *index = ref.index;
  return true;
}

Expected<std::unique_ptr<Plan>> Plan::build(const Graph& graph, const std::vector<std::string>& feeds,
                                            const std::vector<std::string>& fetches,
                                            const std::vector<std::string>& targets, const OpLookup& lookup,
                                            const KernelProvider& provider) {
  auto plan = std::make_unique<Plan>();
  plan->m_graph = std::make_shared<const Graph>(graph);  // shares nodes copy-on-write
  const Graph& g = *plan->m_graph;

  std::map<std::pair<size_t, int>, size_t> fedOutputs;  // (node, output) -> feed position
  for (size_t i = 0; i < feeds.size(); ++i) {
    std::string name;
    int index;
    if (!parseTensorName(feeds[i], &name, &index)) return invalidArgument("feed '" + feeds[i] + "' is not a tensor name");
    int64_t node = g.find(name);
    if (node < 0) return notFound("feed '" + feeds[i] + "' names no node in the graph");
    fedOutputs[{static_cast<size_t>(node), index}] = i;
  }
  std::vector<std::pair<size_t, int>> fetchRefs;
  for (const auto& f : fetches) {
    std::string name;
    int index;
    if (!parseTensorName(f, &name, &index)) return invalidArgument("fetch '" + f + "' is not a tensor name");
    int64_t node = g.find(name);
    if (node < 0) return notFound("fetch '" + f + "' names no node in the graph");
    fetchRefs.emplace_back(static_cast<size_t>(node), index);
  }

  // Non-strict: keep only the fanin of fetches and targets, stopping at fed nodes.
  std::vector<bool> fed(g.size(), false), keep(g.size(), false);
  for (const auto& [key, pos] : fedOutputs) fed[key.first] = true;
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

  // Order the kept nodes (Kahn); NextIteration edges close TF1 loops and are not ordering constraints.
  std::vector<int> stepOf(g.size(), -1);
  std::vector<size_t> order;
  {
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
    for (size_t n = 0; n < g.size(); ++n)
      if (keep[n] && pending[n] > 0)
        return invalidArgument(nodeLabel(g.node(n)) + "is on a cycle of data edges that is not a TF1 loop");
  }

  // Steps, kernels and output slots.
  for (size_t n : order) {
    const Node& node = g.node(n);
    PlanStep step;
    step.node = n;
    step.fed = fed[n];
    step.kind = kindOf(node.op);
    const OpDef* def = lookup(node.op);
    step.stateful = def && def->isStateful;
    std::vector<DType> outputs = outputTypesOf(node, def);
    step.numOutputs = static_cast<int>(outputs.size());
    if (!def && !step.fed)
      return unimplemented(nodeLabel(node) + "unknown op '" + node.op + "'; the graph can be shown but this node cannot run");
    if (!step.fed) {
      FS_ASSIGN_OR_RETURN(step.kernel, kernelFor(node, g, provider));
    } else {
      step.numOutputs = std::max(step.numOutputs, 1);
    }
    if (step.kind == StepKind::kEnter) {
      if (const AttrValue* frame = node.attr("frame_name")) step.frame = frame->s();
      if (const AttrValue* c = node.attr("is_constant")) step.constantEnter = c->b();
    }
    step.firstOutput = plan->m_slotCount;
    plan->m_slotCount += step.numOutputs;
    stepOf[n] = static_cast<int>(plan->m_steps.size());
    plan->m_steps.push_back(std::move(step));
  }
  plan->m_slotReaders.assign(static_cast<size_t>(plan->m_slotCount), 0);
  plan->m_slotProducer.assign(static_cast<size_t>(plan->m_slotCount), -1);
  plan->m_consumers.resize(plan->m_steps.size());
  std::vector<int> depth(plan->m_steps.size(), 1);
  int longest = 1;
  for (size_t s = 0; s < plan->m_steps.size(); ++s) {
    PlanStep& step = plan->m_steps[s];
    for (int k = 0; k < step.numOutputs; ++k) plan->m_slotProducer[static_cast<size_t>(step.firstOutput + k)] = static_cast<int>(s);
    plan->m_dataflow |= step.kind != StepKind::kKernel;
    if (step.fed) continue;
    const Node& node = g.node(step.node);
    for (const auto& in : node.inputs) {
      int src = stepOf[static_cast<size_t>(g.find(in.node))];
      const PlanStep& producer = plan->m_steps[static_cast<size_t>(src)];
      if (in.index >= producer.numOutputs)
        return invalidArgument(nodeLabel(node) + "reads output " + std::to_string(in.index) + " of '" + in.node +
                               "', which has " + std::to_string(producer.numOutputs));
      int slot = producer.firstOutput + in.index;
      step.inputSlots.push_back(slot);
      ++plan->m_slotReaders[static_cast<size_t>(slot)];
      plan->m_consumers[static_cast<size_t>(src)].push_back(static_cast<int>(s));
      depth[s] = std::max(depth[s], depth[static_cast<size_t>(src)] + 1);
    }
    for (const auto& c : node.controlInputs) {
      int src = stepOf[static_cast<size_t>(g.find(c))];
      step.controlSteps.push_back(src);
      plan->m_consumers[static_cast<size_t>(src)].push_back(static_cast<int>(s));
      depth[s] = std::max(depth[s], depth[static_cast<size_t>(src)] + 1);
    }
    longest = std::max(longest, depth[s]);
  }
  plan->m_parallelism = static_cast<double>(plan->m_steps.size()) / longest;
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

}  // namespace flowscope
