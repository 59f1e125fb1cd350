// The kernel contract's helpers.
#include "exec/kernel.h"

namespace flowscope {
namespace {

class FunctionKernel : public OpKernel {
 public:
  explicit FunctionKernel(KernelFn fn) : m_fn(fn) {}
  Status compute(KernelContext& ctx) override { return m_fn(ctx); }

 private:
  KernelFn m_fn;
};

}  // namespace

std::string nodeLabel(const Node& node) { return "node '" + node.name + "' (op " + node.op + "): "; }

Status KernelContext::error(const std::string& what) const { return invalidArgument(nodeLabel(node) + what); }

std::unique_ptr<OpKernel> makeFunctionKernel(KernelFn fn) { return std::make_unique<FunctionKernel>(fn); }

}  // namespace flowscope
