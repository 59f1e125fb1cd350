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
#include "exec/vulkan/timeline_semaphore.h"

namespace flowscope::vk {

struct CooperativeMatrixEnable;

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

/// What a buffer's memory is for; each picks the memory type that suits it best on this device.
enum class MemoryUse {
  kDevice,     ///< device-local: values between kernels
  kUpload,     ///< host-visible and coherent, written by the host (staging on the way in)
  kDownload,   ///< host-visible and coherent, read by the host: host-cached where offered (uncached reads crawl)
  kDirectIn,   ///< device-local and host-visible (resizable BAR, unified memory): inputs written in place
  kDirectOut,  ///< device-local, host-visible and host-cached (unified memory): outputs read in place
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
  /// Whether MatMul and convolutions at fp16 run on the cooperative-matrix core (cooperative_matrix.h); if not, why.
  bool cooperativeMatrix() const { return m_cooperativeMatrix; }
  const std::string& noCooperativeMatrix() const { return m_noCooperativeMatrix; }

  Expected<Buffer> createBuffer(VkDeviceSize bytes, MemoryUse use);
  /// Whether kernels can read inputs the host wrote in place (kDirectIn exists and zero-copy is on), and whether the
  /// host can read outputs in place (kDirectOut): then a run needs no staging copy that way.
  bool directInputs() const { return m_zeroCopy && m_directIn != kNoType; }
  bool directOutputs() const { return m_zeroCopy && m_directOut != kNoType; }
  /// Zero-copy is on unless FLOWSCOPE_VULKAN_ZERO_COPY=0 was set when the device opened: then every run goes through
  /// staging buffers (to rule out a driver's mapped device memory, and for tests of that path).
  void destroyBuffer(Buffer& buffer);
  /// Device-local buffers from a pool by power-of-two size class: programs compiled for new shapes reuse the
  /// memory of released ones.
  Expected<Buffer> acquire(VkDeviceSize bytes);
  void release(Buffer buffer);
  /// Submits a command buffer and waits for it: with `fence` (unsignalled, left unsignalled again) when the caller
  /// keeps one for its runs, else with a fence made for this submit.
  /// Where the device has a timeline semaphore (timelineSemaphore()), the submit signals its next value instead and
  /// no fence is used.
  Status submitAndWait(VkCommandBuffer commands, VkFence fence = VK_NULL_HANDLE);
  /// Whether submits wait on the device's timeline semaphore (FLOWSCOPE_VULKAN_TIMELINE=0 forces fences).
  bool timelineSemaphore() const { return m_timeline.valid(); }
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
  Status createLogicalDevice();  // m_device, and whether the cooperative-matrix core can run
  VkResult createDevice(const VkDeviceQueueCreateInfo& queue, bool timeline, CooperativeMatrixEnable* matrixUnits);
  static constexpr uint32_t kNoType = UINT32_MAX;
  Expected<uint32_t> memoryType(uint32_t allowed, MemoryUse use) const;
  uint32_t pickType(uint32_t allowed, MemoryUse use) const;                  // kNoType when none suits
  uint32_t firstType(uint32_t allowed, VkMemoryPropertyFlags wanted) const;  // kNoType when none has them

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
  bool m_cooperativeMatrix = false;
  std::string m_noCooperativeMatrix;
  uint32_t m_directIn = kNoType, m_directOut = kNoType;  // the memory types of kDirectIn and kDirectOut, if any
  bool m_zeroCopy = true;
  TimelineSemaphore m_timeline;  // every submit's completion, where the device has one
  std::mutex m_mutex;
  std::recursive_mutex m_commandMutex;  // recursive: a failed compile frees what it made while holding it
  std::string m_cachePath;              // where the pipeline cache persists between runs (empty: nowhere writable)
  std::array<Pipeline, static_cast<size_t>(ShaderId::kCount)> m_pipelines{};
  std::multimap<VkDeviceSize, Buffer> m_free;  // released device-local buffers by size class
};

/// "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER" style text.
std::string resultName(VkResult result);

}  // namespace flowscope::vk
