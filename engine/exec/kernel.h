// The kernel contract: an OpKernel is built once per node (attrs parsed then) and computed many times.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace flowscope {

class ExecContext;

/// What a kernel sees while it runs: the node, its input values and the outputs to fill.
struct KernelContext {
  const Node& node;
  std::vector<Tensor>& inputs;
  std::vector<Tensor>& outputs;  ///< sized to the node's output count before compute()
  ExecContext* exec = nullptr;   ///< resources, functions, randomness; null in plain eager calls of pure ops
  /// The FLOPs the kernel did, where its algorithm's arithmetic is not the op's (a Winograd convolution does a
  /// quarter of the direct one's): the profiler holds the kernel to the roofline for these. -1: the op's estimate.
  int64_t flops = -1;

  const Tensor& input(size_t i) const { return inputs[i]; }
  /// An InvalidArgument naming the node and op: "node 'x' (op Add): <what>".
  Status error(const std::string& what) const;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status compute(KernelContext& ctx) = 0;
};

/// Builds a kernel for a node; fails (naming the attr) when the node cannot be run as configured.
using KernelFactory = std::function<Expected<std::unique_ptr<OpKernel>>(const Node& node)>;

/// A kernel with no per-node state: a plain function of the context.
using KernelFn = Status (*)(KernelContext& ctx);
std::unique_ptr<OpKernel> makeFunctionKernel(KernelFn fn);

/// "node 'x' (op Add): " prefix for kernel messages.
std::string nodeLabel(const Node& node);

}  // namespace flowscope
