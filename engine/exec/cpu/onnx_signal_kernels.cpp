// ONNX's signal windows (opset 17): HannWindow, HammingWindow and BlackmanWindow of a given size, periodic (the
// default, for spectral analysis) or symmetric, in the output_datatype asked for (float32 by default).
#include <cmath>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"

namespace flowscope {
namespace {

// Cosine-sum windows: w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic) or size - 1.
template <int Kind>
Status cosineWindow(KernelContext& ctx) {
  constexpr double kA0[] = {0.5, 25.0 / 46.0, 0.42}, kA1[] = {0.5, 21.0 / 46.0, 0.5}, kA2[] = {0, 0, 0.08};
  if (ctx.inputs[0].numElements() != 1) return ctx.error("size must be a scalar");
  const int64_t size = intValues(ctx.inputs[0])[0];
  if (size < 0) return ctx.error("size is negative");
  if (auto bytes = Tensor::checkedByteSize(DType::kDouble, Shape{size}, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  DType dtype = DType::kFloat;
  if (ctx.node.attr("output_datatype")) {
    auto d = onnxDTypeAttr(ctx.node, "output_datatype");
    if (!d) return ctx.error(d.status().message());
    dtype = *d;
  }
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

}  // namespace

void registerOnnxSignalKernels(KernelTable& r) {
  r.add("onnx::HannWindow", withInputs(1, cosineWindow<0>));
  r.add("onnx::HammingWindow", withInputs(1, cosineWindow<1>));
  r.add("onnx::BlackmanWindow", withInputs(1, cosineWindow<2>));
}

}  // namespace flowscope
