// Neural-network kernels in plain C++: BiasAdd, Softmax, LogSoftmax, FusedBatchNorm (inference and training
// statistics) and LRN.
#include <cmath>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

Status biasAdd(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& bias = ctx.inputs[1];
  const bool nchw = attrString(ctx.node, "data_format", "NHWC") == "NCHW";
  const int rank = x.shape().rank();
  if (rank < 2 && !(rank == 1 && !nchw)) return ctx.error("input must have rank >= 2");
  const int channelDim = nchw ? 1 : rank - 1;
  const int64_t c = x.shape().dim(channelDim);
  if (bias.shape().rank() != 1 || bias.numElements() != c)
    return ctx.error("bias " + bias.shape().toString() + " must match the channel dim " + std::to_string(c));
  int64_t inner = 1;
  for (int k = channelDim + 1; k < rank; ++k) inner *= x.shape().dim(k);
  const int64_t outer = c ? x.numElements() / (c * inner) : 0;
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  if (!dispatchNumeric(x.dtype(),
                       [&](auto tag) {
                         using T = typename decltype(tag)::type;
                         if constexpr (!std::is_same_v<T, bool>) {
                           const T* in = x.data<T>();
                           const T* b = bias.data<T>();
                           T* o = out.data<T>();
                           if (inner == 1) {  // NHWC: a row is one value per channel
                             parallelFor(outer, c, [&](int64_t begin, int64_t end) {
                               for (int64_t a = begin; a < end; ++a)
                                 for (int64_t ch = 0; ch < c; ++ch)
                                   o[a * c + ch] = static_cast<T>(in[a * c + ch] + b[ch]);
                             });
                             return;
                           }
                           parallelFor(outer * c, inner, [&](int64_t begin, int64_t end) {  // NCHW: per plane
                             for (int64_t r = begin; r < end; ++r) {
                               const T bias = b[r % c];
                               for (int64_t i = r * inner; i < (r + 1) * inner; ++i)
                                 o[i] = static_cast<T>(in[i] + bias);
                             }
                           });
                         }
                       }) ||
      x.dtype() == DType::kBool)
    return ctx.error("unsupported dtype");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

template <bool Log>
Status softmax(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.shape().rank() < 1) return ctx.error("logits must have rank >= 1");
  const int64_t cols = x.shape().dims().back();
  const int64_t rows = cols ? x.numElements() / cols : 0;
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  if (!dispatchFloat(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        parallelFor(rows, cols * 4, [&](int64_t b, int64_t e) {
          for (int64_t r = b; r < e; ++r) {
            const T* in = x.data<T>() + r * cols;
            T* o = out.data<T>() + r * cols;
            T mx = in[0];
            for (int64_t j = 1; j < cols; ++j) mx = std::max(mx, in[j]);
            T sum = 0;
            for (int64_t j = 0; j < cols; ++j) {
              o[j] = std::exp(in[j] - mx);
              sum += o[j];
            }
            if constexpr (Log) {
              T logSum = std::log(sum);
              for (int64_t j = 0; j < cols; ++j) o[j] = in[j] - mx - logSum;
            } else {
              for (int64_t j = 0; j < cols; ++j) o[j] /= sum;
            }
          }
        });
      }))
    return ctx.error("expects floating logits");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status fusedBatchNorm(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("the CPU backend runs batch norm in float32");
  const bool nchw = attrString(ctx.node, "data_format", "NHWC") == "NCHW";
  if (x.shape().rank() != 4) return ctx.error("expects a 4-D input");
  const int64_t c = x.shape().dim(nchw ? 1 : 3);
  for (size_t i = 1; i < 5; ++i)
    if (ctx.inputs[i].dtype() != DType::kFloat) return ctx.error("scale, offset, mean and variance must be float32");
  const float eps = attrFloat(ctx.node, "epsilon", 1e-4f);
  const bool training = attrBool(ctx.node, "is_training", true);
  const int64_t inner = nchw ? x.shape().dim(2) * x.shape().dim(3) : 1;
  const int64_t n = x.numElements();
  const float* in = x.data<float>();
  std::vector<float> mean(static_cast<size_t>(c)), var(static_cast<size_t>(c));
  auto channelOf = [&](int64_t i) { return nchw ? (i / inner) % c : i % c; };
  if (training) {  // batch statistics
    std::vector<double> s(static_cast<size_t>(c), 0), s2(static_cast<size_t>(c), 0);
    for (int64_t i = 0; i < n; ++i) {
      s[static_cast<size_t>(channelOf(i))] += in[i];
      s2[static_cast<size_t>(channelOf(i))] += static_cast<double>(in[i]) * in[i];
    }
    const double count = c ? static_cast<double>(n / c) : 1;
    for (int64_t k = 0; k < c; ++k) {
      mean[static_cast<size_t>(k)] = static_cast<float>(s[static_cast<size_t>(k)] / count);
      var[static_cast<size_t>(k)] =
          static_cast<float>(s2[static_cast<size_t>(k)] / count - std::pow(s[static_cast<size_t>(k)] / count, 2));
    }
  } else {
    if (ctx.inputs[3].numElements() != c || ctx.inputs[4].numElements() != c)
      return ctx.error("mean and variance must have " + std::to_string(c) + " values in inference mode");
    std::copy_n(ctx.inputs[3].data<float>(), c, mean.begin());
    std::copy_n(ctx.inputs[4].data<float>(), c, var.begin());
  }
  if (ctx.inputs[1].numElements() != c || ctx.inputs[2].numElements() != c)
    return ctx.error("scale and offset must have " + std::to_string(c) + " values");
  std::vector<float> a(static_cast<size_t>(c)), b(static_cast<size_t>(c));
  for (int64_t k = 0; k < c; ++k) {
    a[static_cast<size_t>(k)] = ctx.inputs[1].data<float>()[k] / std::sqrt(var[static_cast<size_t>(k)] + eps);
    b[static_cast<size_t>(k)] =
        ctx.inputs[2].data<float>()[k] - mean[static_cast<size_t>(k)] * a[static_cast<size_t>(k)];
  }
  Tensor y = Tensor::uninitialized(DType::kFloat, x.shape());
  float* o = y.data<float>();
  parallelFor(n / std::max<int64_t>(c * inner, 1), c * inner, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin * c * inner; i < end * c * inner; ++i) {
      const auto k = static_cast<size_t>(channelOf(i));
      o[i] = in[i] * a[k] + b[k];
    }
  });
  ctx.outputs[0] = std::move(y);
  auto vec = [&](const std::vector<float>& v) {
    Tensor t = Tensor::uninitialized(DType::kFloat, Shape{c});
    std::copy(v.begin(), v.end(), t.data<float>());
    return t;
  };
  for (size_t k = 1; k < ctx.outputs.size(); ++k) ctx.outputs[k] = vec(k % 2 ? mean : var);
  return Status::ok();
}

Status lrn(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat || x.shape().rank() != 4) return ctx.error("expects a 4-D float32 input");
  const int64_t r = attrInt(ctx.node, "depth_radius", 5);
  const float bias = attrFloat(ctx.node, "bias", 1), alpha = attrFloat(ctx.node, "alpha", 1),
              beta = attrFloat(ctx.node, "beta", 0.5f);
  const int64_t c = x.shape().dim(3);
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  for (int64_t i = 0; i < x.numElements(); i += c)
    for (int64_t ch = 0; ch < c; ++ch) {
      float sq = 0;
      for (int64_t j = std::max<int64_t>(0, ch - r); j <= std::min(c - 1, ch + r); ++j)
        sq += x.data<float>()[i + j] * x.data<float>()[i + j];
      out.data<float>()[i + ch] = x.data<float>()[i + ch] / std::pow(bias + alpha * sq, beta);
    }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerNnKernels(KernelTable& r) {
  r.addFn("BiasAdd", biasAdd);
  r.addFn("Softmax", softmax<false>);
  r.addFn("LogSoftmax", softmax<true>);
  for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"}) r.addFn(op, fusedBatchNorm);
  r.addFn("LRN", lrn);
}

}  // namespace flowscope
