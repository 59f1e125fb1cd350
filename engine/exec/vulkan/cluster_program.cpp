// Compiling and running a Vulkan cluster.
#include "exec/vulkan/cluster_program.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace flowscope::vk {
namespace {

Status vkFail(const std::string& what, VkResult r) { return unavailable("Vulkan: " + what + " failed: " + resultName(r)); }

std::string shapesKey(const std::vector<Shape>& shapes) {
  std::string key;
  for (const Shape& s : shapes) key += s.toString() + ";";
  return key;
}

VkDeviceSize floatBytes(const Shape& s) { return static_cast<VkDeviceSize>(std::max<int64_t>(s.numElements(), 0)) * 4; }

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags from, VkAccessFlags fromAccess, VkPipelineStageFlags to,
                   VkAccessFlags toAccess) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = fromAccess;
  barrier.dstAccessMask = toAccess;
  vkCmdPipelineBarrier(cmd, from, to, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

struct ClusterProgram::Compiled {
  VulkanDevice* device = nullptr;
  std::vector<Buffer> pooled;  // values, returned to the device's pool
  Buffer stagingIn, stagingOut;
  std::vector<VkDeviceSize> inOffsets, outOffsets;
  std::vector<Shape> outputShapes;
  VkDescriptorPool descriptors = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  uint32_t queryCount = 0;

  ~Compiled() {
    std::lock_guard lock(device->commandMutex());
    VkDevice d = device->device();
    for (Buffer& b : pooled) device->release(b);
    device->destroyBuffer(stagingIn);
    device->destroyBuffer(stagingOut);
    if (descriptors) vkDestroyDescriptorPool(d, descriptors, nullptr);
    if (commands) vkFreeCommandBuffers(d, device->commandPool(), 1, &commands);
    if (queries) vkDestroyQueryPool(d, queries, nullptr);
  }
};

ClusterProgram::ClusterProgram(std::shared_ptr<VulkanDevice> device, ClusterSpec spec)
    : m_device(std::move(device)), m_spec(std::move(spec)) {}

ClusterProgram::~ClusterProgram() = default;

Expected<ClusterProgram::Compiled*> ClusterProgram::compiled(const std::vector<Tensor>& inputs) {
  std::vector<Shape> shapes;
  for (const Tensor& t : inputs) shapes.push_back(t.shape());
  const std::string key = shapesKey(shapes);
  auto it = m_compiled.find(key);
  if (it == m_compiled.end()) {
    std::lock_guard lock(m_device->commandMutex());
    FS_ASSIGN_OR_RETURN(auto program, compile(shapes));
    it = m_compiled.emplace(key, std::move(program)).first;
  }
  return it->second.get();
}

Expected<std::unique_ptr<ClusterProgram::Compiled>> ClusterProgram::compile(const std::vector<Shape>& externalShapes) {
  auto c = std::make_unique<Compiled>();
  c->device = m_device.get();
  VkDevice dev = m_device->device();
  // Values: external inputs, constants, then node outputs; each a device-local buffer from the pool.
  std::vector<Buffer> externals, constants;
  std::vector<std::vector<Buffer>> nodeOut(m_spec.nodes.size());
  std::vector<std::vector<Shape>> nodeShapes(m_spec.nodes.size());
  auto take = [&](const Shape& s) -> Expected<Buffer> {
    FS_ASSIGN_OR_RETURN(Buffer b, m_device->acquire(floatBytes(s)));
    c->pooled.push_back(b);
    return b;
  };
  for (const Shape& s : externalShapes) {
    FS_ASSIGN_OR_RETURN(Buffer b, take(s));
    externals.push_back(b);
  }
  for (const Tensor& t : m_spec.constants) {
    FS_ASSIGN_OR_RETURN(Buffer b, take(t.shape()));
    constants.push_back(b);
  }
  auto shapeOf = [&](const ValueRef& r) -> const Shape& {
    if (r.kind == ValueRef::kExternal) return externalShapes[static_cast<size_t>(r.index)];
    if (r.kind == ValueRef::kConstant) return m_spec.constants[static_cast<size_t>(r.index)].shape();
    return nodeShapes[static_cast<size_t>(r.index)][static_cast<size_t>(r.output)];
  };
  auto bufferOf = [&](const ValueRef& r) -> const Buffer& {
    if (r.kind == ValueRef::kExternal) return externals[static_cast<size_t>(r.index)];
    if (r.kind == ValueRef::kConstant) return constants[static_cast<size_t>(r.index)];
    return nodeOut[static_cast<size_t>(r.index)][static_cast<size_t>(r.output)];
  };
  // Lower every node for these shapes.
  std::vector<LoweredNode> lowered;
  size_t dispatchCount = 0, descriptorCount = 0;
  for (size_t k = 0; k < m_spec.nodes.size(); ++k) {
    const Node& node = m_spec.nodes[k];
    NodeView view{node, {}, m_spec.params[k]};
    view.inputShapes.assign(node.inputs.size(), Shape());
    for (size_t j = 0; j < m_spec.inputs[k].size(); ++j)
      view.inputShapes[static_cast<size_t>(m_spec.bufferInputIndex[k][j])] = shapeOf(m_spec.inputs[k][j]);
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (m_spec.params[k][i]) view.inputShapes[i] = m_spec.params[k][i]->shape();
    FS_ASSIGN_OR_RETURN(LoweredNode l, lower(view));
    nodeShapes[k] = l.outputShapes;
    for (const Shape& s : l.outputShapes) {
      FS_ASSIGN_OR_RETURN(Buffer b, take(s));
      nodeOut[k].push_back(b);
    }
    for (const Dispatch& d : l.dispatches) {
      ++dispatchCount;
      descriptorCount += d.buffers.size();
    }
    lowered.push_back(std::move(l));
  }
  // Staging: all inputs in one host-visible buffer, all outputs in another.
  VkDeviceSize inBytes = 0, outBytes = 0;
  for (const Shape& s : externalShapes) {
    c->inOffsets.push_back(inBytes);
    inBytes += floatBytes(s);
  }
  for (const ValueRef& r : m_spec.outputs) {
    c->outOffsets.push_back(outBytes);
    c->outputShapes.push_back(shapeOf(r));
    outBytes += floatBytes(shapeOf(r));
  }
  FS_ASSIGN_OR_RETURN(c->stagingIn, m_device->createBuffer(inBytes, true));
  FS_ASSIGN_OR_RETURN(c->stagingOut, m_device->createBuffer(outBytes, true));

  // Constants: uploaded once, now.
  if (!m_spec.constants.empty()) {
    VkDeviceSize bytes = 0;
    for (const Tensor& t : m_spec.constants) bytes += floatBytes(t.shape());
    FS_ASSIGN_OR_RETURN(Buffer upload, m_device->createBuffer(bytes, true));
    std::vector<VulkanDevice::BufferCopy> copies;
    VkDeviceSize at = 0;
    for (size_t i = 0; i < m_spec.constants.size(); ++i) {
      const VkDeviceSize n = floatBytes(m_spec.constants[i].shape());
      if (n == 0) continue;
      std::memcpy(static_cast<char*>(upload.mapped) + at, m_spec.constants[i].data<float>(), n);
      copies.push_back({upload.buffer, constants[i].buffer, VkBufferCopy{at, 0, n}});
      at += n;
    }
    Status s = m_device->copyAndWait(copies);
    m_device->destroyBuffer(upload);
    FS_RETURN_IF_ERROR(s);
  }

  // Descriptor sets, one per dispatch.
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(std::max<size_t>(descriptorCount, 1))};
  VkDescriptorPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  poolInfo.maxSets = static_cast<uint32_t>(std::max<size_t>(dispatchCount, 1));
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (VkResult r = vkCreateDescriptorPool(dev, &poolInfo, nullptr, &c->descriptors); r != VK_SUCCESS) return vkFail("vkCreateDescriptorPool", r);

  if (m_device->hasTimestamps()) {
    VkQueryPoolCreateInfo q{};
    q.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    q.queryType = VK_QUERY_TYPE_TIMESTAMP;
    q.queryCount = static_cast<uint32_t>(m_spec.nodes.size() + 1);
    if (vkCreateQueryPool(dev, &q, nullptr, &c->queries) == VK_SUCCESS) c->queryCount = q.queryCount;
  }

  // The command buffer of one run.
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = m_device->commandPool();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (VkResult r = vkAllocateCommandBuffers(dev, &alloc, &c->commands); r != VK_SUCCESS) return vkFail("vkAllocateCommandBuffers", r);
  VkCommandBuffer cmd = c->commands;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vkBeginCommandBuffer(cmd, &begin);
  if (c->queries) vkCmdResetQueryPool(cmd, c->queries, 0, c->queryCount);
  for (size_t i = 0; i < externals.size(); ++i) {
    const VkDeviceSize n = floatBytes(externalShapes[i]);
    if (n == 0) continue;
    VkBufferCopy region{c->inOffsets[i], 0, n};
    vkCmdCopyBuffer(cmd, c->stagingIn.buffer, externals[i].buffer, 1, &region);
  }
  memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT);
  if (c->queries) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries, 0);
  std::vector<VkBuffer> written;  // written since the last barrier
  for (size_t k = 0; k < m_spec.nodes.size(); ++k) {
    std::vector<const Buffer*> ins;
    for (const ValueRef& r : m_spec.inputs[k]) ins.push_back(&bufferOf(r));
    // A barrier only where this node reads a buffer an earlier node wrote since the last one.
    bool dependent = false;
    for (const Buffer* b : ins) dependent |= std::find(written.begin(), written.end(), b->buffer) != written.end();
    if (dependent) {
      memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      written.clear();
    }
    for (const Dispatch& d : lowered[k].dispatches) {
      FS_ASSIGN_OR_RETURN(const VulkanDevice::Pipeline* p, m_device->pipeline(d.shader));
      VkDescriptorSetAllocateInfo setAlloc{};
      setAlloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
      setAlloc.descriptorPool = c->descriptors;
      setAlloc.descriptorSetCount = 1;
      setAlloc.pSetLayouts = &p->setLayout;
      VkDescriptorSet set = VK_NULL_HANDLE;
      if (VkResult r = vkAllocateDescriptorSets(dev, &setAlloc, &set); r != VK_SUCCESS) return vkFail("vkAllocateDescriptorSets", r);
      std::vector<VkDescriptorBufferInfo> infos(d.buffers.size());
      std::vector<VkWriteDescriptorSet> writes(d.buffers.size());
      for (size_t b = 0; b < d.buffers.size(); ++b) {
        const Operand& o = d.buffers[b];
        const Buffer& buf = o.output ? nodeOut[k][static_cast<size_t>(o.index)] : *ins[static_cast<size_t>(
                                                                                      std::find(m_spec.bufferInputIndex[k].begin(), m_spec.bufferInputIndex[k].end(), o.index) -
                                                                                      m_spec.bufferInputIndex[k].begin())];
        infos[b] = {buf.buffer, 0, VK_WHOLE_SIZE};
        writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, static_cast<uint32_t>(b), 0, 1,
                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &infos[b], nullptr};
      }
      vkUpdateDescriptorSets(dev, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 128, d.push.data());
      vkCmdDispatch(cmd, d.groups[0], d.groups[1], d.groups[2]);
    }
    for (const Buffer& b : nodeOut[k]) written.push_back(b.buffer);
    if (c->queries) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries, static_cast<uint32_t>(k + 1));
  }
  memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT);
  for (size_t i = 0; i < m_spec.outputs.size(); ++i) {
    const VkDeviceSize n = floatBytes(c->outputShapes[i]);
    if (n == 0) continue;
    VkBufferCopy region{0, c->outOffsets[i], n};
    vkCmdCopyBuffer(cmd, bufferOf(m_spec.outputs[i]).buffer, c->stagingOut.buffer, 1, &region);
  }
  memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return vkFail("vkEndCommandBuffer", r);
  return c;
}

