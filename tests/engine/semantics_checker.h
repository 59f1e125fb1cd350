// The semantics checker: runs a graph before and after optimization on the same inputs and compares what they
// fetch, with a tolerance per dtype (exact for integers, bools and strings).
#pragma once

#include <string>

#include "ir/model.h"
#include "passes/pass_manager.h"
#include "workflow/run_request.h"

namespace flowscope {

/// Ok when `b` equals the reference `a` within the tolerance of its dtype; otherwise says where they differ.
Status compareTensors(const Tensor& a, const Tensor& b, const std::string& label);

/// Runs `model` with `graph` in place of its own (same variables) on `request`.
Expected<std::vector<Tensor>> runWithGraph(const Model& model, const Graph& graph, const RunRequest& request);

/// Runs the pipeline's input graph and the snapshot after every pass that changed something; the first pass
/// whose outputs differ from the input's is named in the error.
Status checkPipelineSemantics(const Model& model, const PipelineResult& pipeline, const RunRequest& request);

}  // namespace flowscope
