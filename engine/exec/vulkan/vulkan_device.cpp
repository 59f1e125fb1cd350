// Vulkan instance, device selection, pipelines and buffers.
#include "exec/vulkan/vulkan_device.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.h"
#include "exec/vulkan/cooperative_matrix.h"

namespace flowscope::vk {
namespace {

std::string typeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

// Discrete first, then integrated, virtual, and the CPU device last.
int preference(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

// $XDG_CACHE_HOME/flowscope (or ~/.cache/flowscope)/vulkan-pipelines-<vendor>-<device>.bin. The driver checks the
// header (vendor, device, driver UUID) and ignores a cache from another driver.
std::string pipelineCachePath(const VkPhysicalDeviceProperties& props) {
  std::string base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::string(home) + "/.cache";
  else
    return "";
  std::error_code ec;
  std::filesystem::create_directories(base + "/flowscope", ec);
  if (ec) return "";
  return base + "/flowscope/vulkan-pipelines-" + std::to_string(props.vendorID) + "-" + std::to_string(props.deviceID) +
         ".bin";
}

Status vkError(const std::string& what, VkResult r) {
  return unavailable("Vulkan: " + what + " failed: " + resultName(r));
}

Expected<VkInstance> createInstance() {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "Flowscope";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r != VK_SUCCESS)
    return unavailable("no Vulkan driver could be loaded (vkCreateInstance: " + resultName(r) +
                       "); install mesa-vulkan-drivers for a CPU device, or a GPU driver");
  return instance;
}

struct Physical {
  VkPhysicalDevice device;
  DeviceInfo info;
  VkPhysicalDeviceType type;
  uint32_t computeFamily;
};

std::vector<Physical> enumerate(VkInstance instance) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  std::vector<Physical> out;
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(devices[i], &props);
    Physical p{devices[i], {}, props.deviceType, UINT32_MAX};
    p.info.index = static_cast<int>(i);
    p.info.name = props.deviceName;
    p.info.type = typeName(props.deviceType);
    p.info.apiVersion = std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
                        std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + "." +
                        std::to_string(VK_API_VERSION_PATCH(props.apiVersion));
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(devices[i], &memory);
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
      if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
        p.info.memoryBytes = std::max<uint64_t>(p.info.memoryBytes, memory.memoryHeaps[h].size);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, nullptr);
    std::vector<VkQueueFamilyProperties> props2(families);
    vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, props2.data());
    for (uint32_t f = 0; f < families && p.computeFamily == UINT32_MAX; ++f)
      if (props2[f].queueFlags & VK_QUEUE_COMPUTE_BIT) p.computeFamily = f;
    p.info.hasCompute = p.computeFamily != UINT32_MAX;
    out.push_back(p);
  }
  return out;
}

}  // namespace

