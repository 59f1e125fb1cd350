// Function instantiation and the per-function plan cache.
#include "exec/function_runtime.h"

#include "exec/backend.h"
#include "exec/placed_plan.h"
#include "ir/function_instantiation.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

std::string attrKey(const AttrMap& attrs) {
  std::string key;
  for (const auto& [k, v] : attrs)
    if (k[0] != '_') key += k + "=" + v.toString() + ";";
  return key;
}

}  // namespace

FunctionRuntime::FunctionRuntime(const FunctionLibrary& library, Backend& backend, ExecOptions options)
    : m_library(library), m_backend(backend), m_options(options) {}

void FunctionRuntime::placeBodiesOn(std::shared_ptr<Backend> placer, Precision precision) {
  m_placer = std::move(placer);
  m_precision = precision;
}

std::map<std::string, std::string> FunctionRuntime::placements() const {
  std::lock_guard<std::mutex> lock(m_whereMutex);
  return m_where;
}

Expected<std::unique_ptr<Plan>> FunctionRuntime::buildPlan(const std::string& function, const AttrMap& callAttrs) {
  const FunctionDef* f = m_library.find(function);
  if (!f || !f->body) return notFound("function '" + function + "' is not in the graph's library");
  OpLookup lookup = OpRegistry::global().lookupWith(&m_library);
  FS_ASSIGN_OR_RETURN(InstantiatedFunction inst, instantiateFunction(*f, callAttrs, m_library, lookup));
  if (!m_placer) {
    auto plan =
        Plan::build(inst.graph, inst.argNodes, inst.rets, inst.targets, lookup, kernelsFrom(m_backend, m_library));
    if (!plan) return plan.status().withContext("in function '" + function + "': ");
    return plan;
  }
  inst.graph.library = m_library;  // the placement infers shapes through calls in the body
  PlacementRequest request;
  for (const auto& a : inst.argNodes) request.fedNodes.insert(a.substr(0, a.rfind(':')));
  request.fetches = inst.rets;
  request.targets = inst.targets;
  request.precision = m_precision;
  auto placed = buildPlacedPlan(inst.graph, m_library, request, inst.argNodes, *m_placer, m_backend);
  if (!placed) return placed.status().withContext("in function '" + function + "': ");
  std::lock_guard<std::mutex> lock(m_whereMutex);
  for (auto& [node, where] : placed->where) {
    if (where == "cpu: fed") continue;  // an instantiated argument, not a node of the body
    const size_t cluster = where.rfind("cpu:", 0) == 0 ? std::string::npos : where.find(" (");
    if (cluster != std::string::npos) where.insert(cluster + 2, function + "/");  // "vulkan (f/vulkan_cluster_0)"
    m_where[function + "/" + node] = std::move(where);
  }
  return std::move(placed->plan);
}

Expected<FunctionRuntime::Compiled*> FunctionRuntime::compiled(const std::string& function, const AttrMap& callAttrs) {
  std::string key = function + "|" + attrKey(callAttrs);
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_plans.find(key);
  if (it != m_plans.end()) return it->second.get();
  auto compiled = std::make_unique<Compiled>();
  FS_ASSIGN_OR_RETURN(compiled->plan, buildPlan(function, callAttrs));
  return (m_plans[key] = std::move(compiled)).get();
}

Expected<std::vector<Tensor>> FunctionRuntime::call(const std::string& function, const AttrMap& callAttrs,
                                                    std::vector<Tensor> args, ExecContext& ctx) {
  if (ctx.callDepth > 64) return outOfRange("function calls nest deeper than 64 (recursion?) at '" + function + "'");
  FS_ASSIGN_OR_RETURN(Compiled * c, compiled(function, callAttrs));
  if (args.size() != c->plan->feedSlots().size())
    return invalidArgument("function '" + function + "' takes " + std::to_string(c->plan->feedSlots().size()) +
                           " arguments, got " + std::to_string(args.size()));
  ExecContext inner = ctx;  // same resources, profile and cancellation; a deeper frame
  inner.callDepth = ctx.callDepth + 1;
  inner.eventPrefix = ctx.eventPrefix + function + "/";
  std::vector<Tensor> results;
  std::unique_lock<std::mutex> lock(c->mutex, std::try_to_lock);
  if (!lock.owns_lock()) {  // the same function running concurrently (or recursively): use a fresh plan
    FS_ASSIGN_OR_RETURN(auto plan, buildPlan(function, callAttrs));
    FS_RETURN_IF_ERROR(executePlan(*plan, std::move(args), &results, inner, m_options));
    return results;
  }
  Status s = executePlan(*c->plan, std::move(args), &results, inner, m_options);
  if (!s.isOk()) return s.withContext("in function '" + function + "': ");
  return results;
}

}  // namespace flowscope