Status ClusterProgram::run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, RunProfile* profile, int runIndex,
                           const std::string& eventPrefix) {
  if (inputs.size() != m_spec.externalInputs)
    return internalError("Vulkan cluster " + m_spec.name + " got " + std::to_string(inputs.size()) + " inputs, expected " +
                         std::to_string(m_spec.externalInputs));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].dtype() != DType::kFloat)
      return invalidArgument("Vulkan cluster " + m_spec.name + ": input " + std::to_string(i) + " is " + std::string(dtypeName(inputs[i].dtype())) + ", expected float32");
  FS_ASSIGN_OR_RETURN(Compiled * c, compiled(inputs));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].numElements() > 0)
      std::memcpy(static_cast<char*>(c->stagingIn.mapped) + c->inOffsets[i], inputs[i].data<float>(), floatBytes(inputs[i].shape()));
  const int64_t submitted = profile ? profile->now() : 0;
  FS_RETURN_IF_ERROR(m_device->submitAndWait(c->commands));
  outputs.clear();
  for (size_t i = 0; i < c->outputShapes.size(); ++i) {
    Tensor t(DType::kFloat, c->outputShapes[i]);
    if (t.numElements() > 0) std::memcpy(t.data<float>(), static_cast<char*>(c->stagingOut.mapped) + c->outOffsets[i], floatBytes(t.shape()));
    outputs.push_back(std::move(t));
  }
  if (profile && c->queries) {
    std::vector<uint64_t> ticks(c->queryCount);
    if (vkGetQueryPoolResults(m_device->device(), c->queries, 0, c->queryCount, ticks.size() * 8, ticks.data(), 8,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
      const double ns = m_device->timestampPeriod();
      for (size_t k = 0; k < m_spec.nodes.size(); ++k) {
        NodeEvent e;
        e.name = eventPrefix + m_spec.nodes[k].name;
        e.op = m_spec.nodes[k].op;
        e.backend = "vulkan";
        e.startNs = submitted + static_cast<int64_t>(static_cast<double>(ticks[k] - ticks[0]) * ns);
        e.endNs = submitted + static_cast<int64_t>(static_cast<double>(ticks[k + 1] - ticks[0]) * ns);
        e.thread = profile->threadId();
        e.run = runIndex;
        profile->add(std::move(e));
      }
    }
  }
  return Status::ok();
}

}  // namespace flowscope::vk
