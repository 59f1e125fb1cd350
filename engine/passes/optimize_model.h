// Optimizing a loaded model for a run: the pipeline over its graph, preserving its feeds and fetches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/model.h"
#include "passes/pass_manager.h"

namespace flowscope {

struct OptimizedModel {
  std::shared_ptr<const Model> model;  ///< the same model with the optimized graph
  PipelineResult pipeline;
};

/// Runs the pipeline on `model`'s graph. `feeds` and `fetches` are tensor names ("x:0"); when `fetches` is empty
/// the model's signature outputs (or sinks) are kept. Nodes the run needs are never removed.
Expected<OptimizedModel> optimizeModel(std::shared_ptr<const Model> model, const PipelineOptions& options,
                                       const std::vector<std::string>& feeds = {}, const std::vector<std::string>& fetches = {});

}  // namespace flowscope
