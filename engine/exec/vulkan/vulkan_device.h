// VulkanDevice: one Vulkan compute device: instance, device and queue, a command pool, a pipeline cache, one compute
// pipeline per shader (made on first use), buffers, and what the hardware is (name, type, timestamp period).
// Device choice: discrete GPU first, then integrated, then virtual, then a CPU device (Mesa's lavapipe).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "exec/vulkan/shader_table.h"

namespace flowscope::vk {

struct DeviceInfo {
  int index = 0;             ///< as `--device vulkan:INDEX` names it
  std::string name;          ///< "NVIDIA H100", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string type;          ///< "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
  std::string apiVersion;    ///< "1.3.230"
  uint64_t memoryBytes = 0;  ///< the largest device-local heap
  bool hasCompute = false;
};

/// Every Vulkan device on this machine (an error when there is no loader or no device).
Expected<std::vector<DeviceInfo>> listDevices();

/// A buffer with its memory; host-visible ones stay mapped.
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;
};

class VulkanDevice {
 public:
  /// Opens device `index`, or the best one when index < 0.
  static Expected<std::shared_ptr<VulkanDevice>> open(int index = -1);
  ~VulkanDevice();
  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;

  const DeviceInfo& info() const { return m_info; }
  VkDevice device() const { return m_device; }
  VkQueue queue() const { return m_queue; }
  VkCommandPool commandPool() const { return m_commandPool; }
  /// Nanoseconds per timestamp tick.
  double timestampPeriod() const { return m_timestampPeriod; }
  bool hasTimestamps() const { return m_timestamps; }

  Expected<Buffer> createBuffer(VkDeviceSize bytes, bool hostVisible);
  void destroyBuffer(Buffer& buffer);
  /// Device-local buffers from a pool by power-of-two size class: programs compiled for new shapes reuse the
  /// memory of released ones.
  Expected<Buffer> acquire(VkDeviceSize bytes);
  void release(Buffer buffer);
  /// Submits a one-off command buffer and waits for it (uploads of constants).
  Status submitAndWait(VkCommandBuffer commands);
  /// One region copied from one buffer to another.
  struct BufferCopy {
    VkBuffer from = VK_NULL_HANDLE, to = VK_NULL_HANDLE;
    VkBufferCopy region{};
  };
  /// Records the copies in a one-off command buffer, submits it and waits (staging uploads and downloads).
  Status copyAndWait(const std::vector<BufferCopy>& copies);

  struct Pipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  };
  Expected<const Pipeline*> pipeline(ShaderId id);
  /// Held while recording or freeing command buffers (the command pool is shared by every program on the device).
  std::recursive_mutex& commandMutex() { return m_commandMutex; }

 private:
  VulkanDevice() = default;
  Expected<uint32_t> memoryType(uint32_t allowed, VkMemoryPropertyFlags wanted) const;

  DeviceInfo m_info;
  VkInstance m_instance = VK_NULL_HANDLE;
  VkPhysicalDevice m_physical = VK_NULL_HANDLE;
  VkDevice m_device = VK_NULL_HANDLE;
  VkQueue m_queue = VK_NULL_HANDLE;
  uint32_t m_queueFamily = 0;
  VkCommandPool m_commandPool = VK_NULL_HANDLE;
  VkPipelineCache m_pipelineCache = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties m_memory{};
  double m_timestampPeriod = 1;
  bool m_timestamps = false;
  std::mutex m_mutex;
  std::recursive_mutex m_commandMutex;  // recursive: a failed compile frees what it made while holding it
  std::string m_cachePath;              // where the pipeline cache persists between runs (empty: nowhere writable)
  std::array<Pipeline, static_cast<size_t>(ShaderId::kCount)> m_pipelines{};
  std::multimap<VkDeviceSize, Buffer> m_free;  // released device-local buffers by size class
};

/// "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER" style text.
std::string resultName(VkResult result);

}  // namespace flowscope::vk
