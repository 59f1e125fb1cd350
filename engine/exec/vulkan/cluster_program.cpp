// Compiling and running a Vulkan cluster.
#include "exec/vulkan/cluster_program.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "profile/flops.h"

namespace flowscope::vk {
namespace {

Status vkFail(const std::string& what, VkResult r) {
  return unavailable("Vulkan: " + what + " failed: " + resultName(r));
}

std::string shapesKey(const std::vector<Shape>& shapes) {
  std::string key;
  for (const Shape& s : shapes) key += s.toString() + ";";
  return key;
}

VkDeviceSize floatBytes(const Shape& s) { return static_cast<VkDeviceSize>(std::max<int64_t>(s.numElements(), 0)) * 4; }
// The bytes of a value of `type` in a device buffer, rounded up to whole 32-bit words (shaders read words).
VkDeviceSize valueBytes(DType type, const Shape& s) {
  const auto bytes = static_cast<VkDeviceSize>(std::max<int64_t>(s.numElements(), 0)) * dtypeSize(type);
  return (bytes + 3) / 4 * 4;
}

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
  std::vector<Buffer> owned;   // inputs and outputs the host writes or reads in place, destroyed with the program
  Buffer stagingIn, stagingOut;
  // Per input and per output: the mapped device buffer the host writes or reads in place, or null when the value goes
  // through staging at its offset.
  std::vector<void*> inDirect, outDirect;
  std::vector<VkDeviceSize> inOffsets, outOffsets;
  std::vector<Shape> outputShapes;
  VkDescriptorPool descriptors = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;  // the runs' fence, made once where the device has no timeline semaphore
  VkQueryPool queries = VK_NULL_HANDLE;
  uint32_t queryCount = 0;
  // Per node, for the profiler: estimated FLOPs, and the bytes of its buffer inputs and of its outputs (float32).
  std::vector<int64_t> nodeFlops, nodeBytesIn, nodeBytesOut;

