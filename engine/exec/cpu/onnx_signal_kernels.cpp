// ONNX's signal windows (opset 17): HannWindow, HammingWindow and BlackmanWindow of a given size, periodic (the
// default, for spectral analysis) or symmetric, in the output_datatype asked for (float32 by default); and
// MelWeightMatrix, the triangular filters that turn a power spectrum into mel bands.
#include <algorithm>
#include <cmath>
#include <vector>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"

namespace flowscope {
namespace {

// The output_datatype attr (float32 when absent).
Expected<DType> outputDType(const KernelContext& ctx) {
  if (!ctx.node.attr("output_datatype")) return DType::kFloat;
  auto dtype = onnxDTypeAttr(ctx.node, "output_datatype");
  if (!dtype) return ctx.error(dtype.status().message());
  return dtype;
}

// Cosine-sum windows: w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic) or size - 1.
template <int Kind>
Status cosineWindow(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(const DType dtype, outputDType(ctx));
  constexpr double kA0[] = {0.5, 25.0 / 46.0, 0.42}, kA1[] = {0.5, 21.0 / 46.0, 0.5}, kA2[] = {0, 0, 0.08};
  if (ctx.inputs[0].numElements() != 1) return ctx.error("size must be a scalar");
  const int64_t size = intValues(ctx.inputs[0])[0];
  if (size < 0) return ctx.error("size is negative");
  if (auto bytes = Tensor::checkedByteSize(DType::kDouble, Shape{size}, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  const double period = static_cast<double>(attrInt(ctx.node, "periodic", 1) ? size : size - 1);
  Tensor out(dtype, Shape{size});
  const bool ok = dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t n = 0; n < size; ++n) {
      const double phase = period > 0 ? 2 * M_PI * static_cast<double>(n) / period : 0;
      out.data<T>()[n] = static_cast<T>(kA0[Kind] - kA1[Kind] * std::cos(phase) + kA2[Kind] * std::cos(2 * phase));
    }
  });
  if (!ok) return ctx.error("cannot make a " + std::string(dtypeName(dtype)) + " window");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// The filters' edges: num_mel_bins + 2 points evenly spaced in mel (2595 log10(1 + f / 700)) from lower_edge_hertz,
// as spectrum bins of a dft_length transform at sample_rate. The spacing divides by the number of points, as ONNX's
// definition and ONNX Runtime do.
Expected<std::vector<int64_t>> melEdges(const KernelContext& ctx, int64_t mels, int64_t dftLength) {
  const double rate = ctx.inputs[2].elementAsDouble(0), low = ctx.inputs[3].elementAsDouble(0),
               high = ctx.inputs[4].elementAsDouble(0);
  if (rate <= 0 || low < 0 || high < low || high > rate / 2)
    return ctx.error("needs 0 <= lower_edge_hertz <= upper_edge_hertz <= sample_rate / 2 (the Nyquist frequency)");
  auto mel = [](double hertz) { return 2595.0 * std::log10(1.0 + hertz / 700.0); };
  const double lowMel = mel(low), step = (mel(high) - lowMel) / static_cast<double>(mels + 2);
  std::vector<int64_t> edges;
  for (int64_t i = 0; i < mels + 2; ++i) {
    const double hertz = 700.0 * (std::pow(10.0, (static_cast<double>(i) * step + lowMel) / 2595.0) - 1.0);
    edges.push_back(static_cast<int64_t>(std::floor(static_cast<double>(dftLength + 1) * hertz / rate)));
  }
  if (edges[static_cast<size_t>(mels)] > dftLength / 2 || edges.back() > dftLength / 2 + 1)
    return ctx.error("upper_edge_hertz falls past the last bin of a " + std::to_string(dftLength) + "-point spectrum");
  return edges;
}

// MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins], column i rising from edge i to 1 at edge i + 1 and falling to
// edge i + 2.
Status melWeightMatrix(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(const DType dtype, outputDType(ctx));
  for (size_t i = 0; i < 5; ++i)
    if (ctx.inputs[i].numElements() != 1) return ctx.error("takes five scalars");
  const int64_t mels = intValues(ctx.inputs[0])[0], dftLength = intValues(ctx.inputs[1])[0], bins = dftLength / 2 + 1;
  if (mels < 1 || dftLength < 1) return ctx.error("num_mel_bins and dft_length must be positive");
  if (auto bytes = Tensor::checkedByteSize(DType::kDouble, Shape{bins, mels}, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  FS_ASSIGN_OR_RETURN(const std::vector<int64_t> edges, melEdges(ctx, mels, dftLength));
  std::vector<double> weights(static_cast<size_t>(bins * mels), 0.0);
  auto at = [&](int64_t bin, int64_t mel) -> double& { return weights[static_cast<size_t>(bin * mels + mel)]; };
  for (int64_t i = 0; i < mels; ++i) {
    const int64_t left = edges[static_cast<size_t>(i)], center = edges[static_cast<size_t>(i) + 1],
                  right = edges[static_cast<size_t>(i) + 2];
    if (center == left) at(center, i) = 1;
    for (int64_t j = left; center > left && j <= center; ++j)
      at(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
    for (int64_t j = center; j < right; ++j)
      at(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  Tensor out(dtype, Shape{bins, mels});
  const bool ok = dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::transform(weights.begin(), weights.end(), out.data<T>(), [](double w) { return static_cast<T>(w); });
  });
  if (!ok) return ctx.error("cannot make a " + std::string(dtypeName(dtype)) + " matrix");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxSignalKernels(KernelTable& r) {
  r.add("onnx::HannWindow", withInputs(1, cosineWindow<0>));
  r.add("onnx::HammingWindow", withInputs(1, cosineWindow<1>));
  r.add("onnx::BlackmanWindow", withInputs(1, cosineWindow<2>));
  r.add("onnx::MelWeightMatrix", withInputs(5, melWeightMatrix));
}

}  // namespace flowscope
