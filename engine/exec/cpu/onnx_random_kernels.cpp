// ONNX's random generators: RandomNormal and RandomUniform (shape from the attr), their *Like forms (shape, and dtype
// unless the attr gives one, from the input), Bernoulli, Multinomial, and Dropout (random in training mode). They draw
// from Philox streams as TensorFlow's random kernels do; a node with a seed attr draws the same values on every run.
// The values are not NumPy's, so ONNX's node tests of these ops, whose answers are NumPy's draws, cannot match;
// tst_onnx_kernel_errors checks the distributions instead.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/random_fill.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"

namespace flowscope {
namespace {

// The node's stream: keyed by its seed attr (a float; Dropout's is an int) when it has one, else the run's.
Philox generatorFor(KernelContext& ctx) {
  const AttrValue* seed = ctx.node.attr("seed");
  if (seed && seed->kind() == AttrValue::Kind::kInt) return Philox(static_cast<uint64_t>(seed->i()), 0);
  if (!seed || seed->kind() != AttrValue::Kind::kFloat) return unseededGenerator(ctx);
  const float value = seed->f();
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return Philox(bits, 0);
}

// The dtype attr, or `fallback` where the node has none.
Expected<DType> dtypeOr(const Node& node, DType fallback) {
  return node.attr("dtype") ? onnxDTypeAttr(node, "dtype") : Expected<DType>(fallback);
}

// low + (high - low) * U[0, 1) or mean + scale * N(0, 1) for RandomUniform*/RandomNormal*, float32 or float64.
template <RandomKind Kind>
Status drawInto(KernelContext& ctx, DType dtype, const std::vector<int64_t>& dims) {
  if (dtype != DType::kFloat && dtype != DType::kDouble)
    return ctx.error("draws float32 or float64, not " + std::string(dtypeName(dtype)));
  auto shape = randomShape(dims, dtype);
  if (!shape) return ctx.error(shape.status().message());
  const bool uniform = Kind == RandomKind::kUniform;
  const double offset = attrFloat(ctx.node, uniform ? "low" : "mean", 0);
  const double spread = uniform ? attrFloat(ctx.node, "high", 1) - offset : attrFloat(ctx.node, "scale", 1);
  Tensor out = Tensor::uninitialized(dtype, *shape);
  Philox gen = generatorFor(ctx);
  dispatchFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      T* values = out.data<T>();
      fillRandom<Kind>(gen, values, out.numElements());
      for (int64_t i = 0; i < out.numElements(); ++i) values[i] = static_cast<T>(offset + spread * values[i]);
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

template <RandomKind Kind>
Status randomFromAttrs(KernelContext& ctx) {
  auto dtype = dtypeOr(ctx.node, DType::kFloat);
  if (!dtype) return ctx.error(dtype.status().message());
  if (!ctx.node.attr("shape")) return ctx.error("needs a shape attr");
  return drawInto<Kind>(ctx, *dtype, attrInts(ctx.node, "shape"));
}

template <RandomKind Kind>
Status randomLike(KernelContext& ctx) {
  auto dtype = dtypeOr(ctx.node, ctx.inputs[0].dtype());
  if (!dtype) return ctx.error(dtype.status().message());
  return drawInto<Kind>(ctx, *dtype, ctx.inputs[0].shape().dims());
}

// Bernoulli: 1 where a uniform draw falls below the input's probability, else 0, in the dtype attr or the input's.
Status bernoulli(KernelContext& ctx) {
  const Tensor& p = ctx.inputs[0];
  if (p.dtype() != DType::kFloat && p.dtype() != DType::kDouble)
    return ctx.error("expects float32 or float64 probabilities, got " + std::string(dtypeName(p.dtype())));
  auto dtype = dtypeOr(ctx.node, p.dtype());
  if (!dtype) return ctx.error(dtype.status().message());
  std::vector<double> draws(static_cast<size_t>(p.numElements()));
  Philox gen = generatorFor(ctx);
  fillRandom<RandomKind::kUniform>(gen, draws.data(), p.numElements());
  Tensor out(*dtype, p.shape());
  const bool ok = dispatchNumeric(*dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < p.numElements(); ++i)
      out.data<T>()[i] = static_cast<T>(draws[static_cast<size_t>(i)] < p.elementAsDouble(i) ? 1 : 0);
  });
  if (!ok) return ctx.error("cannot write " + std::string(dtypeName(*dtype)) + " outcomes");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Multinomial: sample_size class indices per row of [batch, classes] unnormalized log-probabilities.
Status multinomial(KernelContext& ctx) {
  const Tensor& logits = ctx.inputs[0];
  if (logits.shape().rank() != 2 || (logits.dtype() != DType::kFloat && logits.dtype() != DType::kDouble))
    return ctx.error("expects float32 or float64 log-probabilities [batch, classes], got " +
                     std::string(dtypeName(logits.dtype())) + " " + logits.shape().toString());
  auto dtype = dtypeOr(ctx.node, DType::kInt32);
  if (!dtype || (*dtype != DType::kInt32 && *dtype != DType::kInt64))
    return ctx.error("writes int32 or int64 class indices");
  const int64_t batch = logits.shape().dim(0), classes = logits.shape().dim(1);
  const int64_t samples = attrInt(ctx.node, "sample_size", 1);
  auto shape = randomShape({batch, samples}, *dtype);
  if (!shape || classes < 1) return ctx.error(shape ? "needs at least one class" : shape.status().message());
  Tensor out(*dtype, *shape);
  Philox gen = generatorFor(ctx);
  std::vector<double> cumulative(static_cast<size_t>(classes)), draws(static_cast<size_t>(samples));
  for (int64_t b = 0; b < batch; ++b) {
    double top = -std::numeric_limits<double>::infinity(), total = 0;
    for (int64_t c = 0; c < classes; ++c) top = std::max(top, logits.elementAsDouble(b * classes + c));
    for (int64_t c = 0; c < classes; ++c)
      cumulative[static_cast<size_t>(c)] = total += std::exp(logits.elementAsDouble(b * classes + c) - top);
    if (!(total > 0) || !std::isfinite(total)) return ctx.error("row " + std::to_string(b) + " has no finite weight");
    fillRandom<RandomKind::kUniform>(gen, draws.data(), samples);
    for (int64_t s = 0; s < samples; ++s) {
      const auto hit = std::upper_bound(cumulative.begin(), cumulative.end(), draws[static_cast<size_t>(s)] * total);
      const int64_t c = std::min<int64_t>(hit - cumulative.begin(), classes - 1);
      if (*dtype == DType::kInt32)
        out.data<int32_t>()[b * samples + s] = static_cast<int32_t>(c);
      else
        out.data<int64_t>()[b * samples + s] = c;
    }
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Dropout: at inference (no training_mode, or false, or a ratio of 0) the input and a mask of ones; in training each
// element is kept with probability 1 - ratio and scaled by 1 / (1 - ratio), the mask telling which were kept.
Status dropout(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor *ratioInput = onnxInput(ctx, 1), *trainingInput = onnxInput(ctx, 2);
  const bool training = trainingInput && trainingInput->numElements() == 1 && trainingInput->elementAsDouble(0) != 0;
  const double ratio = ratioInput && ratioInput->numElements() == 1 ? ratioInput->elementAsDouble(0) : 0.5;
  Tensor mask(DType::kBool, x.shape());
  if (!training || ratio == 0) {
    ctx.outputs[0] = x;
    std::fill_n(mask.data<uint8_t>(), mask.numElements(), uint8_t{1});
  } else {
    if (!(ratio > 0 && ratio < 1)) return ctx.error("needs a ratio in [0, 1), got " + std::to_string(ratio));
    if (x.dtype() != DType::kFloat && x.dtype() != DType::kDouble)
      return ctx.error("training-mode dropout runs on float32 and float64, not " + std::string(dtypeName(x.dtype())));
    std::vector<float> draws(static_cast<size_t>(x.numElements()));
    Philox gen = generatorFor(ctx);
    fillRandom<RandomKind::kUniform>(gen, draws.data(), x.numElements());
    Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
    const double scale = 1 / (1 - ratio);
    dispatchFloat(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        for (int64_t i = 0; i < x.numElements(); ++i) {
          const bool keep = draws[static_cast<size_t>(i)] >= ratio;
          mask.data<uint8_t>()[i] = keep;
          out.data<T>()[i] = keep ? static_cast<T>(x.data<T>()[i] * scale) : T(0);
        }
    });
    ctx.outputs[0] = std::move(out);
  }
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(mask);
  return Status::ok();
}

}  // namespace

void registerOnnxRandomKernels(KernelTable& r) {
  r.add("onnx::Dropout", withInputs(1, dropout));
  r.add("onnx::RandomUniform", withInputs(0, randomFromAttrs<RandomKind::kUniform>));
  r.add("onnx::RandomNormal", withInputs(0, randomFromAttrs<RandomKind::kNormal>));
  r.add("onnx::RandomUniformLike", withInputs(1, randomLike<RandomKind::kUniform>));
  r.add("onnx::RandomNormalLike", withInputs(1, randomLike<RandomKind::kNormal>));
  r.add("onnx::Bernoulli", withInputs(1, bernoulli));
  r.add("onnx::Multinomial", withInputs(1, multinomial));
}

}  // namespace flowscope
