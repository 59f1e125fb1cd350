// Function-calling kernels.
#include "exec/function_call_kernels.h"

#include "exec/exec_context.h"
#include "exec/kernel_table.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

const FuncAttr* funcAttr(const Node& node, const char* name) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kFunc ? &v->func() : nullptr;
}

AttrMap bindings(const FuncAttr& f) {
  AttrMap attrs;
  for (const auto& [k, v] : f.attrs) attrs.emplace(k, v);
  return attrs;
}

Expected<std::vector<Tensor>> callFunction(KernelContext& ctx, const FuncAttr& f, std::vector<Tensor> args,
                                           AttrMap attrs) {
  if (!ctx.exec || !ctx.exec->functions) return ctx.error("calls need a function runtime");
  for (const auto& [k, v] : bindings(f)) attrs[k] = v;
  auto out = ctx.exec->functions->call(f.name, attrs, std::move(args), *ctx.exec);
  if (!out) return out.status().withContext(nodeLabel(ctx.node));
  return out;
}

Status setOutputs(KernelContext& ctx, std::vector<Tensor> values) {
  if (values.size() != ctx.outputs.size())
    return ctx.error("function returned " + std::to_string(values.size()) + " values, the node has " +
                     std::to_string(ctx.outputs.size()) + " outputs");
  for (size_t i = 0; i < values.size(); ++i) ctx.outputs[i] = std::move(values[i]);
  return Status::ok();
}

Status ifOp(KernelContext& ctx) {
  const FuncAttr* thenF = funcAttr(ctx.node, "then_branch");
  const FuncAttr* elseF = funcAttr(ctx.node, "else_branch");
  if (!thenF || !elseF) return ctx.error("needs then_branch and else_branch");
  std::vector<Tensor> args(ctx.inputs.begin() + 1, ctx.inputs.end());
  FS_ASSIGN_OR_RETURN(auto out, callFunction(ctx, tensorIsTrue(ctx.inputs[0]) ? *thenF : *elseF, std::move(args), {}));
  return setOutputs(ctx, std::move(out));
}

Status caseOp(KernelContext& ctx) {
  const AttrValue* branches = ctx.node.attr("branches");
  if (!branches || branches->kind() != AttrValue::Kind::kList || branches->list().func.empty())
    return ctx.error("needs a non-empty branches list");
  int64_t index;
  if (!scalarInt(ctx.inputs[0], &index)) return ctx.error("branch_index must be an int32 scalar");
  const auto& funcs = branches->list().func;
  if (index < 0 || index >= static_cast<int64_t>(funcs.size())) index = static_cast<int64_t>(funcs.size()) - 1;
  std::vector<Tensor> args(ctx.inputs.begin() + 1, ctx.inputs.end());
  FS_ASSIGN_OR_RETURN(auto out, callFunction(ctx, funcs[static_cast<size_t>(index)], std::move(args), {}));
  return setOutputs(ctx, std::move(out));
}

Status whileOp(KernelContext& ctx) {
  const FuncAttr* cond = funcAttr(ctx.node, "cond");
  const FuncAttr* body = funcAttr(ctx.node, "body");
  if (!cond || !body) return ctx.error("needs cond and body");
  std::vector<Tensor> vars(ctx.inputs.begin(), ctx.inputs.end());
  for (int64_t iteration = 0;; ++iteration) {
    if (ctx.exec->isCancelled()) return cancelled("run cancelled in loop '" + ctx.node.name + "'");
    if (iteration > 100000000) return ctx.error("loop ran more than 10^8 iterations");
    FS_ASSIGN_OR_RETURN(auto c, callFunction(ctx, *cond, vars, {}));
    if (c.size() != 1) return ctx.error("cond must return one value");
    if (!tensorIsTrue(c[0])) break;
    FS_ASSIGN_OR_RETURN(auto next, callFunction(ctx, *body, std::move(vars), {}));
    if (next.size() != ctx.inputs.size())
      return ctx.error("body returned " + std::to_string(next.size()) + " values for " +
                       std::to_string(ctx.inputs.size()) + " loop variables");
    vars = std::move(next);
  }
  return setOutputs(ctx, std::move(vars));
}

Status partitionedCall(KernelContext& ctx) {
  const FuncAttr* f = funcAttr(ctx.node, "f");
  if (!f) return ctx.error("needs a function attr 'f'");
  FS_ASSIGN_OR_RETURN(auto out, callFunction(ctx, *f, std::vector<Tensor>(ctx.inputs.begin(), ctx.inputs.end()), {}));
  return setOutputs(ctx, std::move(out));
}

class LibraryCallKernel : public OpKernel {
 public:
  explicit LibraryCallKernel(const Node& node) {
    m_function.name = node.op;
    for (const auto& [k, v] : node.attrs)
      if (k[0] != '_') m_attrs.emplace(k, v);
  }
  Status compute(KernelContext& ctx) override {
    FS_ASSIGN_OR_RETURN(
        auto out, callFunction(ctx, m_function, std::vector<Tensor>(ctx.inputs.begin(), ctx.inputs.end()), m_attrs));
    return setOutputs(ctx, std::move(out));
  }

 private:
  FuncAttr m_function;
  AttrMap m_attrs;
};

}  // namespace

Expected<std::unique_ptr<OpKernel>> makeLibraryCallKernel(const Node& node) {
  return std::unique_ptr<OpKernel>(std::make_unique<LibraryCallKernel>(node));
}

void registerFunctionCallKernels(KernelTable& r) {
  r.addFn("If", ifOp);
  r.addFn("StatelessIf", ifOp);
  r.addFn("While", whileOp);
  r.addFn("StatelessWhile", whileOp);
  r.addFn("Case", caseOp);
  r.addFn("StatelessCase", caseOp);
  r.addFn("PartitionedCall", partitionedCall);
  r.addFn("StatefulPartitionedCall", partitionedCall);
  r.addFn("_Arg", [](KernelContext& ctx) { return ctx.error("function argument was not fed"); });
}

}  // namespace flowscope
