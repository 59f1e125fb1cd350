// ONNX matrix products (Gemm, MatMul), reductions, Softmax, and the normalizations (BatchNormalization at
// inference, LayerNormalization, InstanceNormalization). Products and reductions run as TensorFlow's kernels (oneDNN
// for large products).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/onnx_kernels.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

Expected<std::unique_ptr<OpKernel>> tfKernel(const std::string& op, const AttrMap& attrs, Node* node) {
  node->op = op;
  node->attrs = attrs;
  const KernelFactory* f = cpuKernelTable().find(op);
  if (!f) return internalError("no CPU kernel " + op);
  return (*f)(*node);
}

Status runTf(OpKernel& kernel, const Node& tfNode, KernelContext& ctx, std::vector<Tensor> inputs, Tensor* out) {
  std::vector<Tensor> outputs(1);
  KernelContext inner{tfNode, inputs, outputs, ctx.exec};
  Status s = kernel.compute(inner);
  if (!s.isOk()) return ctx.error(s.message());
  *out = std::move(outputs[0]);
  return Status::ok();
}

// Gemm: alpha * A' B' + beta * C, the product by TensorFlow's MatMul, C broadcast over [M, N].
class GemmKernel : public OpKernel {
 public:
  Status init(const Node& node) {
    m_alpha = attrFloat(node, "alpha", 1.0f);
    m_beta = attrFloat(node, "beta", 1.0f);
    m_node.name = node.name;
    AttrMap attrs{{"transpose_a", AttrValue::fromBool(attrInt(node, "transA", 0) != 0)},
                  {"transpose_b", AttrValue::fromBool(attrInt(node, "transB", 0) != 0)},
                  {"T", AttrValue::fromType(DType::kFloat)}};
    FS_ASSIGN_OR_RETURN(m_matmul, tfKernel("MatMul", attrs, &m_node));
    return Status::ok();
  }

  Status compute(KernelContext& ctx) override {
    if (ctx.inputs[0].dtype() != DType::kFloat) return ctx.error("runs in float32");
    Tensor y;
    FS_RETURN_IF_ERROR(runTf(*m_matmul, m_node, ctx, {ctx.inputs[0], ctx.inputs[1]}, &y));
    const int64_t m = y.shape().dim(0), n = y.shape().dim(1);
    float* o = y.data<float>();
    if (m_alpha != 1.0f)
      for (int64_t i = 0; i < m * n; ++i) o[i] *= m_alpha;
    if (const Tensor* c = onnxInput(ctx, 2); c && m_beta != 0.0f) {
      const int rank = c->shape().rank();
      const int64_t cm = rank >= 2 ? c->shape().dim(rank - 2) : 1, cn = rank >= 1 ? c->shape().dim(rank - 1) : 1;
      if (rank > 2 || (cm != 1 && cm != m) || (cn != 1 && cn != n))
        return ctx.error("C " + c->shape().toString() + " does not broadcast to [" + std::to_string(m) + ", " +
                         std::to_string(n) + "]");
      const float* cv = c->data<float>();
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) o[i * n + j] += m_beta * cv[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
    }
    ctx.outputs[0] = std::move(y);
    return Status::ok();
  }

 private:
  float m_alpha = 1, m_beta = 1;
  Node m_node;
  std::unique_ptr<OpKernel> m_matmul;
};

// MatMul: NumPy's matmul. 2-D by TensorFlow's MatMul (packed weights), batches by BatchMatMulV2, vectors as
// matrices of one row or column.
class MatMulKernel : public OpKernel {
 public:
  Status init(const Node& node) {
    m_node2.name = m_nodeBatch.name = node.name;
    FS_ASSIGN_OR_RETURN(m_matmul, tfKernel("MatMul", {}, &m_node2));
    FS_ASSIGN_OR_RETURN(m_batch, tfKernel("BatchMatMulV2", {}, &m_nodeBatch));
    return Status::ok();
  }

  Status compute(KernelContext& ctx) override {
    Tensor a = ctx.inputs[0], b = ctx.inputs[1];
    const bool aVector = a.shape().rank() == 1, bVector = b.shape().rank() == 1;
    if (aVector) a = a.reshaped(Shape{1, a.shape().dim(0)});
    if (bVector) b = b.reshaped(Shape{b.shape().dim(0), 1});
    Tensor y;
    if (a.shape().rank() == 2 && b.shape().rank() == 2)
      FS_RETURN_IF_ERROR(runTf(*m_matmul, m_node2, ctx, {a, b}, &y));
    else
      FS_RETURN_IF_ERROR(runTf(*m_batch, m_nodeBatch, ctx, {a, b}, &y));
    std::vector<int64_t> dims = y.shape().dims();
    if (bVector) dims.erase(dims.end() - 1);
    if (aVector) dims.erase(dims.end() - (bVector ? 1 : 2));
    ctx.outputs[0] = y.reshaped(Shape(dims));
    return Status::ok();
  }

