// Backend: a device that runs graph nodes (the CPU, a Vulkan GPU, or the null backend that runs nothing), and the one
// table of them. A run places its graph on a backend (which nodes run there; a backend that runs many nodes as one
// rewrites them into cluster nodes), builds a plan whose steps each know the backend that runs them, and runs every
// step through that backend, which reports the step to the profile. What a backend does not run falls back to the
// table's CPU backend. The executor asks the table for backends, never a backend by name.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "exec/kernel.h"
#include "exec/precision.h"
#include "ir/graph.h"
#include "ir/op_def.h"
#include "profile/roofline.h"

namespace flowscope {

/// One device of a backend, as `flowscope devices` and the profiler's device box list it.
struct DeviceInfo {
  std::string backend;       ///< the table's name: "cpu", "vulkan", "null"
  int index = 0;             ///< as `--device vulkan:INDEX` names it
  std::string name;          ///< "NVIDIA H100", "llvmpipe (LLVM 15.0.6, 256 bits)", the CPU's model
  std::string type;          ///< "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "none", "other"
  std::string apiVersion;    ///< "1.3.230" (empty where there is no API)
  uint64_t memoryBytes = 0;  ///< the largest device-local heap, or the machine's memory
  bool usable = false;       ///< has what the backend needs (a compute queue)
  /// What `--device` takes for it: "cpu", "null", "vulkan:0".
  std::string spec() const;
};

/// What a run feeds and fetches, for placing its graph.
struct PlacementRequest {
  std::set<std::string> fedNodes;
  std::vector<std::string> fetches;  ///< tensor names
  std::vector<std::string> targets;  ///< nodes run for their effects
  /// The shapes of the fed tensors by node, for a backend that specializes on them (specializesOnFedShapes).
  std::map<std::string, Shape> fedShapes;
  Precision precision = Precision::kFp32;  ///< of MatMul and convolutions, where the backend offers a choice
};

/// How a run's graph is split between a backend and the CPU fallback.
struct Placement {
  Graph graph;                            ///< what the plan runs: the input graph, or with cluster nodes
  std::map<std::string, OpDef> addedOps;  ///< schemas of the nodes the backend added (cluster nodes)
  /// Kernels the backend prepared for nodes of `graph` (a cluster's program), by node name.
  std::map<std::string, std::function<std::unique_ptr<OpKernel>()>> preparedKernels;
  std::map<std::string, std::string> fetchRenames;  ///< fetched tensor -> its name in `graph`
  std::map<std::string, std::string> where;         ///< node -> "vulkan (cluster)" or "cpu: why"; empty: all here
  /// True: every node runs on the backend. False: nodes without a prepared kernel run on the CPU fallback.
  bool everythingOnBackend = true;
};

/// A buffer in a backend's own memory.
struct DeviceBuffer {
  uint64_t id = 0;
  size_t bytes = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  /// The table's name: "cpu", "vulkan", "null".
  virtual std::string name() const = 0;
  /// The device as profiles show it: "cpu", "vulkan:0 (llvmpipe ...)", "null".
  virtual std::string deviceName() const = 0;
  /// Empty when this backend can run the node; otherwise why not (the node then runs on the CPU).
  virtual std::string unsupportedReason(const Node& node, const FunctionLibrary& library) const = 0;
  /// What a run at `precision` computes here, for the profile: "fp32", or how MatMul and convolutions round and on
  /// which units. The default: this backend computes in fp32 whatever was asked.
  virtual std::string precisionSummary(Precision precision) const;
  /// Decides which nodes of a run's graph run here and prepares them (clusters, programs). The default keeps the
  /// graph as it is with every node here.
  virtual Expected<Placement> place(const Graph& graph, const PlacementRequest& request);
  /// True: placements depend on the fed tensors' shapes (request.fedShapes), so a run with new shapes places the
  /// graph again. The default: false.
  virtual bool specializesOnFedShapes() const { return false; }
  /// A kernel for one node placed here (library calls included); errors name the node and op.
  virtual Expected<std::unique_ptr<OpKernel>> makeKernel(const Node& node, const FunctionLibrary& library) = 0;
  /// Runs one step and reports it to the run's profile (ctx.exec->profile) when there is one. The default times the
  /// kernel on the host; a backend that measures on its device (GPU timestamps) reports its own events instead.
  virtual Status run(OpKernel& kernel, KernelContext& ctx);
  /// Waits until the device has finished the work submitted so far. Optional: the default has nothing to wait for.
  virtual Status synchronize();
  /// The device's roofline at `threads` threads, measured (once per thread count) by running its own kernels: FMA
  /// peak from a large GEMM, bandwidth from a copy. Optional: the default says it is unknown.
  virtual Expected<Roofline> roofline(int threads);

  // Memory of the backend's own (optional: the defaults say the backend has none).
  virtual Expected<DeviceBuffer> allocate(size_t bytes);
  virtual void release(DeviceBuffer buffer);
  /// Copies a tensor's bytes into the buffer (at most its size).
  virtual Status upload(const DeviceBuffer& buffer, const Tensor& value);
  /// Copies the buffer's bytes into `value`, which must be a numeric tensor of at most the buffer's size.
  virtual Status download(const DeviceBuffer& buffer, Tensor& value);
};

/// One row of the backend table.
struct BackendKind {
  std::string name;     ///< "cpu", "vulkan", "null"
  std::string summary;  ///< one line for `flowscope devices`
  /// The devices of this kind on this machine (an error says why there are none).
  std::function<Expected<std::vector<DeviceInfo>>()> devices;
  /// Opens device `index` (-1: the best one). NotFound when there is no such device.
  std::function<Expected<std::shared_ptr<Backend>>(int index)> open;
  /// The ops it runs, for `flowscope devices --json`.
  std::function<std::vector<std::string>()> ops;
};

/// Every backend this build has; the first row is the CPU, the fallback of the others.
const std::vector<BackendKind>& backendTable();
/// Opens a backend by `--device` spec: "cpu", "null", "vulkan" (the best device) or "vulkan:INDEX". A spec the table
/// does not know is an InvalidArgument naming the kinds; a missing index is NotFound.
Expected<std::shared_ptr<Backend>> openBackend(const std::string& spec);
/// The CPU backend: runs what other backends do not, eager ops, function bodies, and constant folding.
const std::shared_ptr<Backend>& fallbackBackend();

struct DeviceList {
  std::vector<DeviceInfo> devices;
  std::map<std::string, std::string> unavailable;  ///< backend -> why it has no device here
};
/// Every device of every backend in the table.
DeviceList listDevices();

}  // namespace flowscope
