// Preparing and profiling runs of a model: the one engine entry point the CLI (`run`, `profile`, `screenshot
// --overlay`) and the app's profiler share. A loaded model is given inputs (its signature's or placeholders', from
// specs), optimized (on by default, one switch everywhere), placed on a backend, and then run N times with every node
// profiled; profile/node_times.h sums the events per node.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/backend.h"
#include "ir/model.h"
#include "passes/pass_manager.h"
#include "profile/run_profile.h"
#include "workflow/run_request.h"

namespace flowscope {

class ModelRunner;

/// How to prepare runs of a model.
struct RunSetup {
  RunSpecOptions inputs;                   ///< signature, input specs, fetches, seed
  bool optimize = true;                    ///< run the pass pipeline first (`--no-optimize`, the profiler's checkbox)
  PipelineOptions pipeline;                ///< the passes when optimizing (default: the default pipeline)
  std::string device = "cpu";              ///< `--device`: cpu, null, vulkan, vulkan:INDEX
  std::shared_ptr<Backend> backend;        ///< an already opened backend (the app keeps one); overrides `device`
  int threads = 1;                         ///< intra- and inter-op threads
  Precision precision = Precision::kFp32;  ///< `--precision`: of MatMul and convolutions on the GPU
  const std::atomic<bool>* cancelled = nullptr;  ///< stops optimizing and running when set
};

/// A model ready to run.
struct PreparedRun {
  std::shared_ptr<const Model> original;  ///< as loaded
  std::shared_ptr<const Model> model;     ///< what runs: optimized unless the setup said not to
  RunRequest request;
  bool optimized = false;
  size_t nodesBeforeOptimizing = 0;
  double optimizeSeconds = 0;
  std::shared_ptr<Backend> backend;
  std::vector<std::string> notes;  ///< for the user: "Vulkan is not available (...); running on the CPU"
  std::shared_ptr<ModelRunner> runner;
  int threads = 1;  ///< the threads the runs use
  Precision precision = Precision::kFp32;
  /// What the backend computes at that precision (Backend::precisionSummary): the profile states it.
  std::string precisionSummary() const { return backend ? backend->precisionSummary(precision) : "fp32"; }

  /// "cpu" or "vulkan:0 (llvmpipe ...)".
  std::string deviceName() const { return backend ? backend->deviceName() : "cpu"; }
};

/// Opens the backend of a `--device` spec. One this machine cannot open (no Vulkan driver) falls back to the CPU with
/// a note; a spec the table does not know (InvalidArgument) or a device index that does not exist (NotFound) is an
/// error.
Expected<std::shared_ptr<Backend>> openBackendOrFallback(const std::string& spec, std::vector<std::string>* notes);

/// Prepares runs of a loaded model. A backend this machine cannot open (no Vulkan driver) falls back to the CPU and
/// says so in `notes`; a device spec the table does not know (InvalidArgument) or a device index that does not exist
/// (NotFound) is an error, as are inputs that cannot be made and a cancelled pipeline.
Expected<PreparedRun> prepareRun(std::shared_ptr<const Model> model, const RunSetup& setup);

struct ProfileOptions {
  int runs = 10;
  int warmup = 3;  ///< untimed runs first (plans, kernels, caches, and the choice of executor)
  std::function<void(int done, int total)> progress;  ///< after each run, warm-up included
  bool measureRoofline = true;                        ///< the backend's roofline too (once per process and threads)
};

struct ProfiledRun {
  RunProfile profile;               ///< events of the profiled runs (run index 0..runs-1)
  std::vector<double> wallMicros;   ///< per timed run without events, in run order
  double medianMicros = 0;          ///< of wallMicros: what a run costs a user
  double profiledMedianMicros = 0;  ///< the same runs with per-node events (their cost shows as the difference)
  std::map<std::string, std::string> placement;  ///< node -> where it ran (empty: all on the backend)
  std::vector<Tensor> outputs;                   ///< fetched by the last run
  std::string executionMode;                     ///< how the last run ran: "op by op", "independent ops at once"
  Roofline roofline;                             ///< the device's, at the run's threads (unknown: not measured)
  int runs = 0, warmup = 0;
};

/// Runs the prepared model `warmup` times, then `runs` times timed without events alternating with `runs` times
/// profiled, so that the median run time does not include the profiler's own cost. Stops when the setup's flag is set.
Expected<ProfiledRun> profileRun(const PreparedRun& prepared, const ProfileOptions& options);

}  // namespace flowscope
