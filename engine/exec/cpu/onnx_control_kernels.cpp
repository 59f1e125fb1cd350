// ONNX control flow: If (TensorFlow's If kernel: the branches take the captured outer values as arguments) and Loop
// (the body called through the run's function runtime; scan outputs stacked along a new first axis).
#include <limits>

#include "exec/cpu/onnx_kernels.h"
#include "exec/exec_context.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

Status loop(KernelContext& ctx) {
  const AttrValue* body = ctx.node.attr("body");
  if (!body || body->kind() != AttrValue::Kind::kFunc) return ctx.error("needs a body");
  if (!ctx.exec || !ctx.exec->functions) return ctx.error("needs a function runtime");
  const size_t captures = onnxCaptureCount(ctx.node);
  const std::vector<int> positions = onnxFormalPositions(ctx.node);
  int64_t limit = std::numeric_limits<int64_t>::max();
  bool cond = true;
  std::vector<Tensor> vars, outer(ctx.inputs.end() - static_cast<std::ptrdiff_t>(captures), ctx.inputs.end());
  for (size_t k = 0; k < positions.size(); ++k) {
    if (positions[k] == 0 && !scalarInt(ctx.inputs[k], &limit)) return ctx.error("M must be an int64 scalar");
    if (positions[k] == 1) cond = tensorIsTrue(ctx.inputs[k]);
    if (positions[k] >= 2) vars.push_back(ctx.inputs[k]);
  }
  const size_t carried = vars.size();
  if (ctx.outputs.size() < carried) return ctx.error("has fewer outputs than loop-carried values");
  std::vector<std::vector<Tensor>> scans(ctx.outputs.size() - carried);
  for (int64_t i = 0; i < limit && cond; ++i) {
    if (ctx.exec->isCancelled()) return cancelled("run cancelled in loop '" + ctx.node.name + "'");
    std::vector<Tensor> args{scalarOf(DType::kInt64, static_cast<double>(i)), scalarOf(DType::kBool, cond)};
    args.insert(args.end(), vars.begin(), vars.end());
    args.insert(args.end(), outer.begin(), outer.end());
    auto out = ctx.exec->functions->call(body->func().name, {}, std::move(args), *ctx.exec);
    if (!out) return out.status().withContext(nodeLabel(ctx.node));
    if (out->size() != 1 + carried + scans.size())
      return ctx.error("body returned " + std::to_string(out->size()) + " values, expected " +
                       std::to_string(1 + carried + scans.size()));
    cond = tensorIsTrue((*out)[0]);
    for (size_t k = 0; k < carried; ++k) vars[k] = std::move((*out)[1 + k]);
    for (size_t k = 0; k < scans.size(); ++k) scans[k].push_back(std::move((*out)[1 + carried + k]));
  }
  for (size_t k = 0; k < carried; ++k) ctx.outputs[k] = vars[k];
  for (size_t k = 0; k < scans.size(); ++k) {
    FS_ASSIGN_OR_RETURN(Tensor stacked, stackIterations(ctx, scans[k], 0, k));
    ctx.outputs[carried + k] = std::move(stacked);
  }
  return Status::ok();
}

}  // namespace

void registerOnnxControlKernels(KernelTable& r) {
  r.add("onnx::If", sameAs("If"));
  r.addFn("onnx::Loop", loop);
}

}  // namespace flowscope
