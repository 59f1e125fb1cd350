#include "exec/cpu/fused_pair.h"

#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "exec/cpu/cpu_kernels.h"

namespace flowscope {
namespace {

constexpr size_t kBandAlignment = 64;  // a cache line: vector loads and stores that cross none

struct FreeBand {
  void operator()(float* p) const { std::free(p); }
};

}  // namespace

float* threadBandBuffer(size_t floats) {
  thread_local std::unique_ptr<float, FreeBand> buffer;
  thread_local size_t capacity = 0;
  if (capacity < floats) {
    const size_t bytes = (floats * sizeof(float) + kBandAlignment - 1) / kBandAlignment * kBandAlignment;
    buffer.reset(static_cast<float*>(std::aligned_alloc(kBandAlignment, bytes)));
    if (!buffer) throw std::bad_alloc();
    capacity = bytes / sizeof(float);
  }
  return buffer.get();
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
