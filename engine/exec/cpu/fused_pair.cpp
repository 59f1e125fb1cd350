#include "exec/cpu/fused_pair.h"

#include <vector>

#include "base/growing_buffer.h"
#include "exec/cpu/cpu_kernels.h"

namespace flowscope {

float* threadBandBuffer(size_t floats, size_t slot) {
  thread_local GrowingBuffer buffers[kThreadBandBuffers];
  return reinterpret_cast<float*>(buffers[slot].atLeast(floats * sizeof(float)));
}

Status KernelPair::make(const Node& first, const Node& second) {
  m_first = first;
  m_second = second;
  for (const Node* node : {&m_first, &m_second}) {
    const KernelFactory* factory = cpuKernelTable().find(node->op);
    if (!factory) return unimplemented(nodeLabel(*node) + "no CPU kernel");
    FS_ASSIGN_OR_RETURN(auto kernel, (*factory)(*node));
    (node == &m_first ? m_firstKernel : m_secondKernel) = std::move(kernel);
  }
  return Status::ok();
}

void KernelPair::adopt(const Node& first, const Node& second, std::unique_ptr<OpKernel> a,
                       std::unique_ptr<OpKernel> b) {
  m_first = first;
  m_second = second;
  m_firstKernel = std::move(a);
  m_secondKernel = std::move(b);
}

Status KernelPair::run(KernelContext& ctx, size_t firstArity) {
  std::vector<Tensor> firstInputs(ctx.inputs.begin(), ctx.inputs.begin() + static_cast<ptrdiff_t>(firstArity));
  std::vector<Tensor> middle(1);
  KernelContext first{m_first, firstInputs, middle, ctx.exec};
  FS_RETURN_IF_ERROR(m_firstKernel->compute(first));
  std::vector<Tensor> secondInputs{middle[0]};
  secondInputs.insert(secondInputs.end(), ctx.inputs.begin() + static_cast<ptrdiff_t>(firstArity), ctx.inputs.end());
  KernelContext second{m_second, secondInputs, ctx.outputs, ctx.exec};
  return m_secondKernel->compute(second);
}

}  // namespace flowscope