std::string resultName(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    default:
      return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

Expected<std::vector<DeviceInfo>> listDevices() {
  FS_ASSIGN_OR_RETURN(VkInstance instance, createInstance());
  std::vector<DeviceInfo> out;
  for (const auto& p : enumerate(instance)) out.push_back(p.info);
  vkDestroyInstance(instance, nullptr);
  if (out.empty())
    return unavailable("the Vulkan loader found no device; install mesa-vulkan-drivers for a CPU device");
  return out;
}

Expected<std::shared_ptr<VulkanDevice>> VulkanDevice::open(int index) {
  FS_ASSIGN_OR_RETURN(VkInstance instance, createInstance());
  std::shared_ptr<VulkanDevice> d(new VulkanDevice());
  d->m_instance = instance;  // destroyed with d from here on
  std::vector<Physical> all = enumerate(instance);
  std::vector<Physical> usable;
  for (const auto& p : all)
    if (p.info.hasCompute) usable.push_back(p);
  if (usable.empty())
    return unavailable("no Vulkan device with a compute queue; install mesa-vulkan-drivers for a CPU device");
  const Physical* chosen = nullptr;
  if (index >= 0) {
    for (const auto& p : usable)
      if (p.info.index == index) chosen = &p;
    if (!chosen) return notFound("no Vulkan device " + std::to_string(index) + " (`flowscope devices` lists them)");
  } else {
    chosen = &*std::min_element(usable.begin(), usable.end(), [](const Physical& a, const Physical& b) {
      return preference(a.type) < preference(b.type);
    });
  }
  d->m_physical = chosen->device;
  d->m_info = chosen->info;
  d->m_queueFamily = chosen->computeFamily;
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(d->m_physical, &props);
  d->m_timestampPeriod = props.limits.timestampPeriod;
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(d->m_physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> familyProps(families);
  vkGetPhysicalDeviceQueueFamilyProperties(d->m_physical, &families, familyProps.data());
  d->m_timestamps = props.limits.timestampComputeAndGraphics || familyProps[d->m_queueFamily].timestampValidBits > 0;
  vkGetPhysicalDeviceMemoryProperties(d->m_physical, &d->m_memory);
  d->m_directIn = d->pickType(UINT32_MAX, MemoryUse::kDirectIn);
  d->m_directOut = d->pickType(UINT32_MAX, MemoryUse::kDirectOut);
  const char* zeroCopy = std::getenv("FLOWSCOPE_VULKAN_ZERO_COPY");
  d->m_zeroCopy = !zeroCopy || std::string(zeroCopy) != "0";

  FS_RETURN_IF_ERROR(d->createLogicalDevice());
  vkGetDeviceQueue(d->m_device, d->m_queueFamily, 0, &d->m_queue);
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = d->m_queueFamily;
  if (VkResult r = vkCreateCommandPool(d->m_device, &pool, nullptr, &d->m_commandPool); r != VK_SUCCESS)
    return vkError("vkCreateCommandPool", r);
  VkPipelineCacheCreateInfo cache{};
  cache.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  d->m_cachePath = pipelineCachePath(props);
  std::string saved;
  if (!d->m_cachePath.empty()) {
    std::ifstream in(d->m_cachePath, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    saved = bytes.str();
  }
  cache.initialDataSize = saved.size();
  cache.pInitialData = saved.empty() ? nullptr : saved.data();
  if (VkResult r = vkCreatePipelineCache(d->m_device, &cache, nullptr, &d->m_pipelineCache); r != VK_SUCCESS)
    return vkError("vkCreatePipelineCache", r);
  return d;
}

// The logical device with its one compute queue, a timeline semaphore where the device offers one, and the
// cooperative-matrix extensions and features where the device has them all (without them when the driver refuses
// them: fp32 runs need none of it).
Status VulkanDevice::createLogicalDevice() {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = m_queueFamily;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  CooperativeMatrixEnable matrixUnits;
  const CooperativeMatrixSupport support = probeCooperativeMatrix(m_instance, m_physical, &matrixUnits);
  m_cooperativeMatrix = support.fp16;
  m_noCooperativeMatrix = support.why;
  const char* timelineSetting = std::getenv("FLOWSCOPE_VULKAN_TIMELINE");
  const bool timeline =
      (!timelineSetting || std::string(timelineSetting) != "0") && TimelineEnable::offered(m_physical);
  VkResult created = createDevice(queue, timeline, support.fp16 ? &matrixUnits : nullptr);
  if (created != VK_SUCCESS && support.fp16) {  // the matrix units' features refused: the device without them
    m_cooperativeMatrix = false;
    m_noCooperativeMatrix = "vkCreateDevice refused the cooperative-matrix features (" + resultName(created) + ")";
    created = createDevice(queue, timeline, nullptr);
  }
  if (created != VK_SUCCESS && timeline)
    created = createDevice(queue, false, nullptr);
  else if (created == VK_SUCCESS && timeline)
    m_timeline.create(m_device);
  return created == VK_SUCCESS ? Status::ok() : vkError("vkCreateDevice", created);
}

VkResult VulkanDevice::createDevice(const VkDeviceQueueCreateInfo& queue, bool timeline,
                                    CooperativeMatrixEnable* matrixUnits) {
  std::vector<const char*> extensions;
  void* features = nullptr;
  if (matrixUnits) {
    extensions = matrixUnits->extensions;
    features = matrixUnits->features();
  }
  TimelineEnable timelineEnable;
  if (timeline) {
    extensions.push_back(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
    timelineEnable.features.timelineSemaphore = VK_TRUE;
    features = timelineEnable.chain(features);
  }
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.empty() ? nullptr : extensions.data();
  return vkCreateDevice(m_physical, &info, nullptr, &m_device);
}

Expected<Buffer> VulkanDevice::acquire(VkDeviceSize bytes) {
  VkDeviceSize size = 256;
  while (size < bytes) size *= 2;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_free.find(size);
    if (it != m_free.end()) {
      Buffer b = it->second;
      m_free.erase(it);
      return b;
    }
  }
  return createBuffer(size, MemoryUse::kDevice);
}

void VulkanDevice::release(Buffer buffer) {
  if (!buffer.buffer) return;
  std::lock_guard lock(m_mutex);
  m_free.emplace(buffer.size, buffer);
}

Status VulkanDevice::submitAndWait(VkCommandBuffer commands, VkFence kept) {
  if (m_timeline.valid()) {
    uint64_t value = 0;
    VkResult r;
    {
      std::lock_guard lock(m_mutex);  // one queue, many sessions
      r = m_timeline.submit(m_queue, commands, &value);
    }
    if (r != VK_SUCCESS) return vkError("vkQueueSubmit", r);
    r = m_timeline.wait(m_device, value);
    return r == VK_SUCCESS ? Status::ok() : vkError("vkWaitSemaphores", r);
  }
  VkFence fence = kept;
  if (!fence) {
    VkFenceCreateInfo fenceInfo{};
    fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if (VkResult r = vkCreateFence(m_device, &fenceInfo, nullptr, &fence); r != VK_SUCCESS)
      return vkError("vkCreateFence", r);
  }
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  VkResult r;
  {
    std::lock_guard lock(m_mutex);  // one queue, many sessions
    r = vkQueueSubmit(m_queue, 1, &submit, fence);
  }
  if (r == VK_SUCCESS) r = vkWaitForFences(m_device, 1, &fence, VK_TRUE, UINT64_MAX);
  if (kept)
    vkResetFences(m_device, 1, &fence);
  else
    vkDestroyFence(m_device, fence, nullptr);
  return r == VK_SUCCESS ? Status::ok() : vkError("vkQueueSubmit", r);
}

Status VulkanDevice::copyAndWait(const std::vector<BufferCopy>& copies) {
  std::lock_guard lock(m_commandMutex);
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = m_commandPool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer once = VK_NULL_HANDLE;
  if (VkResult r = vkAllocateCommandBuffers(m_device, &alloc, &once); r != VK_SUCCESS)
    return vkError("vkAllocateCommandBuffers", r);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(once, &begin);
  for (const BufferCopy& c : copies)
    if (c.region.size > 0) vkCmdCopyBuffer(once, c.from, c.to, 1, &c.region);
  vkEndCommandBuffer(once);
  Status s = submitAndWait(once);
  vkFreeCommandBuffers(m_device, m_commandPool, 1, &once);
  return s;
}

VulkanDevice::~VulkanDevice() {
  if (m_device) {
    vkDeviceWaitIdle(m_device);
    for (auto& [size, buffer] : m_free) destroyBuffer(buffer);
    for (auto& p : m_pipelines) {
      if (p.pipeline) vkDestroyPipeline(m_device, p.pipeline, nullptr);
      if (p.layout) vkDestroyPipelineLayout(m_device, p.layout, nullptr);
      if (p.setLayout) vkDestroyDescriptorSetLayout(m_device, p.setLayout, nullptr);
    }
    if (m_pipelineCache) {
      size_t size = 0;
      if (!m_cachePath.empty() && vkGetPipelineCacheData(m_device, m_pipelineCache, &size, nullptr) == VK_SUCCESS &&
          size > 0) {
        std::string data(size, '\0');
        if (vkGetPipelineCacheData(m_device, m_pipelineCache, &size, data.data()) == VK_SUCCESS)
          (void)writeFileAtomically(m_cachePath,
                                    std::string_view(data.data(), size));  // a cache: losing it costs time only
      }
      vkDestroyPipelineCache(m_device, m_pipelineCache, nullptr);
    }
    if (m_commandPool) vkDestroyCommandPool(m_device, m_commandPool, nullptr);
    m_timeline.destroy(m_device);
    vkDestroyDevice(m_device, nullptr);
  }
  if (m_instance) vkDestroyInstance(m_instance, nullptr);
}

uint32_t VulkanDevice::firstType(uint32_t allowed, VkMemoryPropertyFlags wanted) const {
  for (uint32_t i = 0; i < m_memory.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (m_memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  return kNoType;
}

uint32_t VulkanDevice::pickType(uint32_t allowed, MemoryUse use) const {
  constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  uint32_t type = kNoType;
  switch (use) {
    case MemoryUse::kDevice:
      type = firstType(allowed, kLocal);
      break;
    case MemoryUse::kUpload:
      type = firstType(allowed, kHost);
      break;
    case MemoryUse::kDownload:
      type = firstType(allowed, kHost | kCached);
      if (type == kNoType) type = firstType(allowed, kHost);
      break;
    case MemoryUse::kDirectIn:
      type = firstType(allowed, kLocal | kHost);
      break;
    case MemoryUse::kDirectOut:
      type = firstType(allowed, kLocal | kHost | kCached);
      break;
  }
  return type;
}

Expected<uint32_t> VulkanDevice::memoryType(uint32_t allowed, MemoryUse use) const {
  const uint32_t type = pickType(allowed, use);
  if (type == kNoType) return unavailable("Vulkan: no memory type with the properties a buffer needs");
  return type;
}

Expected<Buffer> VulkanDevice::createBuffer(VkDeviceSize bytes, MemoryUse use) {
  Buffer b;
  b.size = std::max<VkDeviceSize>(bytes, 4);
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = b.size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vkCreateBuffer(m_device, &info, nullptr, &b.buffer); r != VK_SUCCESS)
    return vkError("vkCreateBuffer", r);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(m_device, b.buffer, &req);
  auto type = memoryType(req.memoryTypeBits, use);
  if (!type) {
    destroyBuffer(b);
    return type.status();
  }
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = *type;
  if (VkResult r = vkAllocateMemory(m_device, &alloc, nullptr, &b.memory); r != VK_SUCCESS) {
    destroyBuffer(b);
    return vkError("vkAllocateMemory of " + std::to_string(req.size) + " bytes", r);
  }
  vkBindBufferMemory(m_device, b.buffer, b.memory, 0);
  if (use != MemoryUse::kDevice)  // device-local memory may be host-visible too (unified memory), but is not mapped
    vkMapMemory(m_device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped);
  return b;
}

void VulkanDevice::destroyBuffer(Buffer& b) {
  if (b.mapped) vkUnmapMemory(m_device, b.memory);
  if (b.buffer) vkDestroyBuffer(m_device, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(m_device, b.memory, nullptr);
  b = Buffer{};
}

Expected<const VulkanDevice::Pipeline*> VulkanDevice::pipeline(ShaderId id) {
  std::lock_guard lock(m_mutex);
  Pipeline& p = m_pipelines[static_cast<size_t>(id)];
  if (p.pipeline) return &p;
  const ShaderCode& code = shaderCode(id);
  std::vector<VkDescriptorSetLayoutBinding> bindings(code.bindings);
  for (uint32_t i = 0; i < code.bindings; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setInfo{};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setInfo.bindingCount = code.bindings;
  setInfo.pBindings = bindings.data();
  if (VkResult r = vkCreateDescriptorSetLayout(m_device, &setInfo, nullptr, &p.setLayout); r != VK_SUCCESS)
    return vkError("vkCreateDescriptorSetLayout", r);
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &p.setLayout;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &push;
  if (VkResult r = vkCreatePipelineLayout(m_device, &layoutInfo, nullptr, &p.layout); r != VK_SUCCESS)
    return vkError("vkCreatePipelineLayout", r);
  VkShaderModuleCreateInfo moduleInfo{};
  moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  moduleInfo.codeSize = code.bytes;
  moduleInfo.pCode = code.words;
  VkShaderModule module = VK_NULL_HANDLE;
  if (VkResult r = vkCreateShaderModule(m_device, &moduleInfo, nullptr, &module); r != VK_SUCCESS)
    return vkError(std::string("vkCreateShaderModule (") + code.name + ")", r);
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                nullptr,
                0,
                VK_SHADER_STAGE_COMPUTE_BIT,
                module,
                "main",
                nullptr};
  info.layout = p.layout;
  VkResult r = vkCreateComputePipelines(m_device, m_pipelineCache, 1, &info, nullptr, &p.pipeline);
  vkDestroyShaderModule(m_device, module, nullptr);
  if (r != VK_SUCCESS) return vkError(std::string("vkCreateComputePipelines (") + code.name + ")", r);
  return &p;
}

}  // namespace flowscope::vk