 private:
  Node m_node2, m_nodeBatch;
  std::unique_ptr<OpKernel> m_matmul, m_batch;
};

// Reductions: axes from the attr, or input 1 from `axesInputFrom` on; none means all unless noop_with_empty_axes.
Expected<TfEquivalent> reduceMapping(const Node& node, const char* tfOp, int64_t axesInputFrom) {
  const bool fromInput = onnxOpset(node, 18) >= axesInputFrom;
  const std::vector<int64_t> attrAxes = attrInts(node, "axes");
  const bool noop = attrInt(node, "noop_with_empty_axes", 0) != 0;
  TfEquivalent tf{tfOp, {{"keep_dims", AttrValue::fromBool(attrInt(node, "keepdims", 1) != 0)}}, nullptr};
  tf.adapt = [=](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    std::vector<int64_t> axes = attrAxes;
    if (fromInput)
      if (const Tensor* t = onnxInput(ctx, 1)) axes = intValues(*t);
    if (axes.empty() && !noop)
      for (int i = 0; i < ctx.inputs[0].shape().rank(); ++i) axes.push_back(i);
    return std::vector<Tensor>{ctx.inputs[0], int64Vector(axes)};
  };
  return tf;
}

KernelFactory reduce(const char* tfOp, int64_t axesInputFrom) {
  return adaptedKernel([=](const Node& node) { return reduceMapping(node, tfOp, axesInputFrom); });
}

// `x` reversed along `axis` (elements moved as bytes, so any dtype): select_last_index=1 is the first index of the
// reversed tensor, counted from the end.
Tensor reversedAlong(const Tensor& x, int64_t axis) {
  const AxisSplit split = splitAt(x.shape(), axis);
  const int64_t outer = split.outer, len = split.length, inner = split.inner;
  const size_t row = static_cast<size_t>(inner) * static_cast<size_t>(dtypeSize(x.dtype()));
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const std::byte* src = x.bytes().data();
  std::byte* dst = out.mutableBytes().data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < len; ++k)
      std::memcpy(dst + static_cast<size_t>(o * len + len - 1 - k) * row, src + static_cast<size_t>(o * len + k) * row,
                  row);
  return out;
}

class ArgReduceKernel : public OpKernel {
 public:
  ArgReduceKernel(std::unique_ptr<OpKernel> inner, Node node) : m_inner(std::move(inner)), m_node(std::move(node)) {}
  Status compute(KernelContext& ctx) override {
    const Tensor& x = ctx.inputs[0];
    int64_t axis = 0;
    if (!normalizeAxis(attrInt(ctx.node, "axis", 0), x.shape().rank(), &axis)) return ctx.error("axis out of range");
    const bool last = attrInt(ctx.node, "select_last_index", 0) != 0;
    Tensor y;
    FS_RETURN_IF_ERROR(runTf(*m_inner, m_node, ctx,
                             {last ? reversedAlong(x, axis) : x, scalarOf(DType::kInt64, static_cast<double>(axis))},
                             &y));
    if (last) {
      const int64_t end = x.shape().dim(static_cast<int>(axis)) - 1;
      for (int64_t i = 0; i < y.numElements(); ++i) y.data<int64_t>()[i] = end - y.data<int64_t>()[i];
    }
    if (attrInt(ctx.node, "keepdims", 1)) {
      std::vector<int64_t> dims = x.shape().dims();
      dims[static_cast<size_t>(axis)] = 1;
      y = y.reshaped(Shape(dims));
    }
    ctx.outputs[0] = std::move(y);
    return Status::ok();
  }

 private:
  std::unique_ptr<OpKernel> m_inner;
  Node m_node;
};

KernelFactory argReduce(const char* tfOp) {
  return [tfOp](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    Node tf;
    tf.name = node.name;
    FS_ASSIGN_OR_RETURN(auto inner, tfKernel(tfOp, {{"output_type", AttrValue::fromType(DType::kInt64)}}, &tf));
    return std::unique_ptr<OpKernel>(std::make_unique<ArgReduceKernel>(std::move(inner), tf));
  };
}

template <typename K>
KernelFactory initialized() {
  return [](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    auto k = std::make_unique<K>();
    FS_RETURN_IF_ERROR(k->init(node));
    return std::unique_ptr<OpKernel>(std::move(k));
  };
}

