// The Vulkan backend: places float32 subgraphs into clusters that run as one command buffer each (the rest of the
// graph runs on the CPU), reports per-node GPU time from timestamp queries, and has device-local buffers of its own.
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "exec/backend_registration.h"
#include "exec/shape_specialization.h"
#include "exec/vulkan/vulkan_device.h"
#include "exec/vulkan/vulkan_ops.h"
#include "exec/vulkan/vulkan_partition.h"

namespace flowscope {
namespace {

class VulkanBackend : public Backend {
 public:
  explicit VulkanBackend(std::shared_ptr<vk::VulkanDevice> device) : m_device(std::move(device)) {}
  ~VulkanBackend() override {
    for (auto& [id, buffer] : m_buffers) m_device->destroyBuffer(buffer);
  }

  std::string name() const override { return "vulkan"; }
  std::string deviceName() const override {
    return "vulkan:" + std::to_string(m_device->info().index) + " (" + m_device->info().name + ")";
  }
  std::string unsupportedReason(const Node& node, const FunctionLibrary&) const override {
    for (const auto& op : vk::supportedOps())
      if (op == node.op) return "";
    return "no Vulkan kernel";
  }
  std::string precisionSummary(Precision precision) const override {
    const std::string name = precisionName(precision);
    if (precision == Precision::kFp32) return name;
    if (precision == Precision::kFp16 && m_device->cooperativeMatrix())
      return name + ": MatMul and convolutions on the device's matrix units (fp16 operands, fp32 sums)";
    const std::string why = precision == Precision::kFp16
                                ? "this device has no fp16 cooperative matrices: " + m_device->noCooperativeMatrix()
                                : "bf16 matrix units need VK_KHR_cooperative_matrix, which Debian 12's glslc cannot "
                                  "compile";
    return name + ": MatMul and convolutions with operands rounded to " + name +
           " and fp32 sums on the fp32 core, so its numbers without its speed (" + why + ")";
  }
  // The graph specialized to the fed shapes first: shape arithmetic on the CPU would split the clusters.
  Expected<Placement> place(const Graph& graph, const PlacementRequest& request) override {
    return vk::partitionForVulkan(specializeToFedShapes(graph, request), request, m_device);
  }
  bool specializesOnFedShapes() const override { return true; }
  // Vulkan runs nodes only inside clusters (their kernels come prepared with the placement).
  Expected<std::unique_ptr<OpKernel>> makeKernel(const Node& node, const FunctionLibrary&) override {
    return unimplemented(nodeLabel(node) + "runs on Vulkan only inside a cluster");
  }
  // A cluster reports each node's GPU time from timestamp queries itself.
  Status run(OpKernel& kernel, KernelContext& ctx) override { return kernel.compute(ctx); }
  Status synchronize() override {
    VkResult r = vkQueueWaitIdle(m_device->queue());
    return r == VK_SUCCESS ? Status::ok() : unavailable("Vulkan: vkQueueWaitIdle failed: " + vk::resultName(r));
  }

  Expected<DeviceBuffer> allocate(size_t bytes) override {
    FS_ASSIGN_OR_RETURN(vk::Buffer buffer, m_device->createBuffer(std::max<size_t>(bytes, 4), vk::MemoryUse::kDevice));
    std::lock_guard<std::mutex> lock(m_mutex);
    DeviceBuffer handle{++m_lastId, bytes};
    m_buffers[handle.id] = buffer;
    return handle;
  }
  void release(DeviceBuffer handle) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto it = m_buffers.find(handle.id); it != m_buffers.end()) {
      m_device->destroyBuffer(it->second);
      m_buffers.erase(it);
    }
  }
  Status upload(const DeviceBuffer& handle, const Tensor& value) override {
    if (!value.isValid() || value.isStringLike()) return invalidArgument("only numeric tensors copy as flat bytes");
    return copy(handle, value.byteSize(), value.bytes().data(), nullptr);
  }
  Status download(const DeviceBuffer& handle, Tensor& value) override {
    if (!value.isValid() || value.isStringLike()) return invalidArgument("only numeric tensors copy as flat bytes");
    return copy(handle, value.byteSize(), nullptr, value.mutableBytes().data());
  }

 private:
  // Through a host-visible staging buffer (device-local memory need not be mappable): from host bytes `in` to the
  // buffer, or from the buffer to host bytes `out`.
  Status copy(const DeviceBuffer& handle, size_t bytes, const std::byte* in, std::byte* out) {
    vk::Buffer target;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      auto it = m_buffers.find(handle.id);
      if (it == m_buffers.end()) return notFound("no buffer " + std::to_string(handle.id) + " on " + deviceName());
      target = it->second;
    }
    if (bytes > handle.bytes)
      return invalidArgument("a " + std::to_string(bytes) + "-byte tensor does not fit a " +
                             std::to_string(handle.bytes) + "-byte buffer");
    if (bytes == 0) return Status::ok();
    FS_ASSIGN_OR_RETURN(vk::Buffer staging,
                        m_device->createBuffer(bytes, in ? vk::MemoryUse::kUpload : vk::MemoryUse::kDownload));
    auto* mapped = static_cast<std::byte*>(staging.mapped);
    if (in) std::memcpy(mapped, in, bytes);
    const VkBufferCopy region{0, 0, bytes};
    Status s = m_device->copyAndWait({in ? vk::VulkanDevice::BufferCopy{staging.buffer, target.buffer, region}
                                         : vk::VulkanDevice::BufferCopy{target.buffer, staging.buffer, region}});
    if (s.isOk() && out) std::memcpy(out, mapped, bytes);
    m_device->destroyBuffer(staging);
    return s;
  }

  std::shared_ptr<vk::VulkanDevice> m_device;
  std::mutex m_mutex;
  uint64_t m_lastId = 0;
  std::unordered_map<uint64_t, vk::Buffer> m_buffers;
};

Expected<std::vector<DeviceInfo>> vulkanDevices() {
  FS_ASSIGN_OR_RETURN(auto found, vk::listDevices());
  std::vector<DeviceInfo> devices;
  for (const auto& d : found) {
    DeviceInfo info;
    info.backend = "vulkan";
    info.index = d.index;
    info.name = d.name;
    info.type = d.type;
    info.apiVersion = d.apiVersion;
    info.memoryBytes = d.memoryBytes;
    info.usable = d.hasCompute;
    devices.push_back(std::move(info));
  }
  return devices;
}

}  // namespace

void registerVulkanBackend(std::vector<BackendKind>& table) {
  BackendKind row;
  row.name = "vulkan";
  row.summary = "a Vulkan compute device: float32 subgraphs run as clusters, one command buffer each";
  row.devices = vulkanDevices;
  row.open = [](int index) -> Expected<std::shared_ptr<Backend>> {
    FS_ASSIGN_OR_RETURN(auto device, vk::VulkanDevice::open(index));
    return std::shared_ptr<Backend>(std::make_shared<VulkanBackend>(std::move(device)));
  };
  row.ops = vk::supportedOps;
  table.push_back(std::move(row));
}

}  // namespace flowscope