  ~Compiled() {
    std::lock_guard lock(device->commandMutex());
    VkDevice d = device->device();
    for (Buffer& b : pooled) device->release(b);
    for (Buffer& b : owned) device->destroyBuffer(b);
    if (fence) vkDestroyFence(d, fence, nullptr);
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

// One compilation of a cluster for a set of input shapes: value buffers, staging, constants, pools, and the run's
// command buffer, built phase by phase into `c`.
class ClusterProgram::Builder {
 public:
  Builder(VulkanDevice& device, const ClusterSpec& spec, const std::vector<Shape>& externalShapes, Compiled& c)
      : m_device(device),
        m_spec(spec),
        m_externalShapes(externalShapes),
        m_c(c),
        m_nodeOut(spec.nodes.size()),
        m_nodeShapes(spec.nodes.size()) {}

  Status build() {
    FS_RETURN_IF_ERROR(allocateValues());
    FS_RETURN_IF_ERROR(createStaging());
    FS_RETURN_IF_ERROR(uploadConstants());
    FS_RETURN_IF_ERROR(createPools());
    return recordCommands();
  }

 private:
  Expected<Buffer> take(VkDeviceSize bytes) {
    FS_ASSIGN_OR_RETURN(Buffer b, m_device.acquire(bytes));
    m_c.pooled.push_back(b);
    return b;
  }
  Expected<Buffer> take(const Shape& s) { return take(floatBytes(s)); }
  // A value the host writes (kDirectIn) or reads (kDirectOut) in place when `wanted`: a mapped buffer of its own.
  // Otherwise, or when that memory is exhausted, a pooled one (never mapped), which the run stages.
  Expected<Buffer> takeForHost(VkDeviceSize bytes, bool wanted, MemoryUse use) {
    if (wanted) {
      if (auto b = m_device.createBuffer(bytes, use); b && b->mapped) {
        m_c.owned.push_back(*b);
        return *b;
      } else if (b) {
        m_device.destroyBuffer(*b);
      }
    }
    return take(bytes);
  }
  // The bytes of external input i, of its type.
  VkDeviceSize externalBytes(size_t i) const { return valueBytes(m_spec.externalTypes[i], m_externalShapes[i]); }
  bool isOutput(size_t node, size_t output) const {
    return std::any_of(m_spec.outputs.begin(), m_spec.outputs.end(), [&](const ValueRef& r) {
      return r.kind == ValueRef::kNode && static_cast<size_t>(r.index) == node &&
             static_cast<size_t>(r.output) == output;
    });
  }
  const Shape& shapeOf(const ValueRef& r) const {
    if (r.kind == ValueRef::kExternal) return m_externalShapes[static_cast<size_t>(r.index)];
    if (r.kind == ValueRef::kConstant) return m_spec.constants[static_cast<size_t>(r.index)].shape();
    return m_nodeShapes[static_cast<size_t>(r.index)][static_cast<size_t>(r.output)];
  }
  const Buffer& bufferOf(const ValueRef& r) const {
    if (r.kind == ValueRef::kExternal) return m_externals[static_cast<size_t>(r.index)];
    if (r.kind == ValueRef::kConstant) return m_constants[static_cast<size_t>(r.index)];
    return m_nodeOut[static_cast<size_t>(r.index)][static_cast<size_t>(r.output)];
  }

  // Values: external inputs, constants, then node outputs; each a device-local buffer from the pool, except inputs
  // and outputs the host can write or read in place on this device. Every node is lowered for these shapes.
  Status allocateValues() {
    for (size_t i = 0; i < m_externalShapes.size(); ++i) {
      FS_ASSIGN_OR_RETURN(Buffer b, takeForHost(externalBytes(i), m_device.directInputs(), MemoryUse::kDirectIn));
      m_externals.push_back(b);
      m_c.inDirect.push_back(b.mapped);
    }
    for (const Tensor& t : m_spec.constants) {
      FS_ASSIGN_OR_RETURN(Buffer b, take(t.shape()));
      m_constants.push_back(b);
    }
    for (size_t k = 0; k < m_spec.nodes.size(); ++k) {
      const Node& node = m_spec.nodes[k];
      NodeView view{node, {}, m_spec.params[k], {m_spec.precision, m_device.cooperativeMatrix()}, m_spec.inputTypes[k]};
      view.inputShapes.assign(node.inputs.size(), Shape());
      for (size_t j = 0; j < m_spec.inputs[k].size(); ++j)
        view.inputShapes[static_cast<size_t>(m_spec.bufferInputIndex[k][j])] = shapeOf(m_spec.inputs[k][j]);
      for (size_t i = 0; i < node.inputs.size(); ++i)
        if (m_spec.params[k][i]) view.inputShapes[i] = m_spec.params[k][i]->shape();
      FS_ASSIGN_OR_RETURN(LoweredNode l, lower(view));
      countWork(k, view, l.outputShapes);
      m_nodeShapes[k] = l.outputShapes;
      for (size_t o = 0; o < l.outputShapes.size(); ++o) {
        const bool direct = m_device.directOutputs() && isOutput(k, o);
        FS_ASSIGN_OR_RETURN(Buffer b, takeForHost(floatBytes(l.outputShapes[o]), direct, MemoryUse::kDirectOut));
        m_nodeOut[k].push_back(b);
      }
      for (const Dispatch& d : l.dispatches) {
        ++m_dispatchCount;
        m_descriptorCount += d.buffers.size();
      }
      m_lowered.push_back(std::move(l));
    }
    return Status::ok();
  }

  // What the profiler charges node k with: its FLOPs, the buffers it reads (not its parameters) and writes.
  void countWork(size_t k, const NodeView& view, const std::vector<Shape>& outputs) {
    InputShapes shapes;
    int64_t in = 0, out = 0;
    for (size_t i = 0; i < view.inputShapes.size(); ++i) {
      shapes.push_back(&view.inputShapes[i]);
      if (!m_spec.params[k][i]) in += view.inputShapes[i].numElements() * 4;
    }
    for (const Shape& s : outputs) out += s.numElements() * 4;
    m_c.nodeFlops.push_back(outputs.empty() ? 0 : estimateFlops(m_spec.nodes[k], shapes, outputs[0]));
    m_c.nodeBytesIn.push_back(in);
    m_c.nodeBytesOut.push_back(out);
  }

  // Staging for the inputs and outputs the host cannot reach in place: the inputs in one host-visible buffer, the
  // outputs in another (host-cached where the device has such memory).
  Status createStaging() {
    VkDeviceSize inBytes = 0, outBytes = 0;
    for (size_t i = 0; i < m_externalShapes.size(); ++i) {
      m_c.inOffsets.push_back(inBytes);
      if (!m_c.inDirect[i]) inBytes += externalBytes(i);
    }
    for (const ValueRef& r : m_spec.outputs) {
      m_c.outDirect.push_back(r.kind == ValueRef::kNode ? bufferOf(r).mapped : nullptr);
      m_c.outOffsets.push_back(outBytes);
      m_c.outputShapes.push_back(shapeOf(r));
      if (!m_c.outDirect.back()) outBytes += floatBytes(shapeOf(r));
    }
    if (inBytes > 0) {
      FS_ASSIGN_OR_RETURN(m_c.stagingIn, m_device.createBuffer(inBytes, MemoryUse::kUpload));
    }
    if (outBytes > 0) {
      FS_ASSIGN_OR_RETURN(m_c.stagingOut, m_device.createBuffer(outBytes, MemoryUse::kDownload));
    }
    return Status::ok();
  }

  // Constants: uploaded once, now.
  Status uploadConstants() {
    if (m_spec.constants.empty()) return Status::ok();
    VkDeviceSize bytes = 0;
    for (const Tensor& t : m_spec.constants) bytes += floatBytes(t.shape());
    FS_ASSIGN_OR_RETURN(Buffer upload, m_device.createBuffer(bytes, MemoryUse::kUpload));
    std::vector<VulkanDevice::BufferCopy> copies;
    VkDeviceSize at = 0;
    for (size_t i = 0; i < m_spec.constants.size(); ++i) {
      const VkDeviceSize n = floatBytes(m_spec.constants[i].shape());
      if (n == 0) continue;
      std::memcpy(static_cast<char*>(upload.mapped) + at, m_spec.constants[i].data<float>(), n);
      copies.push_back({upload.buffer, m_constants[i].buffer, VkBufferCopy{at, 0, n}});
      at += n;
    }
    Status s = m_device.copyAndWait(copies);
    m_device.destroyBuffer(upload);
    return s;
  }

  // Descriptor sets (one per dispatch) and timestamp queries (one around each node).
  Status createPools() {
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  static_cast<uint32_t>(std::max<size_t>(m_descriptorCount, 1))};
    VkDescriptorPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    poolInfo.maxSets = static_cast<uint32_t>(std::max<size_t>(m_dispatchCount, 1));
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    if (VkResult r = vkCreateDescriptorPool(m_device.device(), &poolInfo, nullptr, &m_c.descriptors); r != VK_SUCCESS)
      return vkFail("vkCreateDescriptorPool", r);
    if (m_device.hasTimestamps()) {
      VkQueryPoolCreateInfo q{};
      q.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      q.queryType = VK_QUERY_TYPE_TIMESTAMP;
      q.queryCount = static_cast<uint32_t>(m_spec.nodes.size() + 1);
      if (vkCreateQueryPool(m_device.device(), &q, nullptr, &m_c.queries) == VK_SUCCESS) m_c.queryCount = q.queryCount;
    }
    if (m_device.timelineSemaphore()) return Status::ok();  // runs wait on the device's semaphore, not a fence
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if (VkResult r = vkCreateFence(m_device.device(), &fence, nullptr, &m_c.fence); r != VK_SUCCESS)
      return vkFail("vkCreateFence", r);
    return Status::ok();
  }

  // The command buffer of one run: upload, every node's dispatches with barriers only where needed, download.
  Status recordCommands() {
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = m_device.commandPool();
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (VkResult r = vkAllocateCommandBuffers(m_device.device(), &alloc, &m_c.commands); r != VK_SUCCESS)
      return vkFail("vkAllocateCommandBuffers", r);
    VkCommandBuffer cmd = m_c.commands;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(cmd, &begin);
    if (m_c.queries) vkCmdResetQueryPool(cmd, m_c.queries, 0, m_c.queryCount);
    for (size_t i = 0; i < m_externals.size(); ++i) {
      const VkDeviceSize n = externalBytes(i);
      if (n == 0 || m_c.inDirect[i]) continue;  // written in place: the submit makes the host's writes visible
      VkBufferCopy region{m_c.inOffsets[i], 0, n};
      vkCmdCopyBuffer(cmd, m_c.stagingIn.buffer, m_externals[i].buffer, 1, &region);
    }
    memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    if (m_c.queries) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_c.queries, 0);
    std::vector<VkBuffer> written;  // written since the last barrier
    for (size_t k = 0; k < m_spec.nodes.size(); ++k) FS_RETURN_IF_ERROR(recordNode(cmd, k, written));
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);  // outputs read in place: by the host
    for (size_t i = 0; i < m_spec.outputs.size(); ++i) {
      const VkDeviceSize n = floatBytes(m_c.outputShapes[i]);
      if (n == 0 || m_c.outDirect[i]) continue;
      VkBufferCopy region{0, m_c.outOffsets[i], n};
      vkCmdCopyBuffer(cmd, bufferOf(m_spec.outputs[i]).buffer, m_c.stagingOut.buffer, 1, &region);
    }
    memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_HOST_READ_BIT);
    if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return vkFail("vkEndCommandBuffer", r);
    return Status::ok();
  }

  Status recordNode(VkCommandBuffer cmd, size_t k, std::vector<VkBuffer>& written) {
    std::vector<const Buffer*> ins;
    for (const ValueRef& r : m_spec.inputs[k]) ins.push_back(&bufferOf(r));
    // A barrier only where this node reads a buffer an earlier node wrote since the last one.
    bool dependent = false;
    for (const Buffer* b : ins) dependent |= std::find(written.begin(), written.end(), b->buffer) != written.end();
    if (dependent) {
      memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      written.clear();
    }
    for (const Dispatch& d : m_lowered[k].dispatches) {
      if (d.barrierBefore)
        memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      FS_RETURN_IF_ERROR(recordDispatch(cmd, k, d, ins));
    }
    for (const Buffer& b : m_nodeOut[k]) written.push_back(b.buffer);
    if (m_c.queries)
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_c.queries, static_cast<uint32_t>(k + 1));
    return Status::ok();
  }

  Status recordDispatch(VkCommandBuffer cmd, size_t k, const Dispatch& d, const std::vector<const Buffer*>& ins) {
    FS_ASSIGN_OR_RETURN(const VulkanDevice::Pipeline* p, m_device.pipeline(d.shader));
    VkDescriptorSetAllocateInfo setAlloc{};
    setAlloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    setAlloc.descriptorPool = m_c.descriptors;
    setAlloc.descriptorSetCount = 1;
    setAlloc.pSetLayouts = &p->setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateDescriptorSets(m_device.device(), &setAlloc, &set); r != VK_SUCCESS)
      return vkFail("vkAllocateDescriptorSets", r);
    const std::vector<int>& bufferInputs = m_spec.bufferInputIndex[k];
    std::vector<VkDescriptorBufferInfo> infos(d.buffers.size());
    std::vector<VkWriteDescriptorSet> writes(d.buffers.size());
    for (size_t b = 0; b < d.buffers.size(); ++b) {
      const Operand& o = d.buffers[b];
      const auto input = std::find(bufferInputs.begin(), bufferInputs.end(), o.index) - bufferInputs.begin();
      const Buffer& buf = o.output ? m_nodeOut[k][static_cast<size_t>(o.index)] : *ins[static_cast<size_t>(input)];
      infos[b] = {buf.buffer, 0, VK_WHOLE_SIZE};
      writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                   nullptr,
                   set,
                   static_cast<uint32_t>(b),
                   0,
                   1,
                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                   nullptr,
                   &infos[b],
                   nullptr};
    }
    vkUpdateDescriptorSets(m_device.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 128, d.push.data());
    vkCmdDispatch(cmd, d.groups[0], d.groups[1], d.groups[2]);
    return Status::ok();
  }

  VulkanDevice& m_device;
  const ClusterSpec& m_spec;
  const std::vector<Shape>& m_externalShapes;
  Compiled& m_c;
  std::vector<Buffer> m_externals, m_constants;
  std::vector<std::vector<Buffer>> m_nodeOut;
  std::vector<std::vector<Shape>> m_nodeShapes;
  std::vector<LoweredNode> m_lowered;
  size_t m_dispatchCount = 0, m_descriptorCount = 0;
};