// Softmax over one axis (opset 13), or over the axes from `axis` on as one (before 13).
template <bool Log>
Status softmax(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("runs in float32");
  const int rank = x.shape().rank();
  const bool v13 = onnxOpset(ctx.node, 13) >= 13;
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", v13 ? -1 : 1), std::max(rank, 1), &axis))
    return ctx.error("axis out of range");
  int64_t outer = 1, len = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t& part = i < axis ? outer : (i == axis || !v13) ? len : inner;
    part *= x.shape().dim(i);
  }
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(outer * inner, len * 4, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t base = (r / inner) * len * inner + r % inner;
      float mx = -INFINITY, sum = 0;
      for (int64_t i = 0; i < len; ++i) mx = std::max(mx, in[base + i * inner]);
      for (int64_t i = 0; i < len; ++i) sum += std::exp(in[base + i * inner] - mx);
      for (int64_t i = 0; i < len; ++i) {
        const float v = in[base + i * inner] - mx;
        o[base + i * inner] = Log ? v - std::log(sum) : std::exp(v) / sum;
      }
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Training mode's statistics of each channel over the batch and the spatial axes: mean and population variance, summed
// in double; and the running statistics (outputs 1 and 2) moved toward them by 1 - momentum.
void batchStatistics(KernelContext& ctx, int64_t n, int64_t c, int64_t inner, std::vector<double>& mean,
                     std::vector<double>& var) {
  const float* x = ctx.inputs[0].data<float>();
  parallelFor(c, n * inner, [&](int64_t b, int64_t e) {
    for (int64_t ch = b; ch < e; ++ch) {
      double sum = 0, squares = 0;
      for (int64_t s = 0; s < n; ++s)
        for (int64_t i = 0; i < inner; ++i) sum += x[(s * c + ch) * inner + i];
      const auto count = static_cast<double>(std::max<int64_t>(n * inner, 1));
      const double m = sum / count;
      for (int64_t s = 0; s < n; ++s)
        for (int64_t i = 0; i < inner; ++i)
          squares += (x[(s * c + ch) * inner + i] - m) * (x[(s * c + ch) * inner + i] - m);
      mean[static_cast<size_t>(ch)] = m;
      var[static_cast<size_t>(ch)] = squares / count;
    }
  });
  const double momentum = attrFloat(ctx.node, "momentum", 0.9f);
  for (size_t k = 1; k < ctx.outputs.size() && k <= 2; ++k) {
    Tensor running = Tensor::uninitialized(DType::kFloat, Shape{c});
    const std::vector<double>& batch = k == 1 ? mean : var;
    for (int64_t ch = 0; ch < c; ++ch)
      running.data<float>()[ch] = static_cast<float>(ctx.inputs[2 + k].data<float>()[ch] * momentum +
                                                     batch[static_cast<size_t>(ch)] * (1 - momentum));
    ctx.outputs[k] = std::move(running);
  }
}

// BatchNormalization: with the given mean and var (inference), or with the batch's (training_mode=1, opset 14).
Status batchNorm(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (ctx.inputs.size() < 5 || x.dtype() != DType::kFloat || x.shape().rank() < 2)
    return ctx.error("expects float32 X (N, C, ...), scale, B, mean and var");
  const float eps = attrFloat(ctx.node, "epsilon", 1e-5f);
  const int64_t n = x.shape().dim(0), c = x.shape().dim(1), inner = n * c != 0 ? x.numElements() / (n * c) : 0;
  for (size_t k = 1; k < 5; ++k)
    if (ctx.inputs[k].numElements() != c || ctx.inputs[k].dtype() != DType::kFloat)
      return ctx.error("scale, B, mean and var must be float32 with " + std::to_string(c) + " values");
  std::vector<double> mean(ctx.inputs[3].data<float>(), ctx.inputs[3].data<float>() + c),
      var(ctx.inputs[4].data<float>(), ctx.inputs[4].data<float>() + c);
  if (attrInt(ctx.node, "training_mode", 0)) batchStatistics(ctx, n, c, inner, mean, var);
  std::vector<float> mul(static_cast<size_t>(c)), add(static_cast<size_t>(c));
  for (int64_t k = 0; k < c; ++k) {
    const auto ku = static_cast<size_t>(k);
    mul[ku] = ctx.inputs[1].data<float>()[k] / std::sqrt(static_cast<float>(var[ku]) + eps);
    add[ku] = ctx.inputs[2].data<float>()[k] - static_cast<float>(mean[ku]) * mul[ku];
  }
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  parallelFor(n * c, inner, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const auto ch = static_cast<size_t>(r % c);
      const float* in = x.data<float>() + r * inner;
      float* o = out.data<float>() + r * inner;
      for (int64_t i = 0; i < inner; ++i) o[i] = in[i] * mul[ch] + add[ch];
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// The mean of in[0, len) and 1 / sqrt(its variance + eps), summed in double.
std::pair<double, float> moments(const float* in, int64_t len, float eps) {
  double mean = 0, var = 0;
  for (int64_t i = 0; i < len; ++i) mean += in[i];
  mean /= static_cast<double>(len);
  for (int64_t i = 0; i < len; ++i) var += (in[i] - mean) * (in[i] - mean);
  return {mean, static_cast<float>(1.0 / std::sqrt(var / static_cast<double>(len) + eps))};
}

Status layerNorm(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat || ctx.inputs.size() < 2) return ctx.error("expects float32 X and Scale");
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", -1), x.shape().rank(), &axis)) return ctx.error("axis out of range");
  const float eps = attrFloat(ctx.node, "epsilon", 1e-5f);
  int64_t rows = 1;
  for (int i = 0; i < axis; ++i) rows *= x.shape().dim(i);
  const int64_t len = rows ? x.numElements() / rows : 0;
  const Tensor& scale = ctx.inputs[1];
  const Tensor* bias = onnxInput(ctx, 2);
  if (scale.numElements() != len || (bias && bias->numElements() != len))
    return ctx.error("Scale and B must have " + std::to_string(len) + " values (broadcast Scale is not supported)");
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  std::vector<int64_t> statDims = x.shape().dims();  // Mean and InvStdDev: the reduced axes kept as 1
  for (size_t i = static_cast<size_t>(axis); i < statDims.size(); ++i) statDims[i] = 1;
  Tensor means = Tensor::uninitialized(DType::kFloat, Shape(statDims));
  Tensor invStd = Tensor::uninitialized(DType::kFloat, Shape(statDims));
  parallelFor(rows, len * 3, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const float* in = x.data<float>() + r * len;
      float* o = out.data<float>() + r * len;
      const auto [mean, inv] = moments(in, len, eps);
      means.data<float>()[r] = static_cast<float>(mean);
      invStd.data<float>()[r] = inv;
      for (int64_t i = 0; i < len; ++i)
        o[i] = static_cast<float>(in[i] - mean) * inv * scale.data<float>()[i] + (bias ? bias->data<float>()[i] : 0);
    }
  });
  ctx.outputs[0] = std::move(out);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(means);
  if (ctx.outputs.size() > 2) ctx.outputs[2] = std::move(invStd);
  return Status::ok();
}

