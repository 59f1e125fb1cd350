// Session: runs a model's graph. Holds the variables (loaded from the model's checkpoint), the function
// runtime and a cache of plans per (feeds, fetches, targets).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/executor.h"
#include "exec/function_runtime.h"
#include "io/model.h"

namespace flowscope {

class Trace;

namespace vk {
class VulkanDevice;
}

struct SessionOptions {
  int intraOpThreads = 1;  ///< threads inside one op (oneDNN, big elementwise loops)
  int interOpThreads = 1;  ///< independent ops at once
  uint64_t seed = 0x5eed;
  /// Set: nodes the Vulkan backend supports run there in clusters, the rest on the CPU (see vk::partitionForVulkan).
  std::shared_ptr<vk::VulkanDevice> vulkan;
};

class Session {
 public:
  explicit Session(std::shared_ptr<const Model> model, SessionOptions options = {});

  /// Feeds are (tensor name, value); fetches are tensor names; targets are nodes run for their effects.
  /// Errors name the feed, node and op (wrong dtype or shape, missing feed, an unknown op on the path).
  Expected<std::vector<Tensor>> run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                    const std::vector<std::string>& fetches,
                                    const std::vector<std::string>& targets = {}, Trace* trace = nullptr, int runIndex = 0);

  const Model& model() const { return *m_model; }
  ResourceManager& resources() { return m_resources; }
  /// Asks a running run() to stop at the next node; the run returns a Cancelled status.
  void cancel() { m_cancelled = true; }
  /// Where each node of the last planned run was placed ("vulkan (vulkan_cluster_0)" or "cpu: why"); empty
  /// without a Vulkan device.
  const std::map<std::string, std::string>& placement() const { return m_placement; }

 private:
  Status checkFeed(const std::string& name, const Tensor& value) const;

  std::shared_ptr<const Model> m_model;
  SessionOptions m_options;
  ResourceManager m_resources;
  FunctionRuntime m_functions;
  std::atomic<bool> m_cancelled{false};
  std::mutex m_mutex;
  struct PlannedRun {
    std::unique_ptr<Plan> plan;
    std::vector<std::string> fetches;  // as the plan names them (fetches inside a Vulkan cluster renamed)
  };
  Expected<PlannedRun> plan(const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
                            const std::vector<std::string>& targets);
  std::map<std::string, PlannedRun> m_plans;
  std::map<std::string, std::string> m_placement;
  uint64_t m_runs = 0;
};

/// The resource key of a variable node (VariableV2 or VarHandleOp): "var:" + shared_name or node name.
std::string variableResourceKey(const Node& node);

}  // namespace flowscope
