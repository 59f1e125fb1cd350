// Session implementation.
#include "exec/session.h"

#include "exec/cpu/kernel_util.h"
#include "exec/vulkan/vulkan_partition.h"
#include "ops/op_registry.h"

namespace flowscope {

std::string variableResourceKey(const Node& node) {
  const AttrValue* shared = node.attr("shared_name");
  std::string name = shared && shared->kind() == AttrValue::Kind::kString && !shared->s().empty() ? shared->s() : node.name;
  return "var:" + name;
}

Session::Session(std::shared_ptr<const Model> model, SessionOptions options)
    : m_model(std::move(model)), m_options(options), m_functions(m_model->graph.library, {options.interOpThreads}) {
  for (const auto& v : m_model->variables) {
    if (v.node.empty() || !v.value.isValid()) continue;
    if (const Node* node = m_model->graph.findNode(v.node)) m_resources.assignVariable(variableResourceKey(*node), v.value);
  }
}

Status Session::checkFeed(const std::string& name, const Tensor& value) const {
  std::string nodeName;
  int index;
  if (!parseTensorName(name, &nodeName, &index)) return invalidArgument("feed '" + name + "' is not a tensor name");
  const Node* node = m_model->graph.findNode(nodeName);
  if (!node) return notFound("feed '" + name + "' names no node in the graph");
  if (node->op != "Placeholder" && node->op != "PlaceholderWithDefault") return Status::ok();
  const AttrValue* dtype = node->attr("dtype");
  if (dtype && dtype->kind() == AttrValue::Kind::kType && dtype->type() != value.dtype())
    return invalidArgument("feed '" + name + "' has dtype " + std::string(dtypeName(value.dtype())) + " but placeholder '" +
                           nodeName + "' expects " + std::string(dtypeName(dtype->type())));
  const AttrValue* shape = node->attr("shape");
  if (shape && shape->kind() == AttrValue::Kind::kShape && !shape->shape().isCompatibleWith(value.shape()))
    return invalidArgument("feed '" + name + "' has shape " + value.shape().toString() + " but placeholder '" + nodeName +
                           "' expects " + shape->shape().toString());
  return Status::ok();
}

Expected<Session::PlannedRun> Session::plan(const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
                                            const std::vector<std::string>& targets) {
  const OpLookup lookup = OpRegistry::global().lookupWith(&m_model->graph.library);
  PlannedRun planned;
  planned.fetches = fetches;
  if (!m_options.vulkan) {
    FS_ASSIGN_OR_RETURN(planned.plan, Plan::build(m_model->graph, feeds, fetches, targets, lookup));
    return planned;
  }
  std::set<std::string> fed;
  for (const auto& f : feeds) fed.insert(f.substr(0, f.rfind(':')));
  FS_ASSIGN_OR_RETURN(vk::Partition part, vk::partitionForVulkan(m_model->graph, fed, fetches, m_options.vulkan));
  for (auto& f : planned.fetches)
    if (auto r = part.fetchRenames.find(f); r != part.fetchRenames.end()) f = r->second;
  const OpLookup clustered = [&part, lookup](const std::string& op) -> const OpDef* {
    auto it = part.clusterOps.find(op);
    return it != part.clusterOps.end() ? &it->second : lookup(op);
  };
  const KernelProvider provider = [&part](const Node& node) -> std::unique_ptr<OpKernel> {
    auto it = part.programs.find(node.name);
    return it != part.programs.end() ? vk::makeClusterKernel(it->second) : nullptr;
  };
  FS_ASSIGN_OR_RETURN(planned.plan, Plan::build(part.graph, feeds, planned.fetches, targets, clustered, provider));
  m_placement = std::move(part.placement);
  return planned;
}

Expected<std::vector<Tensor>> Session::run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                           const std::vector<std::string>& fetches,
                                           const std::vector<std::string>& targets, Trace* trace, int runIndex) {
  if (!m_model->missingWeights.empty())
    return dataLoss(m_model->path + ": cannot run: " + std::to_string(m_model->missingWeights.size()) +
                    " weights have no values (shards missing), e.g. '" + m_model->missingWeights[0] + "'");
  std::vector<std::string> feedNames;
  std::vector<Tensor> feedValues;
  for (const auto& [name, value] : feeds) {
    FS_RETURN_IF_ERROR(checkFeed(name, value));
    feedNames.push_back(name);
    feedValues.push_back(value);
  }
  std::string key;
  for (const auto& n : feedNames) key += n + ",";
  key += "|";
  for (const auto& n : fetches) key += n + ",";
  key += "|";
  for (const auto& n : targets) key += n + ",";
  std::lock_guard<std::mutex> lock(m_mutex);  // plans hold kernel caches: one run at a time per session
  auto it = m_plans.find(key);
  if (it == m_plans.end()) {
    auto planned = plan(feedNames, fetches, targets);
    if (!planned) return planned.status();
    it = m_plans.emplace(key, std::move(planned).value()).first;
  }
  setIntraOpThreads(m_options.intraOpThreads);
  m_cancelled = false;
  ExecContext ctx;
  ctx.resources = &m_resources;
  ctx.functions = &m_functions;
  ctx.trace = trace;
  ctx.run = runIndex;
  ctx.cancelled = &m_cancelled;
  ctx.rng.seed(m_options.seed + m_runs++);
  std::vector<Tensor> outputs;
  Status s = executePlan(*it->second.plan, std::move(feedValues), &outputs, ctx, {m_options.interOpThreads});
  m_resources.endRun();
  if (!s.isOk()) return s;
  return outputs;
}

}  // namespace flowscope
