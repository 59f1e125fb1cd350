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

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

}  // namespace

Expected<ProfiledRun> profileRun(const PreparedRun& prepared, const ProfileOptions& options) {
  using Clock = std::chrono::steady_clock;
  ProfiledRun result;
  result.runs = std::max(1, options.runs);
  result.warmup = std::max(0, options.warmup);
  const RunRequest& request = prepared.request;
  const int total = result.warmup + 2 * result.runs;
  std::vector<double> profiledMicros;
  for (int i = 0; i < total; ++i) {
    const int timed = i - result.warmup;  // from 0: even runs plain, odd ones profiled
    const bool profiled = timed >= 0 && timed % 2 == 1;
    const auto start = Clock::now();
    auto out = prepared.runner->run(request.feeds, request.fetches, {}, profiled ? &result.profile : nullptr,
                                    profiled ? timed / 2 : 0);
    if (!out) return out.status();
    const double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (timed >= 0) (profiled ? profiledMicros : result.wallMicros).push_back(micros);
    if (i + 1 == total) result.outputs = std::move(out).value();
    if (options.progress) options.progress(i + 1, total);
  }
  result.medianMicros = median(result.wallMicros);
  result.profiledMedianMicros = median(profiledMicros);
  result.placement = prepared.runner->placement();
  result.executionMode = prepared.runner->executionMode();
  if (options.measureRoofline)
    if (auto roofline = prepared.backend->roofline(prepared.threads)) result.roofline = *roofline;
  return result;
}

}  // namespace flowscope
