// ONNX's classification losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (the log-softmax over the class
// axis, then the same loss), with per-class weights, ignore_index and the none, sum and mean reductions (mean divides
// by the weights of the targets that count). Training graphs carry them; the expanded function bodies run too.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// x [N, C, d...] of log-probabilities, targets [N, d...]: each target's -x * weight, reduced.
template <typename T>
Expected<Tensor> nllLoss(const Node& node, const T* x, const Shape& shape, DType dtype, const Tensor& targets,
                         const Tensor* weights) {
  const int64_t batch = shape.dim(0), classes = shape.dim(1);
  const int64_t inner = batch * classes > 0 ? shape.numElements() / (batch * classes) : 0;
  if ((targets.dtype() != DType::kInt64 && targets.dtype() != DType::kInt32) || (weights && weights->dtype() != dtype))
    return invalidArgument("expects int32 or int64 targets and a weight of the input's dtype");
  if (targets.numElements() != batch * inner || (weights && weights->numElements() != classes))
    return invalidArgument("target " + targets.shape().toString() + " or weight do not match input " +
                           shape.toString());
  const bool ignoring = node.attr("ignore_index") != nullptr;
  const int64_t ignored = attrInt(node, "ignore_index", 0);
  const std::string reduction = attrString(node, "reduction", "mean");
  Tensor losses(dtype, targets.shape());
  double sum = 0, weightSum = 0;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t i = 0; i < inner; ++i) {
      const auto target = static_cast<int64_t>(targets.elementAsDouble(n * inner + i));
      if (ignoring && target == ignored) continue;
      if (target < 0 || target >= classes)
        return invalidArgument("target " + std::to_string(target) + " is not a class");
      const double w = weights ? static_cast<double>(weights->data<T>()[target]) : 1.0;
      const double loss = -static_cast<double>(x[(n * classes + target) * inner + i]) * w;
      losses.data<T>()[n * inner + i] = static_cast<T>(loss);
      sum += loss;
      weightSum += w;
    }
  if (reduction == "none") return losses;
  if (reduction != "sum" && reduction != "mean") return invalidArgument("reduction '" + reduction + "' is unknown");
  Tensor out(dtype, Shape{});
  *out.data<T>() = static_cast<T>(reduction == "sum" ? sum : sum / weightSum);
  return out;
}

Status negativeLogLikelihoodLoss(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.shape().rank() < 2) return ctx.error("expects an input [N, C, ...], got " + x.shape().toString());
  Status status;
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto loss = nllLoss<T>(ctx.node, x.data<T>(), x.shape(), x.dtype(), ctx.inputs[1], onnxInput(ctx, 2));
    if (loss) ctx.outputs[0] = std::move(*loss);
    status = loss ? Status::ok() : ctx.error(loss.status().message());
  });
  return ok ? status : ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
}

Status softmaxCrossEntropyLoss(KernelContext& ctx) {
  const Tensor& scores = ctx.inputs[0];
  if (scores.shape().rank() < 2) return ctx.error("expects scores [N, C, ...], got " + scores.shape().toString());
  const int64_t batch = scores.shape().dim(0), classes = scores.shape().dim(1);
  const int64_t inner = batch * classes > 0 ? scores.numElements() / (batch * classes) : 0;
  Status status;
  const bool ok = dispatchFloat(scores.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor logProb = Tensor::uninitialized(scores.dtype(), scores.shape());
    const T* s = scores.data<T>();
    T* lp = logProb.data<T>();
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t first = n * classes * inner + i;
        double top = -std::numeric_limits<double>::infinity(), sum = 0;
        for (int64_t c = 0; c < classes; ++c) top = std::max(top, static_cast<double>(s[first + c * inner]));
        for (int64_t c = 0; c < classes; ++c) sum += std::exp(static_cast<double>(s[first + c * inner]) - top);
        for (int64_t c = 0; c < classes; ++c)
          lp[first + c * inner] = static_cast<T>(static_cast<double>(s[first + c * inner]) - top - std::log(sum));
      }
    auto loss = nllLoss<T>(ctx.node, lp, scores.shape(), scores.dtype(), ctx.inputs[1], onnxInput(ctx, 2));
    status = loss ? Status::ok() : ctx.error(loss.status().message());
    if (!loss) return;
    ctx.outputs[0] = std::move(*loss);
    if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(logProb);
  });
  return ok ? status : ctx.error("runs on float32 and float64, got " + std::string(dtypeName(scores.dtype())));
}

}  // namespace

void registerOnnxLossKernels(KernelTable& r) {
  r.add("onnx::NegativeLogLikelihoodLoss", withInputs(2, negativeLogLikelihoodLoss));
  r.add("onnx::SoftmaxCrossEntropyLoss", withInputs(2, softmaxCrossEntropyLoss));
}

}  // namespace flowscope
