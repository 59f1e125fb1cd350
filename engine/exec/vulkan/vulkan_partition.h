// Placement for the Vulkan backend: nodes Vulkan can run (float32, parameters from Consts, not fed, no control
// edges) are grouped into clusters that never form a cycle with the CPU nodes between them; each cluster becomes one
// node of the rewritten graph whose kernel runs the whole cluster as one command buffer. Everything else runs on the
// CPU, with explicit transfers at the cluster's edges.
#pragma once

#include <memory>

#include "exec/backend.h"
#include "exec/vulkan/cluster_program.h"

namespace flowscope::vk {

/// Places `graph` for a run with these fed nodes and fetched tensors. Cluster nodes are named `vulkan_cluster_N`
/// (their ops `_VulkanCluster_<name>`); `placement.where` says where every original node runs and why.
Expected<Placement> partitionForVulkan(const Graph& graph, const PlacementRequest& request,
                                       std::shared_ptr<VulkanDevice> device);

/// The kernel of a cluster node: runs its program and reports each node's GPU time itself.
std::unique_ptr<OpKernel> makeClusterKernel(std::shared_ptr<ClusterProgram> program);

}  // namespace flowscope::vk
