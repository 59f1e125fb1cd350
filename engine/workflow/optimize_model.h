// Optimizing a loaded model: the pass pipeline over its graph with the CPU kernels for constant folding, preserving
// what users can feed and fetch. Every caller (the CLI, the app's pass stepper and profiler, tracing) comes here, so
// the pipeline is configured the same way everywhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/model.h"
#include "passes/pass_manager.h"

namespace flowscope {

struct OptimizedModel {
  std::shared_ptr<const Model> model;  ///< the same model with the optimized graph
  PipelineResult pipeline;
};

/// `options` with the CPU kernels as the constant-folding evaluator (when it has none).
PipelineOptions withKernelEvaluator(PipelineOptions options);

/// Runs the pipeline on `model`'s graph for a run. `feeds` and `fetches` are tensor names ("x:0"); when `fetches` is
/// empty the model's signature outputs (or sinks) are kept. Nodes the run needs are never removed.
Expected<OptimizedModel> optimizeModel(std::shared_ptr<const Model> model, const PipelineOptions& options,
                                       const std::vector<std::string>& feeds = {},
                                       const std::vector<std::string>& fetches = {});

/// Runs the pipeline on `model`'s graph keeping what its users can observe (placeholders, variables, signature inputs
/// and outputs, or the sinks): the pass-by-pass view of `flowscope optimize`, `screenshot --pass` and the pass stepper.
Expected<PipelineResult> optimizeForViewing(std::shared_ptr<const Model> model, const PipelineOptions& options);

}  // namespace flowscope
