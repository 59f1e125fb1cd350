// ONNX's spectral ops (opset 17): DFT along one axis and STFT over frames of a signal, real or complex ([..., 1] or
// [..., 2]) in, complex [..., 2] out; onesided keeps the bins up to n / 2 of a real signal's spectrum.
#include <algorithm>

#include "exec/cpu/fourier_transform.h"
#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// A signal tensor's values along one axis: `outer` series of `length` samples, `inner` apart, each sample `parts`
// numbers (1: real, 2: complex).
struct Signal {
  int64_t outer = 1, length = 1, inner = 1, parts = 1;
};

template <typename T>
Complex sampleAt(const T* data, const Signal& s, int64_t o, int64_t j, int64_t i) {
  const T* at = data + ((o * s.length + j) * s.inner + i) * s.parts;
  return {static_cast<double>(at[0]), s.parts == 2 ? static_cast<double>(at[1]) : 0.0};
}

Status checkSignal(KernelContext& ctx, const Tensor& x) {
  if (x.dtype() != DType::kFloat && x.dtype() != DType::kDouble)
    return ctx.error("runs float32 and float64 signals, got " + std::string(dtypeName(x.dtype())));
  const int rank = x.shape().rank();
  if (rank < 2 || (x.shape().dim(rank - 1) != 1 && x.shape().dim(rank - 1) != 2))
    return ctx.error("expects a signal [..., 1] (real) or [..., 2] (complex), got " + x.shape().toString());
  return Status::ok();
}

// DFT: `length` samples along the axis, zero-padded or cut to dft_length, transformed as one series.
Status dft(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  FS_RETURN_IF_ERROR(checkSignal(ctx, x));
  const int rank = x.shape().rank();
  const int64_t axis = attrInt(ctx.node, "axis", 1);
  if (axis < 1 || axis >= rank - 1) return ctx.error("axis must name a signal axis (1 to rank - 2)");
  const bool inverse = attrInt(ctx.node, "inverse", 0) != 0, onesided = attrInt(ctx.node, "onesided", 0) != 0;
  Signal s{1, x.shape().dim(static_cast<int>(axis)), 1, x.shape().dim(rank - 1)};
  for (int d = 0; d < axis; ++d) s.outer *= x.shape().dim(d);
  for (int d = static_cast<int>(axis) + 1; d < rank - 1; ++d) s.inner *= x.shape().dim(d);
  int64_t n = s.length;
  if (const Tensor* length = onnxInput(ctx, 1)) {
    if (length->numElements() != 1 || !isInteger(length->dtype())) return ctx.error("dft_length must be an integer");
    n = intValues(*length)[0];
    if (n < 1) return ctx.error("dft_length must be positive");
  }
  if (onesided && (inverse || s.parts == 2)) return ctx.error("onesided needs a real signal and a forward transform");
  const int64_t bins = onesided ? n / 2 + 1 : n;
  std::vector<int64_t> dims = x.shape().dims();
  dims[static_cast<size_t>(axis)] = bins;
  dims.back() = 2;
  if (auto bytes = Tensor::checkedByteSize(x.dtype(), Shape(dims), kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(dims));
  const FourierTransform transform(n, inverse);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<Complex> series(static_cast<size_t>(n)), scratch;
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i) {
        for (int64_t j = 0; j < n; ++j)
          series[static_cast<size_t>(j)] = j < s.length ? sampleAt(x.data<T>(), s, o, j, i) : Complex();
        transform.apply(series.data(), scratch);
        for (int64_t k = 0; k < bins; ++k) {
          T* at = out.data<T>() + ((o * bins + k) * s.inner + i) * 2;
          at[0] = static_cast<T>(series[static_cast<size_t>(k)].real() * scale);
          at[1] = static_cast<T>(series[static_cast<size_t>(k)].imag() * scale);
        }
      }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// STFT: frames of frame_length samples every frame_step, each times the window (if given), transformed.
Status stft(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  FS_RETURN_IF_ERROR(checkSignal(ctx, x));
  if (x.shape().rank() != 3) return ctx.error("expects a signal [batch, length, 1 or 2], got " + x.shape().toString());
  const Tensor *window = onnxInput(ctx, 2), *lengthInput = onnxInput(ctx, 3);
  if (ctx.inputs[1].numElements() != 1) return ctx.error("frame_step must be a scalar");
  const int64_t step = intValues(ctx.inputs[1])[0];
  if (window && (window->shape().rank() != 1 || window->dtype() != x.dtype()))
    return ctx.error("window must be 1-D of the signal's dtype");
  if (lengthInput && lengthInput->numElements() != 1) return ctx.error("frame_length must be a scalar");
  if (!window && !lengthInput) return ctx.error("needs a window or a frame_length");
  const int64_t n = lengthInput ? intValues(*lengthInput)[0] : window->numElements();
  if (window && window->numElements() != n) return ctx.error("the window's length differs from frame_length");
  const Signal s{x.shape().dim(0), x.shape().dim(1), 1, x.shape().dim(2)};
  if (step < 1 || n < 1 || n > s.length)
    return ctx.error("needs frame_step >= 1 and 1 <= frame_length <= the signal's length " + std::to_string(s.length));
  const bool onesided = attrInt(ctx.node, "onesided", 1) != 0;
  if (onesided && s.parts == 2) return ctx.error("onesided needs a real signal");
  const int64_t frames = (s.length - n) / step + 1, bins = onesided ? n / 2 + 1 : n;
  const Shape shape{s.outer, frames, bins, 2};
  if (auto bytes = Tensor::checkedByteSize(x.dtype(), shape, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor out = Tensor::uninitialized(x.dtype(), shape);
  const FourierTransform transform(n, false);
  dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<Complex> frame(static_cast<size_t>(n)), scratch;
    for (int64_t b = 0; b < s.outer; ++b)
      for (int64_t f = 0; f < frames; ++f) {
        for (int64_t j = 0; j < n; ++j)
          frame[static_cast<size_t>(j)] =
              sampleAt(x.data<T>(), s, b, f * step + j, 0) * (window ? static_cast<double>(window->data<T>()[j]) : 1.0);
        transform.apply(frame.data(), scratch);
        T* at = out.data<T>() + (b * frames + f) * bins * 2;
        for (int64_t k = 0; k < bins; ++k) {
          at[2 * k] = static_cast<T>(frame[static_cast<size_t>(k)].real());
          at[2 * k + 1] = static_cast<T>(frame[static_cast<size_t>(k)].imag());
        }
      }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxFourierKernels(KernelTable& r) {
  r.add("onnx::DFT", withInputs(1, dft));
  r.add("onnx::STFT", withInputs(2, stft));
}

}  // namespace flowscope
