// Executors for a Plan: a static one for DAGs (sequential, or inter-op parallel on the process pool when the
// graph is wide enough) and a dataflow one for TF1 control flow (frames, iterations, dead tensors).
#pragma once

#include <vector>

#include "exec/exec_context.h"
#include "exec/plan.h"

namespace flowscope {

struct ExecOptions {
  int interOpThreads = 1;  ///< >1 runs independent nodes concurrently when the plan is wide
};

/// Runs the plan with `feeds` in the order the plan was built with; fills `fetched` in fetch order.
Status executePlan(Plan& plan, std::vector<Tensor> feeds, std::vector<Tensor>* fetched, ExecContext& ctx,
                   const ExecOptions& options = {});

/// Runs one step's kernel with profiling; shared by both executors.
Status runStep(const Plan& plan, PlanStep& step, std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
               ExecContext& ctx);

Status executeDataflow(Plan& plan, std::vector<Tensor> feeds, std::vector<Tensor>* fetched, ExecContext& ctx);

}  // namespace flowscope