// InstanceNormalization: each sample's channel plane by its own mean and variance, then the channel's scale and B.
Status instanceNorm(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (ctx.inputs.size() < 3 || x.dtype() != DType::kFloat || ctx.inputs[1].dtype() != DType::kFloat ||
      ctx.inputs[2].dtype() != DType::kFloat)
    return ctx.error("expects float32 input, scale and B");
  if (x.shape().rank() < 3) return ctx.error("expects N x C x D1 x ..., got " + x.shape().toString());
  const int64_t channels = x.shape().dim(1), planes = x.shape().dim(0) * channels;
  const int64_t len = planes ? x.numElements() / planes : 0;
  const float* scale = ctx.inputs[1].data<float>();
  const float* bias = ctx.inputs[2].data<float>();
  if (ctx.inputs[1].numElements() != channels || ctx.inputs[2].numElements() != channels)
    return ctx.error("scale and B must have " + std::to_string(channels) + " values");
  const float eps = attrFloat(ctx.node, "epsilon", 1e-5f);
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  parallelFor(planes, len * 3, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const float* in = x.data<float>() + p * len;
      float* o = out.data<float>() + p * len;
      const auto [mean, inv] = moments(in, len, eps);
      const float k = inv * scale[p % channels], shift = bias[p % channels];
      for (int64_t i = 0; i < len; ++i) o[i] = static_cast<float>(in[i] - mean) * k + shift;
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxNnKernels(KernelTable& r) {
  r.add("onnx::Gemm", initialized<GemmKernel>());
  r.add("onnx::MatMul", initialized<MatMulKernel>());
  r.add("onnx::ReduceSum", reduce("Sum", 13));
  r.add("onnx::ReduceMean", reduce("Mean", 18));
  r.add("onnx::ReduceMax", reduce("Max", 18));
  r.add("onnx::ReduceMin", reduce("Min", 18));
  r.add("onnx::ReduceProd", reduce("Prod", 18));
  r.add("onnx::ArgMax", argReduce("ArgMax"));
  r.add("onnx::ArgMin", argReduce("ArgMin"));
  r.addFn("onnx::Softmax", softmax<false>);
  r.addFn("onnx::LogSoftmax", softmax<true>);
  r.addFn("onnx::BatchNormalization", batchNorm);
  r.addFn("onnx::LayerNormalization", layerNorm);
  r.add("onnx::InstanceNormalization", withInputs(3, instanceNorm));
}

}  // namespace flowscope
