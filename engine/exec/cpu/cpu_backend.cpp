// The CPU backend: every op of the CPU kernel table (oneDNN for convolutions and large matrix products), library
// function calls, and host memory as its device memory. It is the table's first row: the fallback of the others.
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "exec/backend_registration.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_max_pool.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/cpu_roofline.h"
#include "exec/cpu/depthwise_pointwise.h"
#include "exec/cpu/pointwise_depthwise.h"
#include "exec/cpu/row_chain.h"
#include "exec/cpu/transpose_conv.h"
#include "exec/function_call_kernels.h"

namespace flowscope {
namespace {

std::string cpuModelName() {
  std::ifstream info("/proc/cpuinfo");
  std::string line;
  while (std::getline(info, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) return line.substr(line.find(':') + 2);
  return "CPU";
}

DeviceInfo cpuDevice() {
  DeviceInfo d;
  d.backend = "cpu";
  d.name = cpuModelName() + " (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
  d.type = "CPU";
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  d.memoryBytes = pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) : 0;
  d.usable = true;
  return d;
}

class CpuBackend : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::string deviceName() const override { return "cpu"; }

  std::string unsupportedReason(const Node& node, const FunctionLibrary& library) const override {
    if (library.find(node.op) || cpuKernelTable().find(node.op)) return "";
    return "no CPU kernel for op '" + node.op + "'";
  }

  Expected<std::unique_ptr<OpKernel>> makeKernel(const Node& node, const FunctionLibrary& library) override {
    if (library.find(node.op)) return makeLibraryCallKernel(node);
    const KernelFactory* factory = cpuKernelTable().find(node.op);
    if (!factory)
      return unimplemented(nodeLabel(node) + "no CPU kernel for op '" + node.op +
                           "'; the graph can be shown but this node cannot run");
    return (*factory)(node);
  }

  // The graph as given, with 1x1 + depthwise pairs fused (pointwise_depthwise.h), then depthwise + 1x1 pairs
  // (depthwise_pointwise.h), chains of Winograd convolutions on the blocked layout (blocked_layout.h), and
  // convolutions fused with the max pools reading them (conv_max_pool.h), the input's transpose to NHWC fused
  // into the convolution reading it (transpose_conv.h), and that convolution chained to the depthwise + 1x1 pair
  // reading its rows (row_chain.h).
  Expected<Placement> place(const Graph& graph, const PlacementRequest& request) override {
    Placement placement;
    placement.graph = graph;
    fusePointwiseDepthwise(placement, request);
    fuseDepthwisePointwise(placement, request);
    placeBlockedLayouts(placement, request);
    fuseConvMaxPool(placement, request);
    fuseTransposeConv(placement, request);
    fuseRowChains(placement, request);
    return placement;
  }

  Expected<Roofline> roofline(int threads) override { return measureCpuRoofline(threads); }

  // Host memory is this backend's device memory.
  Expected<DeviceBuffer> allocate(size_t bytes) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    DeviceBuffer buffer{++m_lastId, bytes};
    m_buffers[buffer.id].resize(bytes);
    return buffer;
  }
  void release(DeviceBuffer buffer) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_buffers.erase(buffer.id);
  }
  Status upload(const DeviceBuffer& buffer, const Tensor& value) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    FS_ASSIGN_OR_RETURN(std::vector<std::byte> * memory, find(buffer, value));
    std::memcpy(memory->data(), value.bytes().data(), value.byteSize());
    return Status::ok();
  }
  Status download(const DeviceBuffer& buffer, Tensor& value) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    FS_ASSIGN_OR_RETURN(std::vector<std::byte> * memory, find(buffer, value));
    std::memcpy(value.mutableBytes().data(), memory->data(), value.byteSize());
    return Status::ok();
  }

 private:
  Expected<std::vector<std::byte>*> find(const DeviceBuffer& buffer, const Tensor& value) {
    if (!value.isValid() || value.isStringLike()) return invalidArgument("only numeric tensors copy as flat bytes");
    auto it = m_buffers.find(buffer.id);
    if (it == m_buffers.end()) return notFound("no buffer " + std::to_string(buffer.id) + " on the CPU backend");
    if (value.byteSize() > it->second.size())
      return invalidArgument("a " + std::to_string(value.byteSize()) + "-byte tensor does not fit a " +
                             std::to_string(it->second.size()) + "-byte buffer");
    return &it->second;
  }

  std::mutex m_mutex;
  uint64_t m_lastId = 0;
  std::unordered_map<uint64_t, std::vector<std::byte>> m_buffers;
};

}  // namespace

void registerCpuBackend(std::vector<BackendKind>& table) {
  BackendKind row;
  row.name = "cpu";
  row.summary = "the CPU: every op Flowscope has a kernel for (oneDNN for convolutions and matrix products)";
  row.devices = []() -> Expected<std::vector<DeviceInfo>> { return std::vector<DeviceInfo>{cpuDevice()}; };
  row.open = [](int index) -> Expected<std::shared_ptr<Backend>> {
    if (index > 0) return notFound("there is one CPU device: cpu (or cpu:0), not cpu:" + std::to_string(index));
    static const auto backend = std::make_shared<CpuBackend>();
    return std::shared_ptr<Backend>(backend);
  };
  row.ops = [] { return cpuKernelTable().ops(); };
  table.push_back(std::move(row));
}

}  // namespace flowscope
