// ONNX's MaxUnpool: MaxPool's inverse for decoders (SegNet-style), each value written at the flat position MaxPool's
// Indices output recorded, zeros elsewhere. The output is output_shape when given, else the size a pooling window of
// kernel_shape, strides and pads would have pooled from.
#include <cstring>

#include "exec/cpu/onnx_conv_window.h"
#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

Expected<Shape> unpooledShape(const KernelContext& ctx, const Tensor& x) {
  if (const Tensor* shape = onnxInput(ctx, 2)) {
    std::vector<int64_t> dims = intValues(*shape);
    if (static_cast<int>(dims.size()) != x.shape().rank() || dims[0] != x.shape().dim(0) || dims[1] != x.shape().dim(1))
      return invalidArgument("output_shape " + Shape(dims).toString() + " must keep X's rank, batch and channels " +
                             x.shape().toString());
    return Shape(dims);
  }
  auto window = onnxTransposedWindow(ctx.node, x.shape(), attrInts(ctx.node, "kernel_shape"));
  if (!window) return window.status();
  std::vector<int64_t> dims{x.shape().dim(0), x.shape().dim(1)};
  dims.insert(dims.end(), window->out.begin(), window->out.end());
  return Shape(dims);
}

Status maxUnpool(KernelContext& ctx) {
  const Tensor &x = ctx.inputs[0], &indices = ctx.inputs[1];
  if (x.shape().rank() < 3) return ctx.error("expects X (N, C, spatial...), got " + x.shape().toString());
  if (indices.dtype() != DType::kInt64 || indices.shape() != x.shape())
    return ctx.error("I must be int64 of X's shape " + x.shape().toString());
  if (x.dtype() == DType::kString) return ctx.error("cannot unpool strings");
  auto shape = unpooledShape(ctx, x);
  if (!shape) return ctx.error(shape.status().message());
  if (auto bytes = Tensor::checkedByteSize(x.dtype(), *shape, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor out(x.dtype(), *shape);  // zeros
  const auto size = static_cast<size_t>(dtypeSize(x.dtype()));
  const int64_t* at = indices.data<int64_t>();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    if (at[i] < 0 || at[i] >= out.numElements())
      return ctx.error("index " + std::to_string(at[i]) + " at " + std::to_string(i) + " is outside the output " +
                       shape->toString());
    std::memcpy(out.mutableBytes().data() + static_cast<size_t>(at[i]) * size,
                x.bytes().data() + static_cast<size_t>(i) * size, size);
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxMaxUnpoolKernel(KernelTable& r) { r.add("onnx::MaxUnpool", withInputs(2, maxUnpool)); }

}  // namespace flowscope
