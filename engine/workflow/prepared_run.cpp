// Preparing and profiling runs.
#include "workflow/prepared_run.h"

#include <algorithm>
#include <chrono>

#include "base/thread_pool.h"
#include "exec/model_runner.h"
#include "workflow/optimize_model.h"

namespace flowscope {
Expected<std::shared_ptr<Backend>> openBackendOrFallback(const std::string& spec, std::vector<std::string>* notes) {
  auto opened = openBackend(spec);
  if (opened) return opened;
  const ErrorCode code = opened.status().code();
  if (code == ErrorCode::kNotFound || code == ErrorCode::kInvalidArgument) return opened.status();
  notes->push_back(opened.status().message() + "; running on the CPU");
  return fallbackBackend();
}

Expected<PreparedRun> prepareRun(std::shared_ptr<const Model> model, const RunSetup& setup) {
  PreparedRun prepared;
  prepared.original = model;
  prepared.model = model;
  prepared.threads = setup.threads > 0 ? setup.threads : physicalCores();
  if (setup.backend) {
    prepared.backend = setup.backend;
  } else {
    FS_ASSIGN_OR_RETURN(prepared.backend, openBackendOrFallback(setup.device, &prepared.notes));
  }
  FS_ASSIGN_OR_RETURN(prepared.request, makeRunRequest(*model, setup.inputs));
  if (setup.optimize) {
    std::vector<std::string> feeds;
    for (const auto& [name, value] : prepared.request.feeds) feeds.push_back(name);
    PipelineOptions pipeline = setup.pipeline;
    pipeline.cancelled = setup.cancelled;
    FS_ASSIGN_OR_RETURN(OptimizedModel optimized, optimizeModel(model, pipeline, feeds, prepared.request.fetches));
    prepared.optimized = true;
    prepared.nodesBeforeOptimizing = model->graph.size();
    prepared.optimizeSeconds = optimized.pipeline.seconds;
    prepared.model = optimized.model;
  }
  RunnerOptions runner;
  runner.backend = prepared.backend;
  runner.intraOpThreads = prepared.threads;
  runner.seed = setup.inputs.seed;
  runner.precision = prepared.precision = setup.precision;
  runner.cancelled = setup.cancelled;
  prepared.runner = std::make_shared<ModelRunner>(prepared.model, runner);
  return prepared;
}

Expected<ProfiledRun> profileRun(const PreparedRun& prepared, const ProfileOptions& options) {
  using Clock = std::chrono::steady_clock;
  ProfiledRun result;
  result.runs = std::max(1, options.runs);
  result.warmup = std::max(0, options.warmup);
  const RunRequest& request = prepared.request;
  const int total = result.warmup + result.runs;
  for (int i = 0; i < total; ++i) {
    const bool timed = i >= result.warmup;
    const auto start = Clock::now();
    auto out = prepared.runner->run(request.feeds, request.fetches, {}, timed ? &result.profile : nullptr,
                                    timed ? i - result.warmup : 0);
    if (!out) return out.status();
    if (timed) result.wallMicros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (i + 1 == total) result.outputs = std::move(out).value();
    if (options.progress) options.progress(i + 1, total);
  }
  std::vector<double> sorted = result.wallMicros;
  std::sort(sorted.begin(), sorted.end());
  result.medianMicros = sorted[sorted.size() / 2];
  result.placement = prepared.runner->placement();
  result.executionMode = prepared.runner->executionMode();
  if (options.measureRoofline)
    if (auto roofline = prepared.backend->roofline(prepared.threads)) result.roofline = *roofline;
  return result;
}

}  // namespace flowscope
