// Variables: TF2 resource variables (VarHandleOp / ReadVariableOp / AssignVariableOp ...) and TF1 reference
// variables (VariableV2 / Assign), stored in the session's ResourceManager under "var:<shared name>".
#include "exec/cpu/cpu_kernels.h"
#include "exec/exec_context.h"
#include "exec/kernel_util.h"
#include "exec/model_runner.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

Status needResources(const KernelContext& ctx) {
  return ctx.exec && ctx.exec->resources ? Status::ok() : ctx.error("variables need a session");
}

Status varHandle(KernelContext& ctx) {
  ctx.outputs[0] = ResourceManager::handleTensor(variableResourceKey(ctx.node));
  return Status::ok();
}

Status readVariable(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(needResources(ctx));
  std::string handle = ResourceManager::handleOf(ctx.inputs[0]);
  Tensor value;
  if (!ctx.exec->resources->readVariable(handle, &value))
    return ctx.error("variable '" + handle.substr(4) + "' is uninitialized (no value was loaded or assigned)");
  DType want = attrType(ctx.node, "dtype", value.dtype());
  if (want != value.dtype())
    return ctx.error("variable holds " + std::string(dtypeName(value.dtype())) + ", read as " +
                     std::string(dtypeName(want)));
  ctx.outputs[0] = value;
  return Status::ok();
}

Status assignVariable(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(needResources(ctx));
  ctx.exec->resources->assignVariable(ResourceManager::handleOf(ctx.inputs[0]), ctx.inputs[1]);
  return Status::ok();
}

template <bool Add>
Status assignUpdate(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(needResources(ctx));
  std::string handle = ResourceManager::handleOf(ctx.inputs[0]);
  Tensor value;
  if (!ctx.exec->resources->readVariable(handle, &value)) return ctx.error("variable is uninitialized");
  const Tensor& delta = ctx.inputs[1];
  if (value.shape() != delta.shape() || value.dtype() != delta.dtype())
    return ctx.error("update must be " + std::string(dtypeName(value.dtype())) + " " + value.shape().toString() +
                     ", got " + std::string(dtypeName(delta.dtype())) + " " + delta.shape().toString());
  Tensor updated = value.clone();
  bool ok = dispatchNumeric(value.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>)
      for (int64_t i = 0; i < updated.numElements(); ++i)
        updated.data<T>()[i] =
            static_cast<T>(Add ? updated.data<T>()[i] + delta.data<T>()[i] : updated.data<T>()[i] - delta.data<T>()[i]);
  });
  if (!ok || value.dtype() == DType::kBool) return ctx.error("unsupported dtype");
  ctx.exec->resources->assignVariable(handle, updated);
  return Status::ok();
}

Status isInitialized(KernelContext& ctx) {
  bool initialized =
      ctx.exec && ctx.exec->resources && ctx.exec->resources->hasVariable(ResourceManager::handleOf(ctx.inputs[0]));
  ctx.outputs[0] = Tensor::scalar<uint8_t>(DType::kBool, initialized);
  return Status::ok();
}

Status noEffect(KernelContext&) { return Status::ok(); }

Status variableV2(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(needResources(ctx));
  Tensor value;
  if (!ctx.exec->resources->readVariable(variableResourceKey(ctx.node), &value))
    return ctx.error("Attempting to use uninitialized value " + ctx.node.name);
  ctx.outputs[0] = value;
  return Status::ok();
}

// Assign's ref input names the variable node; the key is fixed when the kernel is built.
class AssignKernel : public OpKernel {
 public:
  explicit AssignKernel(std::string key) : m_key(std::move(key)) {}
  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(needResources(ctx));
    ctx.exec->resources->assignVariable(m_key, ctx.inputs[1]);
    ctx.outputs[0] = ctx.inputs[1];
    return Status::ok();
  }

 private:
  std::string m_key;
};

Status applyGradientDescent(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(needResources(ctx));
  std::string handle = ResourceManager::handleOf(ctx.inputs[0]);
  Tensor var;
  if (!ctx.exec->resources->readVariable(handle, &var)) return ctx.error("variable is uninitialized");
  const Tensor& alpha = ctx.inputs[1];
  const Tensor& delta = ctx.inputs[2];
  if (var.dtype() != DType::kFloat || delta.shape() != var.shape())
    return ctx.error("expects float32 of the variable's shape");
  Tensor updated = var.clone();
  for (int64_t i = 0; i < updated.numElements(); ++i)
    updated.data<float>()[i] -= alpha.data<float>()[0] * delta.data<float>()[i];
  ctx.exec->resources->assignVariable(handle, updated);
  return Status::ok();
}

}  // namespace

void registerVariableKernels(KernelTable& r) {
  r.addFn("VarHandleOp", varHandle);
  r.addFn("ReadVariableOp", readVariable);
  r.addFn("AssignVariableOp", assignVariable);
  r.addFn("AssignAddVariableOp", assignUpdate<true>);
  r.addFn("AssignSubVariableOp", assignUpdate<false>);
  r.addFn("VarIsInitializedOp", isInitialized);
  r.addFn("DisableCopyOnRead", noEffect);
  r.addFn("DestroyResourceOp", noEffect);
  r.addFn("VariableV2", variableV2);
  r.addFn("Variable", variableV2);
  r.add("Assign", [](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    if (node.inputs.empty()) return invalidArgument(nodeLabel(node) + "needs a variable input");
    return std::unique_ptr<OpKernel>(std::make_unique<AssignKernel>("var:" + node.inputs[0].node));
  });
  r.addFn("ResourceApplyGradientDescent", applyGradientDescent);
}

}  // namespace flowscope
