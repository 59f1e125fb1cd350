// A plan of a graph as a backend places it: the nodes it prepared run there, the rest on the CPU fallback. The top
// level of a run (ModelRunner) and function bodies (FunctionRuntime: If branches, loop bodies, calls) both build theirs
// this way, so a body's float subgraphs run on the device too.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/backend.h"
#include "exec/plan.h"

namespace flowscope {

struct PlacedPlan {
  std::unique_ptr<Plan> plan;
  std::vector<std::string> fetches;          ///< the request's, renamed where the placement moved them
  std::map<std::string, std::string> where;  ///< node -> where it runs and why (the placement's)
};

/// Places `graph` on `backend` for `request` and builds the plan feeding `feeds`. Kernels resolve calls in
/// `library`, which outlives the plan (the graph's own copy may not).
Expected<PlacedPlan> buildPlacedPlan(const Graph& graph, const FunctionLibrary& library,
                                     const PlacementRequest& request, const std::vector<std::string>& feeds,
                                     Backend& backend, Backend& fallback);

}  // namespace flowscope
