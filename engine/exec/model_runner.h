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
  /// Threads inside one op (oneDNN, big elementwise loops); 0: every physical core.
  int intraOpThreads = 0;
  /// Independent ops at once when the plan is wide and that beats running it op by op with intra-op threads
  /// (the first runs of a plan try both); 0: as many as intra-op threads, 1: never.
  int interOpThreads = 0;
  uint64_t seed = 0x5eed;
  Precision precision = Precision::kFp32;        ///< of MatMul and convolutions on backends that offer a choice
  const std::atomic<bool>* cancelled = nullptr;  ///< an outside flag that also stops runs (a job's Cancel)
  /// Variables and other resources from outside (the eager context's, so traced functions update the variables
  /// eager code reads); null: the runner's own, loaded from the model's checkpoint.
  ResourceManager* resources = nullptr;
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
  ResourceManager& resources() { return m_options.resources ? *m_options.resources : m_resources; }
  /// The elements of a fetched sequence (an ONNX sequence, a TensorList), readable until the next run ends; null
  /// when `value` is not one.
  std::shared_ptr<const std::vector<Tensor>> sequenceOf(const Tensor& value) {
    return resources().tensorList(ResourceManager::handleOf(value));
  }
  /// Whether a fetched value is an ONNX optional (sequenceOf gives its element, or none).
  static bool isOptional(const Tensor& value) { return ResourceManager::isOptional(ResourceManager::handleOf(value)); }
  /// Asks a running run() to stop at the next node; the run returns a Cancelled status.
  void cancel() { m_cancelled = true; }
  /// How the last run ran: "op by op", "independent ops at once", or "op by op (trying both)" while deciding.
  std::string executionMode() const { return m_mode; }
  int threads() const;
  /// Where each node of the last planned run was placed ("vulkan (vulkan_cluster_0)" or "cpu: why"), and the nodes of
  /// the function bodies run so far (If branches, loop bodies) as "function/node"; empty when the backend runs every
  /// node itself.
  std::map<std::string, std::string> placement() const;

 private:
  // Which executor a wide plan runs with: the first runs try both (the very first warms caches and is not counted),
  // then the faster one is kept.
  struct ExecutorChoice {
    int trials = 0;
    double opByOp = 1e300, interOp = 1e300;
    bool nextIsInterOp() const { return trials == 1 || (trials >= 3 && interOp < opByOp); }
    void record(bool interOpRun, double seconds);
  };
  struct PlannedRun {
    std::unique_ptr<Plan> plan;
    std::vector<std::string> fetches;  // as the plan names them (fetches inside a cluster renamed)
    ExecutorChoice choice;
  };
  Status checkFeed(const std::string& name, const Tensor& value) const;
  /// fedShapes: empty unless the backend specializes on them.
  Expected<PlannedRun> plan(const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
                            const std::vector<std::string>& targets, const std::map<std::string, Shape>& fedShapes);

  std::shared_ptr<const Model> m_model;
  RunnerOptions m_options;
  std::shared_ptr<Backend> m_backend;
  ResourceManager m_resources;
  FunctionRuntime m_functions;
  std::atomic<bool> m_cancelled{false};
  std::mutex m_mutex;
  std::map<std::string, PlannedRun> m_plans;
  std::map<std::string, std::string> m_placement;
  std::string m_mode;
  uint64_t m_runs = 0;
};

/// The resource key of a variable node (VariableV2 or VarHandleOp): "var:" + shared_name or node name.
std::string variableResourceKey(const Node& node);

}  // namespace flowscope
