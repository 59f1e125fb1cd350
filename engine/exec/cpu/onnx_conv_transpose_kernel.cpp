// ONNX ConvTranspose (1-D to 3-D; groups, strides, dilations, pads, output_padding, output_shape and auto_pad), as
// Caffe and PyTorch compute it: per sample and group, one GEMM (oneDNN's sgemm) of the weights with a block of input
// rows gives every kernel tap's contribution at every input position, and col2im adds each contribution into the
// output position it lands on (those that land in the pads are dropped); the bias last.
#include <dnnl.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "exec/cpu/onnx_conv_window.h"
#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

int64_t product(const std::vector<int64_t>& v) {
  return std::accumulate(v.begin(), v.end(), int64_t{1}, std::multiplies<int64_t>());
}

// The coordinates of flat index `i` over `dims` (the last varies fastest) into `at`, for its first `count` dims.
void unravel(int64_t i, const std::vector<int64_t>& dims, size_t count, std::vector<int64_t>& at) {
  for (size_t d = count; d-- > 0;) {
    at[d] = i % dims[d];
    i /= dims[d];
  }
}

// Adds one output channel's contributions into its output plane `out`: cols[tap][row * rowLength + i] for the input
// rows [firstRow, firstRow + rows) (rows run along the last spatial axis) of the input's spatial dims `in`.
void col2im(const float* cols, const OnnxWindow& w, const std::vector<int64_t>& in, int64_t firstRow, int64_t rows,
            float* out) {
  const size_t n = w.kernel.size();
  const int64_t taps = product(w.kernel), rowLength = in[n - 1], last = w.out[n - 1];
  std::vector<int64_t> outStride(n, 1), tap(n), at(n);
  for (size_t d = n - 1; d-- > 0;) outStride[d] = outStride[d + 1] * w.out[d + 1];
  for (int64_t t = 0; t < taps; ++t) {
    unravel(t, w.kernel, n, tap);
    const int64_t shift = tap[n - 1] * w.dilations[n - 1] - w.padBegin[n - 1], step = w.strides[n - 1];
    for (int64_t r = 0; r < rows; ++r) {
      unravel(firstRow + r, in, n - 1, at);
      int64_t base = 0;
      bool inside = true;
      for (size_t d = 0; d + 1 < n && inside; ++d) {
        const int64_t o = at[d] * w.strides[d] - w.padBegin[d] + tap[d] * w.dilations[d];
        inside = o >= 0 && o < w.out[d];
        base += o * outStride[d];
      }
      if (!inside) continue;
      const float* src = cols + (t * rows + r) * rowLength;
      for (int64_t i = 0; i < rowLength; ++i)
        if (const int64_t o = i * step + shift; o >= 0 && o < last) out[base + o] += src[i];
    }
  }
}

struct Geometry {
  int64_t batch, channels, groups, outPerGroup, taps, positions;
  std::vector<int64_t> in;  // the input's spatial dims
};

// The GEMMs and col2im of one sample and group into `y` (the sample's output), in blocks of input rows whose columns
// take at most 64 MiB.
Status accumulate(const KernelContext& ctx, const Geometry& g, const OnnxWindow& w, const float* x,
                  const float* weights, int64_t group, float* y) {
  const int64_t inPerGroup = g.channels / g.groups, m = g.outPerGroup * g.taps, rowLength = g.in.back();
  const int64_t rowCount = g.positions / std::max<int64_t>(rowLength, 1), outPlane = product(w.out);
  const int64_t blockRows =
      std::clamp<int64_t>((int64_t{16} << 20) / std::max<int64_t>(m * rowLength, 1), 1, std::max<int64_t>(rowCount, 1));
  if (m == 0 || rowCount == 0) return Status::ok();  // nothing lands in the output
  std::vector<float> cols(static_cast<size_t>(m * blockRows * rowLength));
  const float* a = weights + group * inPerGroup * m;  // [inPerGroup][outPerGroup * taps]
  for (int64_t first = 0; first < rowCount; first += blockRows) {
    const int64_t rows = std::min(blockRows, rowCount - first), width = rows * rowLength;
    const float* b = x + group * inPerGroup * g.positions + first * rowLength;  // [inPerGroup][positions]
    if (dnnl_sgemm('T', 'N', m, width, inPerGroup, 1.0f, a, m, b, g.positions, 0.0f, cols.data(), width) !=
        dnnl_success)
      return ctx.error("oneDNN's sgemm refused the product of " + std::to_string(m) + " x " +
                       std::to_string(inPerGroup) + " weights with " + std::to_string(width) + " columns");
    parallelFor(g.outPerGroup, g.taps * width * 2, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c)
        col2im(cols.data() + c * g.taps * width, w, g.in, first, rows, y + (group * g.outPerGroup + c) * outPlane);
    });
  }
  return Status::ok();
}

