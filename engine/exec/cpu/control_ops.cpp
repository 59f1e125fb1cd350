// TF1 control-flow ops. Switch and Merge are interpreted by the dataflow executor (dead tensors); their
// kernels here only exist so a plan can resolve them, and report misuse.
#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

Status interpretedByExecutor(KernelContext& ctx) {
  return ctx.error("is interpreted by the dataflow executor and cannot run on its own");
}

Status assertOp(KernelContext& ctx) {
  const Tensor& cond = ctx.inputs[0];
  if (cond.dtype() != DType::kBool || cond.numElements() != 1) return ctx.error("condition must be a bool scalar");
  if (cond.data<uint8_t>()[0]) return Status::ok();
  std::string message = "assertion failed:";
  for (size_t i = 1; i < ctx.inputs.size(); ++i)
    message += " " + (ctx.inputs[i].isStringLike() && ctx.inputs[i].numElements() == 1 ? ctx.inputs[i].strings()[0]
                                                                                       : ctx.inputs[i].preview(3));
  return invalidArgument(nodeLabel(ctx.node) + message);
}

}  // namespace

void registerControlKernels(KernelTable& r) {
  r.addFn("Switch", interpretedByExecutor);
  r.addFn("Merge", interpretedByExecutor);
  r.addFn("Assert", assertOp);
}

}  // namespace flowscope
