// Slice and StridedSlice (planned by ops/strided_slice so shape inference and execution agree).
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"
#include "ops/strided_slice.h"

namespace flowscope {
namespace {

// Does the region read every element of x in order (x[None], x[0] of a [1, ...] tensor, a slice of everything)?
bool wholeTensorInOrder(const Tensor& x, int64_t offset, std::vector<int64_t> strides, std::vector<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (offset != 0 || count != x.numElements() || count == 0) return false;
  coalesceDims(&dims, &strides);
  return dims.size() == 1 && strides[0] == 1;
}

// Copies the region of x (offset, strides, dims) into a new tensor of `outShape`; a region that is all of x in order
// shares x's buffer instead (tensors are immutable), as TensorFlow forwards such slices.
Status copyRegion(KernelContext& ctx, const Tensor& x, int64_t offset, const std::vector<int64_t>& strides,
                  const std::vector<int64_t>& dims, const Shape& outShape) {
  if (wholeTensorInOrder(x, offset, strides, dims)) {
    ctx.outputs[0] = x.reshaped(outShape);
    return Status::ok();
  }
  if (x.isStringLike()) {
    std::vector<std::string> values(static_cast<size_t>(outShape.numElements()));
    // Strings: walk the same index space by hand.
    std::vector<int64_t> counter(dims.size(), 0);
    for (size_t o = 0; o < values.size(); ++o) {
      int64_t src = offset;
      for (size_t k = 0; k < dims.size(); ++k) src += counter[k] * strides[k];
      values[o] = x.strings()[static_cast<size_t>(src)];
      for (size_t k = dims.size(); k-- > 0;) {
        if (++counter[k] < dims[k]) break;
        counter[k] = 0;
      }
    }
    ctx.outputs[0] = Tensor::fromStrings(outShape, std::move(values), x.dtype());
    return Status::ok();
  }
  Tensor out = Tensor::uninitialized(x.dtype(), outShape);
  if (!dispatchBySize(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        stridedCopy(x.data<T>(), offset, strides, dims, out.data<T>());
      }))
    return ctx.error("unsupported dtype");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status slice(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> begin = intValues(ctx.inputs[1]), size = intValues(ctx.inputs[2]);
  const int rank = x.shape().rank();
  if (static_cast<int>(begin.size()) != rank || static_cast<int>(size.size()) != rank)
    return ctx.error("begin and size must have one entry per dim of " + x.shape().toString());
  std::vector<int64_t> strides = stridesOf(x.shape());
  int64_t offset = 0;
  for (int k = 0; k < rank; ++k) {
    auto kk = static_cast<size_t>(k);
    if (size[kk] == -1) size[kk] = x.shape().dim(k) - begin[kk];
    if (begin[kk] < 0 || size[kk] < 0 || begin[kk] + size[kk] > x.shape().dim(k))
      return ctx.error("slice [" + std::to_string(begin[kk]) + ", +" + std::to_string(size[kk]) + ") is outside dim " +
                       std::to_string(k) + " of size " + std::to_string(x.shape().dim(k)));
    offset += begin[kk] * strides[kk];
  }
  return copyRegion(ctx, x, offset, strides, size, Shape(size));
}

Status stridedSlice(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  StridedSliceMasks masks{attrInt(ctx.node, "begin_mask", 0), attrInt(ctx.node, "end_mask", 0),
                          attrInt(ctx.node, "ellipsis_mask", 0), attrInt(ctx.node, "new_axis_mask", 0),
                          attrInt(ctx.node, "shrink_axis_mask", 0)};
  auto plan =
      planStridedSlice(x.shape(), intValues(ctx.inputs[1]), intValues(ctx.inputs[2]), intValues(ctx.inputs[3]), masks);
  if (!plan) return ctx.error(plan.status().message());
  std::vector<int64_t> strides = stridesOf(x.shape()), copyStrides;
  int64_t offset = 0;
  for (size_t k = 0; k < plan->begin.size(); ++k) {
    offset += plan->begin[k] * strides[k];
    copyStrides.push_back(plan->stride[k] * strides[k]);
  }
  return copyRegion(ctx, x, offset, copyStrides, plan->size, Shape(plan->outputShape));
}

}  // namespace

void registerSliceKernels(KernelTable& r) {
  r.addFn("Slice", slice);
  r.addFn("StridedSlice", stridedSlice);
}

}  // namespace flowscope
