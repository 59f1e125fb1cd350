// The timeline semaphore: the probe, the semaphore, a submit that signals it and the host's wait.
#include "exec/vulkan/timeline_semaphore.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace flowscope::vk {

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> all(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, all.data());
  return std::any_of(all.begin(), all.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

bool TimelineEnable::offered(VkPhysicalDevice device) {
  if (!hasDeviceExtension(device, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME)) return false;
  TimelineEnable probe;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = probe.chain(nullptr);
  vkGetPhysicalDeviceFeatures2(device, &features);
  return probe.features.timelineSemaphore == VK_TRUE;
}

void* TimelineEnable::chain(void* next) {
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR;
  features.pNext = next;
  return &features;
}

bool TimelineSemaphore::create(VkDevice device) {
  m_wait = reinterpret_cast<PFN_vkWaitSemaphoresKHR>(vkGetDeviceProcAddr(device, "vkWaitSemaphoresKHR"));
  if (!m_wait) return false;
  VkSemaphoreTypeCreateInfoKHR type{};
  type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR;
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE_KHR;
  type.initialValue = 0;
  VkSemaphoreCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  info.pNext = &type;
  if (vkCreateSemaphore(device, &info, nullptr, &m_semaphore) != VK_SUCCESS) m_semaphore = VK_NULL_HANDLE;
  return valid();
}

void TimelineSemaphore::destroy(VkDevice device) {
  if (m_semaphore) vkDestroySemaphore(device, m_semaphore, nullptr);
  m_semaphore = VK_NULL_HANDLE;
}

VkResult TimelineSemaphore::submit(VkQueue queue, VkCommandBuffer commands, uint64_t* value) {
  const uint64_t next = m_last + 1;
  VkTimelineSemaphoreSubmitInfoKHR values{};
  values.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO_KHR;
  values.signalSemaphoreValueCount = 1;
  values.pSignalSemaphoreValues = &next;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.pNext = &values;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &m_semaphore;
  const VkResult r = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
  if (r == VK_SUCCESS) m_last = next;  // a refused submit signals nothing: the next one reuses the value
  *value = next;
  return r;
}

VkResult TimelineSemaphore::wait(VkDevice device, uint64_t value) const {
  VkSemaphoreWaitInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO_KHR;
  info.semaphoreCount = 1;
  info.pSemaphores = &m_semaphore;
  info.pValues = &value;
  return m_wait(device, &info, UINT64_MAX);
}

}  // namespace flowscope::vk