Expected<std::unique_ptr<ClusterProgram::Compiled>> ClusterProgram::compile(const std::vector<Shape>& externalShapes) {
  auto c = std::make_unique<Compiled>();
  c->device = m_device.get();
  FS_RETURN_IF_ERROR(Builder(*m_device, m_spec, externalShapes, *c).build());
  return c;
}

Status ClusterProgram::run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, const ExecContext* exec) {
  RunProfile* profile = exec ? exec->profile : nullptr;
  if (inputs.size() != m_spec.externalInputs)
    return internalError("Vulkan cluster " + m_spec.name + " got " + std::to_string(inputs.size()) +
                         " inputs, expected " + std::to_string(m_spec.externalInputs));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].dtype() != m_spec.externalTypes[i])
      return invalidArgument("Vulkan cluster " + m_spec.name + ": input " + std::to_string(i) + " is " +
                             std::string(dtypeName(inputs[i].dtype())) + ", expected " +
                             std::string(dtypeName(m_spec.externalTypes[i])));
  FS_ASSIGN_OR_RETURN(Compiled * c, compiled(inputs));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].numElements() > 0)
      std::memcpy(c->inDirect[i] ? c->inDirect[i] : static_cast<char*>(c->stagingIn.mapped) + c->inOffsets[i],
                  inputs[i].bytes().data(),
                  static_cast<size_t>(inputs[i].numElements()) * static_cast<size_t>(dtypeSize(inputs[i].dtype())));
  const int64_t submitted = profile ? profile->now() : 0;
  FS_RETURN_IF_ERROR(m_device->submitAndWait(c->commands, c->fence));
  outputs.clear();
  for (size_t i = 0; i < c->outputShapes.size(); ++i) {
    Tensor t = Tensor::uninitialized(DType::kFloat, c->outputShapes[i]);
    if (t.numElements() > 0)
      std::memcpy(t.data<float>(),
                  c->outDirect[i] ? c->outDirect[i] : static_cast<char*>(c->stagingOut.mapped) + c->outOffsets[i],
                  floatBytes(t.shape()));
    outputs.push_back(std::move(t));
  }
  if (profile && c->queries) {
    std::vector<uint64_t> ticks(c->queryCount);
    if (vkGetQueryPoolResults(m_device->device(), c->queries, 0, c->queryCount, ticks.size() * 8, ticks.data(), 8,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
      const double ns = m_device->timestampPeriod();
      for (size_t k = 0; k < m_spec.nodes.size(); ++k) {
        NodeEvent e;
        e.name = exec->eventPrefix + m_spec.nodes[k].name;
        e.op = m_spec.nodes[k].op;
        recordFusedFrom(e, m_spec.nodes[k], exec->eventPrefix);
        e.backend = "vulkan";
        e.startNs = submitted + static_cast<int64_t>(static_cast<double>(ticks[k] - ticks[0]) * ns);
        e.endNs = submitted + static_cast<int64_t>(static_cast<double>(ticks[k + 1] - ticks[0]) * ns);
        e.thread = profile->threadId();
        e.flops = c->nodeFlops[k];
        e.bytesIn = c->nodeBytesIn[k];
        e.bytesOut = c->nodeBytesOut[k];
        e.run = exec->run;
        e.depth = exec->callDepth;
        profile->add(std::move(e));
      }
    }
  }
  return Status::ok();
}

}  // namespace flowscope::vk
