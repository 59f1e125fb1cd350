// Optimizing a model for a run.
#include "workflow/optimize_model.h"

#include "exec/kernel_evaluator.h"
#include "ir/graph_algorithms.h"

namespace flowscope {

PipelineOptions withKernelEvaluator(PipelineOptions options) {
  if (!options.evaluator) options.evaluator = &kernelEvaluator();
  return options;
}

Expected<OptimizedModel> optimizeModel(std::shared_ptr<const Model> model, const PipelineOptions& options,
                                       const std::vector<std::string>& feeds, const std::vector<std::string>& fetches) {
  bool fetchesKnown = false;
  std::set<std::string> preserved;
  if (fetches.empty()) {
    preserved = modelNodesToPreserve(*model, &fetchesKnown);
  } else {
    for (size_t i = 0; i < model->graph.size(); ++i)
      if (model->graph.node(i).op.rfind("Placeholder", 0) == 0) preserved.insert(model->graph.node(i).name);
    fetchesKnown = true;
  }
  for (const auto* list : {&feeds, &fetches})
    for (const auto& tensor : *list) {
      std::string node;
      int index = 0;
      if (parseTensorName(tensor, &node, &index)) preserved.insert(node);
    }
  for (const auto& v : model->variables)  // the runner binds checkpoint values to these nodes by name
    if (!v.node.empty()) preserved.insert(v.node);
  PassManager manager(withKernelEvaluator(options));
  FS_ASSIGN_OR_RETURN(PipelineResult pipeline, manager.run(model->graph, preserved, fetchesKnown));
  auto optimized = std::make_shared<Model>(*model);
  optimized->graph = *pipeline.output;
  return OptimizedModel{std::move(optimized), std::move(pipeline)};
}

Expected<PipelineResult> optimizeForViewing(std::shared_ptr<const Model> model, const PipelineOptions& options) {
  FS_ASSIGN_OR_RETURN(OptimizedModel optimized, optimizeModel(std::move(model), options));
  return std::move(optimized.pipeline);
}

}  // namespace flowscope
