// ModelRunner implementation.
#include "exec/model_runner.h"

#include <chrono>

#include "base/thread_pool.h"
#include "exec/placed_plan.h"
#include "ir/graph_algorithms.h"
#include "ops/op_registry.h"

namespace flowscope {

int ModelRunner::threads() const { return m_options.intraOpThreads > 0 ? m_options.intraOpThreads : physicalCores(); }

void ModelRunner::ExecutorChoice::record(bool interOpRun, double seconds) {
  if (trials++ == 0) return;  // the first run warms caches (oneDNN primitives, buffers)
  double& best = interOpRun ? interOp : opByOp;
  best = std::min(best, seconds);
}

std::string variableResourceKey(const Node& node) {
  const AttrValue* shared = node.attr("shared_name");
  std::string name =
      shared && shared->kind() == AttrValue::Kind::kString && !shared->s().empty() ? shared->s() : node.name;
  return "var:" + name;
}

ModelRunner::ModelRunner(std::shared_ptr<const Model> model, RunnerOptions options)
    : m_model(std::move(model)),
      m_options(options),
      m_backend(options.backend ? options.backend : fallbackBackend()),
      m_functions(m_model->graph.library, *fallbackBackend(), {1}) {  // bodies run op by op
  if (m_backend.get() != fallbackBackend().get()) m_functions.placeBodiesOn(m_backend, options.precision);
  for (const auto& v : m_model->variables) {
    if (v.node.empty() || !v.value.isValid()) continue;
    if (const Node* node = m_model->graph.findNode(v.node))
      resources().assignVariable(variableResourceKey(*node), v.value);
  }
}

std::map<std::string, std::string> ModelRunner::placement() const {
  std::map<std::string, std::string> where = m_placement;
  where.merge(m_functions.placements());
  return where;
}

Status ModelRunner::checkFeed(const std::string& name, const Tensor& value) const {
  std::string nodeName;
  int index;
  if (!parseTensorName(name, &nodeName, &index)) return invalidArgument("feed '" + name + "' is not a tensor name");
  const Node* node = m_model->graph.findNode(nodeName);
  if (!node) return notFound("feed '" + name + "' names no node in the graph");
  if (node->op != "Placeholder" && node->op != "PlaceholderWithDefault") return Status::ok();
  const AttrValue* dtype = node->attr("dtype");
  if (dtype && dtype->kind() == AttrValue::Kind::kType && dtype->type() != value.dtype())
    return invalidArgument("feed '" + name + "' has dtype " + std::string(dtypeName(value.dtype())) +
                           " but placeholder '" + nodeName + "' expects " + std::string(dtypeName(dtype->type())));
  const AttrValue* shape = node->attr("shape");
  if (shape && shape->kind() == AttrValue::Kind::kShape && !shape->shape().isCompatibleWith(value.shape()))
    return invalidArgument("feed '" + name + "' has shape " + value.shape().toString() + " but placeholder '" +
                           nodeName + "' expects " + shape->shape().toString());
  return Status::ok();
}

Expected<ModelRunner::PlannedRun> ModelRunner::plan(const std::vector<std::string>& feeds,
                                                    const std::vector<std::string>& fetches,
                                                    const std::vector<std::string>& targets,
                                                    const std::map<std::string, Shape>& fedShapes) {
  PlacementRequest request;
  for (const auto& f : feeds) request.fedNodes.insert(f.substr(0, f.rfind(':')));
  request.fetches = fetches;
  request.targets = targets;
  request.fedShapes = fedShapes;
  request.precision = m_options.precision;
  FS_ASSIGN_OR_RETURN(PlacedPlan placed, buildPlacedPlan(m_model->graph, m_model->graph.library, request, feeds,
                                                         *m_backend, *fallbackBackend()));
  PlannedRun planned;
  planned.plan = std::move(placed.plan);
  planned.fetches = std::move(placed.fetches);
  m_placement = std::move(placed.where);
  return planned;
}

Expected<std::vector<Tensor>> ModelRunner::run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                               const std::vector<std::string>& fetches,
                                               const std::vector<std::string>& targets, RunProfile* profile,
                                               int runIndex) {
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
  // The thread count is set before planning, and a plan is kept per count: placement may choose kernels by it.
  const int threads = this->threads();
  setIntraOpThreads(threads);
  key += "|threads " + std::to_string(threads);
  std::map<std::string, Shape> fedShapes;  // a backend that specializes on them places each new shape anew
  if (m_backend->specializesOnFedShapes()) {
    key += "|";
    for (size_t i = 0; i < feedNames.size(); ++i) {
      std::string node;
      int index = 0;
      if (parseTensorName(feedNames[i], &node, &index) && index == 0) fedShapes[node] = feedValues[i].shape();
      key += feedValues[i].shape().toString() + ",";
    }
  }
  std::lock_guard<std::mutex> lock(m_mutex);  // plans hold kernel caches: one run at a time per session
  auto it = m_plans.find(key);
  if (it == m_plans.end()) {
    auto planned = plan(feedNames, fetches, targets, fedShapes);
    if (!planned) return planned.status();
    it = m_plans.emplace(key, std::move(planned).value()).first;
  }
  m_cancelled = false;
  ExecContext ctx;
  ctx.resources = &resources();
  ctx.functions = &m_functions;
  ctx.profile = profile;
  ctx.run = runIndex;
  ctx.cancelled = &m_cancelled;
  ctx.outsideCancelled = m_options.cancelled;
  ctx.rng.seed(m_options.seed + m_runs++);
  std::vector<Tensor> outputs;
  PlannedRun& planned = it->second;
  const int interOp = m_options.interOpThreads > 0 ? m_options.interOpThreads : threads;
  const bool wide = interOp > 1 && planned.plan->isWide();
  const bool interOpRun = wide && planned.choice.nextIsInterOp();
  const auto start = std::chrono::steady_clock::now();
  Status s = executePlan(*planned.plan, std::move(feedValues), &outputs, ctx, {interOpRun ? interOp : 1});
  if (wide)
    planned.choice.record(interOpRun, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  m_mode = !interOpRun ? (wide && planned.choice.trials < 3 ? "op by op (trying both)" : "op by op")
                       : "independent ops at once";
  resources().endRun(outputs);
  if (!s.isOk()) return s;
  return outputs;
}

}  // namespace flowscope
