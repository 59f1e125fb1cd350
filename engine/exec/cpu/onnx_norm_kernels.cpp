// ONNX's local normalizations: LRN (across channels, as AlexNet and GoogLeNet use it) and MeanVarianceNormalization
// (to zero mean and unit variance over the given axes).
#include <cmath>

#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/strided_copy.h"

namespace flowscope {
namespace {

// LRN: x / (bias + alpha / size * the sum of squares over the `size` channels around it) ^ beta, on N x C x ...
Status lrn(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat || x.shape().rank() < 3)
    return ctx.error("expects a float32 N x C x D1 x ... input, got " + x.shape().toString());
  const int64_t size = attrInt(ctx.node, "size", 0);
  if (size <= 0) return ctx.error("size must be positive");
  const double alpha = attrFloat(ctx.node, "alpha", 1e-4f), beta = attrFloat(ctx.node, "beta", 0.75f);
  const double bias = attrFloat(ctx.node, "bias", 1.0f);
  const int64_t channels = x.shape().dim(1), batch = x.shape().dim(0);
  const int64_t plane = channels * batch > 0 ? x.numElements() / (channels * batch) : 0;
  const int64_t below = (size - 1) / 2, above = size - 1 - below;
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  const float* in = x.data<float>();
  parallelFor(batch * channels, plane * size * 2, [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; ++nc) {
      const int64_t n = nc / channels, c = nc % channels;
      const int64_t from = std::max<int64_t>(0, c - below), to = std::min(channels - 1, c + above);
      for (int64_t i = 0; i < plane; ++i) {
        double sum = 0;
        for (int64_t k = from; k <= to; ++k) {
          const double v = in[(n * channels + k) * plane + i];
          sum += v * v;
        }
        const double v = in[nc * plane + i];
        out.data<float>()[nc * plane + i] = static_cast<float>(v / std::pow(bias + alpha / size * sum, beta));
      }
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// MeanVarianceNormalization: (x - mean) / (sqrt(variance) + 1e-9) over `axes` (default N, H, W), as ONNX's function
// body defines it. The normalized axes are moved last by a strided copy and moved back after.
Status meanVarianceNormalization(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat) return ctx.error("runs in float32, got " + std::string(dtypeName(x.dtype())));
  const int rank = x.shape().rank();
  std::vector<int64_t> axes = attrInts(ctx.node, "axes");
  if (axes.empty()) axes = {0, 2, 3};
  std::vector<bool> normalized(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t axis = 0;
    if (!normalizeAxis(a, rank, &axis)) return ctx.error("axis " + std::to_string(a) + " is out of range");
    normalized[static_cast<size_t>(axis)] = true;
  }
  const std::vector<int64_t> strides = stridesOf(x.shape());
  std::vector<int64_t> order, dims, from;  // the kept axes, then the normalized ones
  int64_t length = 1;
  for (bool last : {false, true})
    for (int i = 0; i < rank; ++i)
      if (normalized[static_cast<size_t>(i)] == last) {
        order.push_back(i);
        dims.push_back(x.shape().dim(i));
        from.push_back(strides[static_cast<size_t>(i)]);
        if (last) length *= x.shape().dim(i);
      }
  std::vector<float> rows(static_cast<size_t>(x.numElements()));
  if (!rows.empty()) stridedCopy(x.data<float>(), 0, from, dims, rows.data());
  const int64_t count = length ? x.numElements() / length : 0;
  for (int64_t r = 0; r < count; ++r) {
    float* row = rows.data() + r * length;
    double mean = 0, var = 0;
    for (int64_t i = 0; i < length; ++i) mean += row[i];
    mean /= static_cast<double>(length);
    for (int64_t i = 0; i < length; ++i) var += (row[i] - mean) * (row[i] - mean);
    const double inv = 1.0 / (std::sqrt(var / static_cast<double>(length)) + 1e-9);
    for (int64_t i = 0; i < length; ++i) row[i] = static_cast<float>((row[i] - mean) * inv);
  }
  std::vector<int64_t> back(static_cast<size_t>(rank));  // the rows' strides in the input's axis order
  int64_t stride = 1;
  for (int k = rank - 1; k >= 0; --k) {
    back[static_cast<size_t>(order[static_cast<size_t>(k)])] = stride;
    stride *= dims[static_cast<size_t>(k)];
  }
  Tensor out = Tensor::uninitialized(DType::kFloat, x.shape());
  if (!rows.empty()) stridedCopy(rows.data(), 0, back, x.shape().dims(), out.data<float>());
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxNormKernels(KernelTable& r) {
  r.add("onnx::LRN", withInputs(1, lrn));
  r.add("onnx::MeanVarianceNormalization", withInputs(1, meanVarianceNormalization));
}

}  // namespace flowscope
