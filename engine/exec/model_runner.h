// ModelRunner: runs a model's graph on a backend. Holds the variables (loaded from the model's checkpoint), the
// function runtime and a cache of plans per (feeds, fetches, targets); each plan is built from the backend's placement
// of the graph, with what the backend does not run on the CPU fallback.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/backend.h"
#include "exec/executor.h"
#include "exec/function_runtime.h"
#include "ir/model.h"

namespace flowscope {

class RunProfile;

struct RunnerOptions {
  std::shared_ptr<Backend> backend;  ///< null: the CPU (the table's fallback backend)
  int intraOpThreads = 1;            ///< threads inside one op (oneDNN, big elementwise loops)
  int interOpThreads = 1;            ///< independent ops at once
  uint64_t seed = 0x5eed;
  const std::atomic<bool>* cancelled = nullptr;  ///< an outside flag that also stops runs (a job's Cancel)
};

class ModelRunner {
 public:
  explicit ModelRunner(std::shared_ptr<const Model> model, RunnerOptions options = {});

  /// Feeds are (tensor name, value); fetches are tensor names; targets are nodes run for their effects.
  /// Errors name the feed, node and op (wrong dtype or shape, missing feed, an unknown op on the path).
  Expected<std::vector<Tensor>> run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                    const std::vector<std::string>& fetches,
                                    const std::vector<std::string>& targets = {}, RunProfile* profile = nullptr,
                                    int runIndex = 0);

  const Model& model() const { return *m_model; }
  const Backend& backend() const { return *m_backend; }
  ResourceManager& resources() { return m_resources; }
  /// Asks a running run() to stop at the next node; the run returns a Cancelled status.
  void cancel() { m_cancelled = true; }
  /// Where each node of the last planned run was placed ("vulkan (vulkan_cluster_0)" or "cpu: why"); empty when
  /// the backend runs every node itself.
  const std::map<std::string, std::string>& placement() const { return m_placement; }

 private:
  struct PlannedRun {
    std::unique_ptr<Plan> plan;
    std::vector<std::string> fetches;  // as the plan names them (fetches inside a cluster renamed)
  };
  Status checkFeed(const std::string& name, const Tensor& value) const;
  Expected<PlannedRun> plan(const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
                            const std::vector<std::string>& targets);

  std::shared_ptr<const Model> m_model;
  RunnerOptions m_options;
  std::shared_ptr<Backend> m_backend;
  ResourceManager m_resources;
  FunctionRuntime m_functions;
  std::atomic<bool> m_cancelled{false};
  std::mutex m_mutex;
  std::map<std::string, PlannedRun> m_plans;
  std::map<std::string, std::string> m_placement;
  uint64_t m_runs = 0;
};

/// The resource key of a variable node (VariableV2 or VarHandleOp): "var:" + shared_name or node name.
std::string variableResourceKey(const Node& node);

}  // namespace flowscope
