// ONNX elementwise ops: arithmetic, comparison and logic with NumPy broadcasting, and the unary math and activation
// functions (PRelu's slope broadcast too). Most run as the TensorFlow kernel that computes the same thing.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/kernel_table.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

// ONNX ops with a TensorFlow twin of the same semantics (inputs and broadcasting as they are).
constexpr std::pair<const char*, const char*> kSame[] = {
    {"Add", "AddV2"},
    {"Sub", "Sub"},
    {"Mul", "Mul"},
    {"Div", "Div"},
    {"Equal", "Equal"},
    {"Less", "Less"},
    {"LessOrEqual", "LessEqual"},
    {"Greater", "Greater"},
    {"GreaterOrEqual", "GreaterEqual"},
    {"And", "LogicalAnd"},
    {"Or", "LogicalOr"},
    {"Not", "LogicalNot"},
    {"Where", "SelectV2"},
    {"Relu", "Relu"},
    {"Sigmoid", "Sigmoid"},
    {"Tanh", "Tanh"},
    {"Exp", "Exp"},
    {"Log", "Log"},
    {"Sqrt", "Sqrt"},
    {"Abs", "Abs"},
    {"Neg", "Neg"},
    {"Floor", "Floor"},
    {"Ceil", "Ceil"},
    {"Round", "Round"},
    {"Sign", "Sign"},
    {"Reciprocal", "Reciprocal"},
    {"Erf", "Erf"},
    {"Sin", "Sin"},
    {"Cos", "Cos"},
    {"Tan", "Tan"},
    {"Atan", "Atan"},
    {"Softplus", "Softplus"},
    {"Softsign", "Softsign"},
    {"IsNaN", "IsNan"},
    {"Identity", "Identity"},
};

// Pow: ONNX lets the exponent have another type than the base; TensorFlow's Pow wants one.
Expected<TfEquivalent> powMapping(const Node&) {
  TfEquivalent tf{"Pow", {}, nullptr};
  tf.adapt = [](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    const Tensor& base = ctx.inputs[0];
    const Tensor& exponent = ctx.inputs[1];
    if (base.dtype() == exponent.dtype()) return ctx.inputs;
    Tensor converted(base.dtype(), exponent.shape());
    bool ok = dispatchNumeric(base.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t i = 0; i < exponent.numElements(); ++i)
        converted.data<T>()[i] = static_cast<T>(exponent.elementAsDouble(i));
    });
    if (!ok) return invalidArgument("cannot raise " + std::string(dtypeName(base.dtype())) + " to a power");
    return std::vector<Tensor>{base, converted};
  };
  return tf;
}

// Mod: fmod=0 is the floor modulus of integers (the sign of the divisor), fmod=1 C's fmod.
Expected<TfEquivalent> modMapping(const Node& node) {
  return TfEquivalent{attrInt(node, "fmod", 0) ? "TruncateMod" : "FloorMod", {}, nullptr};
}

Expected<TfEquivalent> leakyReluMapping(const Node& node) {
  return TfEquivalent{"LeakyRelu", {{"alpha", AttrValue::fromFloat(attrFloat(node, "alpha", 0.01f))}}, nullptr};
}

// Max, Min, Sum and Mean take any number of inputs: a fold of the binary kernel.
class VariadicKernel : public OpKernel {
 public:
  VariadicKernel(std::unique_ptr<OpKernel> binary, Node tfNode, bool mean)
      : m_binary(std::move(binary)), m_node(std::move(tfNode)), m_mean(mean) {}

  Status compute(KernelContext& ctx) override {
    if (ctx.inputs.empty()) return ctx.error("needs at least one input");
    Tensor acc = ctx.inputs[0];
    for (size_t i = 1; i < ctx.inputs.size(); ++i) {
      std::vector<Tensor> in{acc, ctx.inputs[i]};
      std::vector<Tensor> out(1);
      KernelContext inner{m_node, in, out, ctx.exec};
      FS_RETURN_IF_ERROR(m_binary->compute(inner).withContext(nodeLabel(ctx.node)));
      acc = std::move(out[0]);
    }
    if (m_mean && ctx.inputs.size() > 1) {
      if (acc.dtype() != DType::kFloat) return ctx.error("Mean runs on float32");
      Tensor scaled = Tensor::uninitialized(DType::kFloat, acc.shape());
      const float k = 1.0f / static_cast<float>(ctx.inputs.size());
      for (int64_t i = 0; i < acc.numElements(); ++i) scaled.data<float>()[i] = acc.data<float>()[i] * k;
      acc = std::move(scaled);
    }
    ctx.outputs[0] = acc.shape() == ctx.inputs[0].shape() && ctx.inputs.size() == 1 ? ctx.inputs[0] : acc;
    return Status::ok();
  }

