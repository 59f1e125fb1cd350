// Pass-through and source kernels: the identity family, CheckNumerics, Const, Placeholder, NoOp.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

Status identity(KernelContext& ctx) {
  for (size_t i = 0; i < ctx.outputs.size() && i < ctx.inputs.size(); ++i) ctx.outputs[i] = ctx.inputs[i];
  return Status::ok();
}

Status checkNumerics(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  for (int64_t i = 0; isFloating(x.dtype()) && i < x.numElements(); ++i)
    if (!std::isfinite(x.elementAsDouble(i)))
      return ctx.error(attrString(ctx.node, "message", "") + " : Tensor had NaN or Inf values");
  ctx.outputs[0] = x;
  return Status::ok();
}

class ConstKernel : public OpKernel {
 public:
  explicit ConstKernel(Tensor value) : m_value(std::move(value)) {}
  Status compute(KernelContext& ctx) override {
    ctx.outputs[0] = m_value;
    return Status::ok();
  }

 private:
  Tensor m_value;
};

Expected<std::unique_ptr<OpKernel>> makeConst(const Node& node) {
  const AttrValue* value = node.attr("value");
  if (!value || value->kind() != AttrValue::Kind::kTensor || !value->tensor().isValid())
    return invalidArgument(nodeLabel(node) + "has no 'value' tensor");
  return std::unique_ptr<OpKernel>(std::make_unique<ConstKernel>(value->tensor()));
}

Status placeholder(KernelContext& ctx) {
  return ctx.error("You must feed a value for placeholder '" + ctx.node.name + "' (dtype " +
                   std::string(dtypeName(attrType(ctx.node, "dtype", DType::kInvalid))) + ")");
}

Status noOp(KernelContext&) { return Status::ok(); }

}  // namespace

void registerIdentityKernels(KernelTable& r) {
  for (const char* op : {"Identity", "Snapshot", "StopGradient", "PreventGradient", "IdentityN", "Enter", "Exit",
                         "NextIteration", "LoopCond", "PlaceholderWithDefault"})
    r.addFn(op, identity);
  r.addFn("CheckNumerics", checkNumerics);
  r.add("Const", makeConst);
  r.addFn("Placeholder", placeholder);
  r.addFn("NoOp", noOp);
  r.addFn("ControlTrigger", noOp);
}

}  // namespace flowscope
