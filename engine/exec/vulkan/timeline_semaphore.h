// The device's timeline semaphore (VK_KHR_timeline_semaphore, core in Vulkan 1.2): every submit signals the next value
// of one counter and the host waits until the counter reaches it, so a run makes, resets and destroys no fence.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace flowscope::vk {

/// Whether the physical device lists the device extension `name`.
bool hasDeviceExtension(VkPhysicalDevice device, const char* name);

/// What vkCreateDevice enables for the semaphore.
struct TimelineEnable {
  VkPhysicalDeviceTimelineSemaphoreFeaturesKHR features{};
  /// Whether the device offers timeline semaphores (the extension and its feature).
  static bool offered(VkPhysicalDevice device);
  /// The feature struct, chained in front of `next`, for VkDeviceCreateInfo::pNext.
  void* chain(void* next);
};

class TimelineSemaphore {
 public:
  /// Makes the semaphore on a device created with TimelineEnable; false, with nothing made, where that fails.
  bool create(VkDevice device);
  void destroy(VkDevice device);
  bool valid() const { return m_semaphore != VK_NULL_HANDLE; }
  /// Submits `commands` to signal the next value, which it returns in `value`. The caller holds the queue's lock.
  VkResult submit(VkQueue queue, VkCommandBuffer commands, uint64_t* value);
  /// Waits until the counter reaches `value`.
  VkResult wait(VkDevice device, uint64_t value) const;

 private:
  VkSemaphore m_semaphore = VK_NULL_HANDLE;
  PFN_vkWaitSemaphoresKHR m_wait = nullptr;
  uint64_t m_last = 0;  // the value the latest submit signals
};

}  // namespace flowscope::vk