 private:
  std::unique_ptr<OpKernel> m_binary;
  Node m_node;
  bool m_mean;
};

KernelFactory variadic(const char* tfOp, bool mean) {
  return [tfOp, mean](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    Node tfNode;
    tfNode.name = node.name;
    tfNode.op = tfOp;
    FS_ASSIGN_OR_RETURN(auto binary, (*cpuKernelTable().find(tfOp))(tfNode));
    return std::unique_ptr<OpKernel>(std::make_unique<VariadicKernel>(std::move(binary), tfNode, mean));
  };
}

// `t` with float16 elements as float32, or as float16 again (`to`); other dtypes as they are.
Tensor convertHalf(const Tensor& t, DType to) {
  const DType from = to == DType::kFloat ? DType::kHalf : DType::kFloat;
  if (t.dtype() != from) return t;
  Tensor out = Tensor::uninitialized(to, t.shape());
  for (int64_t i = 0; i < t.numElements(); ++i)
    if (to == DType::kFloat)
      out.data<float>()[i] = halfToFloat(t.data<uint16_t>()[i]);
    else
      out.data<uint16_t>()[i] = floatToHalf(t.data<float>()[i]);
  return out;
}

// Runs a kernel whose TensorFlow form has no float16 (Max, Min, Mod) on float32 copies of float16 inputs, and
// narrows its float32 outputs back to float16; other inputs go straight through.
class HalfAsFloatKernel : public OpKernel {
 public:
  explicit HalfAsFloatKernel(std::unique_ptr<OpKernel> inner) : m_inner(std::move(inner)) {}

  Status compute(KernelContext& ctx) override {
    if (std::none_of(ctx.inputs.begin(), ctx.inputs.end(), [](const Tensor& t) { return t.dtype() == DType::kHalf; }))
      return m_inner->compute(ctx);
    std::vector<Tensor> wide;
    for (const Tensor& t : ctx.inputs) wide.push_back(convertHalf(t, DType::kFloat));
    std::vector<Tensor> outputs(ctx.outputs.size());
    KernelContext inner{ctx.node, wide, outputs, ctx.exec};
    FS_RETURN_IF_ERROR(m_inner->compute(inner));
    for (size_t i = 0; i < outputs.size(); ++i) ctx.outputs[i] = convertHalf(outputs[i], DType::kHalf);
    return Status::ok();
  }

 private:
  std::unique_ptr<OpKernel> m_inner;
};

KernelFactory halfAsFloat(KernelFactory inner) {
  return [inner](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    FS_ASSIGN_OR_RETURN(auto kernel, inner(node));
    return std::unique_ptr<OpKernel>(std::make_unique<HalfAsFloatKernel>(std::move(kernel)));
  };
}

// Clip: bounds from inputs 1 and 2 (opset 11 on) or the min and max attrs (before), each optional.
Status clip(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  double lo = -INFINITY, hi = INFINITY;
  if (onnxOpset(ctx.node, 13) < 11) {
    lo = attrFloat(ctx.node, "min", -INFINITY);
    hi = attrFloat(ctx.node, "max", INFINITY);
  }
  if (const Tensor* t = onnxInput(ctx, 1); t && t->numElements() == 1) lo = t->elementAsDouble(0);
  if (const Tensor* t = onnxInput(ctx, 2); t && t->numElements() == 1) hi = t->elementAsDouble(0);
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T l = std::isinf(lo) ? std::numeric_limits<T>::lowest() : static_cast<T>(lo);
    const T h = std::isinf(hi) ? std::numeric_limits<T>::max() : static_cast<T>(hi);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    parallelFor(x.numElements(), 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) o[i] = std::min(std::max(in[i], l), h);
    });
  });
  if (!ok) return ctx.error("cannot clip " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// PRelu: x where x >= 0, else slope * x; the slope broadcasts to x's shape (one way: y has x's shape).
Status prelu(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& slope = ctx.inputs[1];
  Shape shape;
  BroadcastPlan plan;
  if (!planBroadcast({x.shape(), slope.shape()}, &shape, &plan) || shape != x.shape())
    return ctx.error("slope " + slope.shape().toString() + " does not broadcast to the input's " +
                     x.shape().toString());
  if (slope.dtype() != x.dtype())
    return ctx.error("slope is " + std::string(dtypeName(slope.dtype())) + ", input " +
                     std::string(dtypeName(x.dtype())));
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>();
    const T* a = slope.data<T>();
    T* o = out.data<T>();
    forEachRunInParallel(plan, 2, [&](int64_t at, int64_t len, const int64_t* offset, const int64_t* step) {
      for (int64_t i = 0; i < len; ++i) {
        const T v = in[offset[0] + i * step[0]];
        o[at + i] = v < T(0) ? a[offset[1] + i * step[1]] * v : v;
      }
    });
  });
  if (!ok) return ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// The activations TensorFlow has no kernel for, in float32.
