// buildPlacedPlan (placed_plan.h).
#include "exec/placed_plan.h"

#include "ops/op_registry.h"

namespace flowscope {

Expected<PlacedPlan> buildPlacedPlan(const Graph& graph, const FunctionLibrary& library,
                                     const PlacementRequest& request, const std::vector<std::string>& feeds,
                                     Backend& backend, Backend& fallback) {
  FS_ASSIGN_OR_RETURN(Placement placement, backend.place(graph, request));
  PlacedPlan placed;
  placed.fetches = request.fetches;
  for (auto& f : placed.fetches)
    if (auto r = placement.fetchRenames.find(f); r != placement.fetchRenames.end()) f = r->second;
  const OpLookup base = OpRegistry::global().lookupWith(&library);
  const OpLookup lookup = [&placement, base](const std::string& op) -> const OpDef* {
    auto it = placement.addedOps.find(op);
    return it != placement.addedOps.end() ? &it->second : base(op);
  };
  const KernelSource kernels = [&](const Node& node) -> Expected<StepKernel> {
    if (auto prepared = placement.preparedKernels.find(node.name); prepared != placement.preparedKernels.end())
      return StepKernel{prepared->second(), &backend};
    Backend& runner = placement.everythingOnBackend ? backend : fallback;
    FS_ASSIGN_OR_RETURN(auto kernel, runner.makeKernel(node, library));
    return StepKernel{std::move(kernel), &runner};
  };
  FS_ASSIGN_OR_RETURN(placed.plan,
                      Plan::build(placement.graph, feeds, placed.fetches, request.targets, lookup, kernels));
  placed.where = std::move(placement.where);
  return placed;
}

}  // namespace flowscope
