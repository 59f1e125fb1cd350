// The cooperative-matrix probe: the extensions, the features and the fragment shapes the device reports.
#include "exec/vulkan/cooperative_matrix.h"

#include "exec/vulkan/timeline_semaphore.h"

#include <algorithm>

namespace flowscope::vk {
namespace {

constexpr uint32_t kFragment = 16, kSubgroup = 32, kInvocations = 256;
// gemm_coopmat.glsl's padded fp16 slices of A (128 x 40) and B (32 x 136) and its eight fp32 fragments on their way out
constexpr uint32_t kSharedBytes = (128 * 40 + 32 * 136) * 2 + 8 * 16 * 16 * 4;

bool hasFp16Fragments(VkInstance instance, VkPhysicalDevice device) {
  auto properties = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (!properties) return false;
  uint32_t count = 0;
  properties(device, &count, nullptr);
  std::vector<VkCooperativeMatrixPropertiesNV> shapes(count);
  for (auto& s : shapes) s.sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
  properties(device, &count, shapes.data());
  return std::any_of(shapes.begin(), shapes.end(), [](const VkCooperativeMatrixPropertiesNV& s) {
    return s.MSize == kFragment && s.NSize == kFragment && s.KSize == kFragment &&
           s.AType == VK_COMPONENT_TYPE_FLOAT16_NV && s.BType == VK_COMPONENT_TYPE_FLOAT16_NV &&
           s.CType == VK_COMPONENT_TYPE_FLOAT32_NV && s.DType == VK_COMPONENT_TYPE_FLOAT32_NV &&
           s.scope == VK_SCOPE_SUBGROUP_NV;
  });
}

}  // namespace

void* CooperativeMatrixEnable::features() {
  matrix.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
  float16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR;
  memoryModel.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES_KHR;
  matrix.pNext = &float16;
  float16.pNext = &memoryModel;
  memoryModel.pNext = nullptr;
  return &matrix;
}

CooperativeMatrixSupport probeCooperativeMatrix(VkInstance instance, VkPhysicalDevice device,
                                                CooperativeMatrixEnable* enable) {
  const std::vector<const char*> needed = {VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME,
                                           VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME,
                                           VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME};
  for (const char* name : needed)
    if (!hasDeviceExtension(device, name)) return {false, std::string("no ") + name};
  CooperativeMatrixEnable offered;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = offered.features();
  vkGetPhysicalDeviceFeatures2(device, &features);
  if (!offered.matrix.cooperativeMatrix || !offered.float16.shaderFloat16 || !offered.memoryModel.vulkanMemoryModel)
    return {false, "the cooperative-matrix, fp16 or memory-model feature is off"};
  if (!hasFp16Fragments(instance, device)) return {false, "no 16x16x16 fp16 fragments with fp32 sums"};
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(device, &properties);
  const VkPhysicalDeviceLimits& limits = properties.properties.limits;
  if (subgroup.subgroupSize != kSubgroup || limits.maxComputeWorkGroupInvocations < kInvocations ||
      limits.maxComputeSharedMemorySize < kSharedBytes)
    return {false, "subgroups other than 32 wide, or too little shared memory"};
  enable->extensions = needed;
  enable->matrix.cooperativeMatrix = VK_TRUE;
  enable->float16.shaderFloat16 = VK_TRUE;
  enable->memoryModel.vulkanMemoryModel = VK_TRUE;
  return {true, ""};
}

}  // namespace flowscope::vk