template <typename F>
Status floatMap(KernelContext& ctx, F&& f) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("runs on float32, got " + std::string(dtypeName(x.dtype())));
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(x.numElements(), 4, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = f(in[i]);
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status hardSigmoid(KernelContext& ctx) {
  const float a = attrFloat(ctx.node, "alpha", 0.2f), b = attrFloat(ctx.node, "beta", 0.5f);
  return floatMap(ctx, [=](float v) { return std::max(0.0f, std::min(1.0f, a * v + b)); });
}

Status hardSwish(KernelContext& ctx) {
  return floatMap(ctx, [](float v) { return v * std::max(0.0f, std::min(1.0f, v / 6.0f + 0.5f)); });
}

Status elu(KernelContext& ctx) {
  const float a = attrFloat(ctx.node, "alpha", 1.0f);
  return floatMap(ctx, [=](float v) { return v < 0 ? a * std::expm1(v) : v; });
}

Status selu(KernelContext& ctx) {
  const float a = attrFloat(ctx.node, "alpha", 1.67326319217681884765625f);
  const float g = attrFloat(ctx.node, "gamma", 1.05070102214813232421875f);
  return floatMap(ctx, [=](float v) { return v <= 0 ? g * a * std::expm1(v) : g * v; });
}

Status celu(KernelContext& ctx) {
  const float a = attrFloat(ctx.node, "alpha", 1.0f);
  return floatMap(ctx, [=](float v) { return std::max(0.0f, v) + std::min(0.0f, a * std::expm1(v / a)); });
}

Status thresholdedRelu(KernelContext& ctx) {
  const float a = attrFloat(ctx.node, "alpha", 1.0f);
  return floatMap(ctx, [=](float v) { return v > a ? v : 0.0f; });
}

Status mish(KernelContext& ctx) {
  return floatMap(ctx, [](float v) { return v * std::tanh(std::log1p(std::exp(v))); });
}

#define FS_ONNX_UNARY(name, expr)                       \
  Status name(KernelContext& ctx) {                     \
    return floatMap(ctx, [](float v) { return expr; }); \
  }
FS_ONNX_UNARY(acos, std::acos(v))
FS_ONNX_UNARY(asin, std::asin(v))
FS_ONNX_UNARY(sinh, std::sinh(v))
FS_ONNX_UNARY(cosh, std::cosh(v))
FS_ONNX_UNARY(asinh, std::asinh(v))
FS_ONNX_UNARY(acosh, std::acosh(v))
FS_ONNX_UNARY(atanh, std::atanh(v))
#undef FS_ONNX_UNARY

}  // namespace

void registerOnnxElementwiseKernels(KernelTable& r) {
  for (const auto& [onnxOp, tfOp] : kSame) r.add(onnxOpName("", onnxOp), sameAs(tfOp));
  r.add("onnx::Pow", adaptedKernel(powMapping));
  r.add("onnx::Mod", halfAsFloat(adaptedKernel(modMapping)));
  r.add("onnx::LeakyRelu", adaptedKernel(leakyReluMapping));
  r.add("onnx::Max", halfAsFloat(variadic("Maximum", false)));
  r.add("onnx::Min", halfAsFloat(variadic("Minimum", false)));
  r.add("onnx::Sum", variadic("AddV2", false));
  r.add("onnx::Mean", variadic("AddV2", true));
  r.addFn("onnx::Clip", clip);
  r.add("onnx::PRelu", withInputs(2, prelu));
  r.addFn("onnx::HardSigmoid", hardSigmoid);
  r.addFn("onnx::HardSwish", hardSwish);
  r.addFn("onnx::Elu", elu);
  r.addFn("onnx::Selu", selu);
  r.addFn("onnx::Celu", celu);
  r.addFn("onnx::ThresholdedRelu", thresholdedRelu);
  r.addFn("onnx::Mish", mish);
  r.addFn("onnx::Acos", acos);
  r.addFn("onnx::Asin", asin);
  r.addFn("onnx::Sinh", sinh);
  r.addFn("onnx::Cosh", cosh);
  r.addFn("onnx::Asinh", asinh);
  r.addFn("onnx::Acosh", acosh);
  r.addFn("onnx::Atanh", atanh);
}

}  // namespace flowscope
