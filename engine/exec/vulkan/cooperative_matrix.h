// Whether a Vulkan device can run the cooperative-matrix GEMM core (shaders/gemm_coopmat.glsl, through
// VK_NV_cooperative_matrix: Debian 12's glslc compiles the NV extension, not the KHR one), and what the device must be
// created with for it.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace flowscope::vk {

/// The extensions and features to enable at vkCreateDevice for the core, chained through `features()`.
struct CooperativeMatrixEnable {
  std::vector<const char*> extensions;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV matrix{};
  VkPhysicalDeviceShaderFloat16Int8FeaturesKHR float16{};
  VkPhysicalDeviceVulkanMemoryModelFeaturesKHR memoryModel{};
  /// The head of the feature chain for VkDeviceCreateInfo::pNext (links the members; call after any copy).
  void* features();
};

struct CooperativeMatrixSupport {
  bool fp16 = false;  ///< 16x16x16 fp16 x fp16 + fp32 fragments, subgroups of exactly 32, enough shared memory
  std::string why;    ///< when not: what the device lacks
};

/// Probes the device; when it can, fills `enable` with what vkCreateDevice must enable.
CooperativeMatrixSupport probeCooperativeMatrix(VkInstance instance, VkPhysicalDevice device,
                                                CooperativeMatrixEnable* enable);

}  // namespace flowscope::vk