Status convTranspose(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& w = ctx.inputs[1];
  const Tensor* bias = onnxInput(ctx, 2);
  if (x.dtype() != DType::kFloat || w.dtype() != DType::kFloat || (bias && bias->dtype() != DType::kFloat))
    return ctx.error("runs in float32, got " + std::string(dtypeName(x.dtype())));
  const int rank = x.shape().rank();
  if (rank < 3 || w.shape().rank() != rank)
    return ctx.error("weights " + w.shape().toString() + " do not match input " + x.shape().toString());
  Geometry g{x.shape().dim(0), x.shape().dim(1), attrInt(ctx.node, "group", 1), w.shape().dim(1), 1, 1, {}};
  if (g.groups <= 0 || g.channels % g.groups || w.shape().dim(0) != g.channels)
    return ctx.error("input channels " + std::to_string(g.channels) + " do not match weights " + w.shape().toString() +
                     " in " + std::to_string(g.groups) + " groups");
  const std::vector<int64_t> kernel(w.shape().dims().begin() + 2, w.shape().dims().end());
  if (const auto shape = attrInts(ctx.node, "kernel_shape"); !shape.empty() && shape != kernel)
    return ctx.error("kernel_shape does not match the weights " + w.shape().toString());
  auto window = onnxTransposedWindow(ctx.node, x.shape(), kernel);
  if (!window) return ctx.error(window.status().message());
  const int64_t outChannels = g.outPerGroup * g.groups;
  if (bias && bias->numElements() != outChannels)
    return ctx.error("B must have " + std::to_string(outChannels) + " values");
  g.in.assign(x.shape().dims().begin() + 2, x.shape().dims().end());
  g.taps = product(kernel);
  g.positions = product(g.in);
  std::vector<int64_t> outDims{g.batch, outChannels};
  outDims.insert(outDims.end(), window->out.begin(), window->out.end());
  if (auto bytes = Tensor::checkedByteSize(DType::kFloat, Shape(outDims), kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor y(DType::kFloat, Shape(outDims));  // zeros: the contributions are added in
  const int64_t outPlane = product(window->out), sampleOut = outChannels * outPlane;
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t group = 0; group < g.groups; ++group)
      FS_RETURN_IF_ERROR(accumulate(ctx, g, *window, x.data<float>() + n * g.channels * g.positions, w.data<float>(),
                                    group, y.data<float>() + n * sampleOut));
  if (bias)
    parallelFor(g.batch * outChannels, outPlane, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        float* plane = y.data<float>() + p * outPlane;
        const float add = bias->data<float>()[p % outChannels];
        for (int64_t i = 0; i < outPlane; ++i) plane[i] += add;
      }
    });
  ctx.outputs[0] = std::move(y);
  return Status::ok();
}

}  // namespace

void registerOnnxConvTransposeKernel(KernelTable& r) { r.add("onnx::ConvTranspose", withInputs(2, convTranspose)); }

}  // namespace flowscope
