// ClusterProgram: a connected set of graph nodes compiled for a Vulkan device. For each set of input shapes it is
// compiled once (output shapes, device buffers from the device's pool, descriptor sets, and ONE command buffer that
// uploads the inputs, runs every node with barriers only where a node reads what an earlier one wrote, and downloads
// the outputs); a run is then a memcpy in, one submit (waited on through the device's timeline semaphore, or the
// program's fence where there is none), a memcpy out. Where the device has memory that is device-local and
// host-visible (resizable BAR, unified memory) the host writes the inputs in place, and where it is host-cached too
// (unified memory) reads the outputs in place: no staging copy on the GPU. Timestamp queries around every node give
// the GPU time of each node to the profiler.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/exec_context.h"
#include "exec/vulkan/vulkan_device.h"
#include "exec/vulkan/vulkan_ops.h"
#include "profile/run_profile.h"

namespace flowscope::vk {

/// Where a cluster node's input comes from.
struct ValueRef {
  enum Kind { kExternal, kConstant, kNode } kind = kExternal;
  int index = 0;   ///< external input, constant, or cluster node
  int output = 0;  ///< for kNode
};

struct ClusterSpec {
  std::string name;
  std::vector<Node> nodes;                         ///< topologically ordered
  std::vector<std::vector<ValueRef>> inputs;       ///< per node, per buffer input (parameters excluded)
  std::vector<std::vector<const Tensor*>> params;  ///< per node, per input: Const values (parameters, and nulls)
  std::deque<Tensor> paramValues;  ///< what `params` point at: the spec's own (the graph may be a placement's copy)
  std::vector<std::vector<int>> bufferInputIndex;  ///< per node: graph input index of each buffer input
  std::vector<std::vector<DType>> inputTypes;      ///< per node, per graph input
  std::vector<Tensor> constants;                   ///< float Consts inside the cluster (uploaded once per compile)
  std::vector<ValueRef> outputs;                   ///< what the cluster node returns
  size_t externalInputs = 0;
  std::vector<DType> externalTypes;        ///< float32, or the integer type of a host value an op reads as such
  Precision precision = Precision::kFp32;  ///< of its MatMul and convolutions
};

class ClusterProgram {
 public:
  ClusterProgram(std::shared_ptr<VulkanDevice> device, ClusterSpec spec);
  ~ClusterProgram();
  const ClusterSpec& spec() const { return m_spec; }
  /// Runs the cluster on `inputs` (one per external input, of spec().externalTypes); outputs are float32. Events
  /// (backend "vulkan", GPU time) go to `exec`'s profile when it has one, named and nested as its frame says.
  Status run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, const ExecContext* exec);

 private:
  struct Compiled;
  class Builder;
  Expected<Compiled*> compiled(const std::vector<Tensor>& inputs);
  Expected<std::unique_ptr<Compiled>> compile(const std::vector<Shape>& shapes);

  std::shared_ptr<VulkanDevice> m_device;
  ClusterSpec m_spec;
  std::map<std::string, std::unique_ptr<Compiled>> m_compiled;  // by input shapes
};

}  // namespace flowscope::vk
