// Two nodes of a placed graph that one CPU kernel runs as one (pointwise_depthwise.h, depthwise_pointwise.h,
// conv_max_pool.h). Where the fused kernel cannot take a case, the two nodes' own kernels run it one after the other,
// so their errors name the
// node they are about.
#pragma once

#include <memory>

#include "exec/kernel.h"

namespace flowscope {

/// The calling thread's buffer `slot` for a fused kernel's bands of rows, grown to `floats` and aligned to a cache line
/// (one per thread: the fused kernels of a thread run one at a time). A vector of floats aligned to 16 bytes made
/// every 64-byte load of our depthwise kernel cross two lines: 1.4-1.6x its time.
float* threadBandBuffer(size_t floats, size_t slot = 0);

/// How many buffers a thread has (a kernel of row_chain.h uses two).
inline constexpr size_t kThreadBandBuffers = 2;

class KernelPair {
 public:
  /// Makes the CPU kernels of `first` and `second`; an error naming the node that has none.
  Status make(const Node& first, const Node& second);
  /// Takes kernels already made for `first` and `second`.
  void adopt(const Node& first, const Node& second, std::unique_ptr<OpKernel> a, std::unique_ptr<OpKernel> b);
  OpKernel* firstKernel() const { return m_firstKernel.get(); }
  OpKernel* secondKernel() const { return m_secondKernel.get(); }
  /// `first` on ctx.inputs [0, firstArity), then `second` on first's output and the inputs after those.
  Status run(KernelContext& ctx, size_t firstArity);

 private:
  Node m_first, m_second;
  std::unique_ptr<OpKernel> m_firstKernel, m_secondKernel;
};

}  // namespace flowscope
