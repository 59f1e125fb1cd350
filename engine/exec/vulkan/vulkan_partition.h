// Placement for the Vulkan backend: nodes Vulkan can run (float32, parameters from Consts, not fed, no control
// edges) are grouped into clusters that never form a cycle with the CPU nodes between them; each cluster becomes one
// node of the rewritten graph whose kernel runs the whole cluster as one command buffer. Everything else runs on the
// CPU, with explicit transfers at the cluster's edges.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exec/kernel.h"
#include "exec/vulkan/cluster_program.h"
#include "ir/graph.h"
#include "ir/op_def.h"

namespace flowscope::vk {

struct Partition {
  Graph graph;                                     ///< clusters replaced by `vulkan_cluster_N` nodes
  std::map<std::string, OpDef> clusterOps;         ///< each cluster node's op and its outputs
  std::map<std::string, std::shared_ptr<ClusterProgram>> programs;  ///< by cluster node name
  std::map<std::string, std::string> fetchRenames; ///< original tensor name -> cluster output ("vulkan_cluster_0:2")
  std::map<std::string, std::string> placement;    ///< node -> "vulkan" or "cpu: why"
  size_t vulkanNodes = 0, cpuNodes = 0;
};

/// Places `graph` for a run with these fed nodes and fetched tensors.
Expected<Partition> partitionForVulkan(const Graph& graph, const std::set<std::string>& fedNodes,
                                       const std::vector<std::string>& fetches, std::shared_ptr<VulkanDevice> device);

/// The kernel of a cluster node (runs its program; reports per-node GPU events itself).
std::unique_ptr<OpKernel> makeClusterKernel(std::shared_ptr<ClusterProgram> program);

}  // namespace flowscope::vk
