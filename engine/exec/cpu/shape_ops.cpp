// Shape kernels: Reshape, Squeeze, ExpandDims, Shape/ShapeN, Size, Rank, BroadcastGradientArgs.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

Tensor makeIntVector(const std::vector<int64_t>& values, DType dtype) {
  Tensor t = Tensor::uninitialized(dtype, Shape{static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::kInt64)
      t.data<int64_t>()[i] = values[i];
    else
      t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  }
  return t;
}

Status reshape(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> dims = intValues(ctx.inputs[1]);
  int64_t known = 1;
  int unknown = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == -1) {
      if (unknown >= 0) return ctx.error("only one dimension of the new shape may be -1");
      unknown = static_cast<int>(k);
    } else if (dims[k] < 0) {
      return ctx.error("new shape has a negative dimension " + std::to_string(dims[k]));
    } else {
      known *= dims[k];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || x.numElements() % known != 0)
      return ctx.error("cannot reshape a tensor of " + std::to_string(x.numElements()) + " elements to " +
                       Shape(dims).toString());
    dims[static_cast<size_t>(unknown)] = x.numElements() / known;
  }
  Shape shape(dims);
  if (shape.numElements() != x.numElements())
    return ctx.error("cannot reshape a tensor with " + std::to_string(x.numElements()) + " elements to shape " +
                     shape.toString() + " (" + std::to_string(shape.numElements()) + " elements)");
  ctx.outputs[0] = x.reshaped(shape);
  return Status::ok();
}

Status squeeze(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  auto axes = attrInts(ctx.node, "squeeze_dims");
  std::vector<int64_t> dims;
  for (int k = 0; k < x.shape().rank(); ++k) {
    bool listed = false;
    for (int64_t a : axes) {
      int64_t n;
      if (!normalizeAxis(a, x.shape().rank(), &n))
        return ctx.error("squeeze dim " + std::to_string(a) + " out of range");
      listed |= n == k;
    }
    if (listed && x.shape().dim(k) != 1)
      return ctx.error("cannot squeeze dim " + std::to_string(k) + ", expected a dimension of 1, got " +
                       std::to_string(x.shape().dim(k)));
    if ((axes.empty() && x.shape().dim(k) == 1) || listed) continue;
    dims.push_back(x.shape().dim(k));
  }
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status expandDims(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis;
  if (!scalarInt(ctx.inputs[1], &axis)) return ctx.error("dim must be a scalar");
  int rank = x.shape().rank();
  if (axis < -rank - 1 || axis > rank) return ctx.error("dim " + std::to_string(axis) + " out of range");
  if (axis < 0) axis += rank + 1;
  std::vector<int64_t> dims = x.shape().dims();
  dims.insert(dims.begin() + axis, 1);
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status shapeOp(KernelContext& ctx) {
  DType t = attrType(ctx.node, "out_type", DType::kInt32);
  for (size_t i = 0; i < ctx.outputs.size(); ++i) ctx.outputs[i] = makeIntVector(ctx.inputs[i].shape().dims(), t);
  return Status::ok();
}

Status sizeOp(KernelContext& ctx) {
  DType t = attrType(ctx.node, "out_type", DType::kInt32);
  ctx.outputs[0] = makeIntVector({ctx.inputs[0].numElements()}, t).reshaped(Shape{});
  return Status::ok();
}

Status rankOp(KernelContext& ctx) {
  ctx.outputs[0] = Tensor::scalar<int32_t>(DType::kInt32, ctx.inputs[0].shape().rank());
  return Status::ok();
}

Status broadcastGradientArgs(KernelContext& ctx) {
  std::vector<int64_t> a = intValues(ctx.inputs[0]), b = intValues(ctx.inputs[1]);
  size_t rank = std::max(a.size(), b.size());
  a.insert(a.begin(), rank - a.size(), 1);
  b.insert(b.begin(), rank - b.size(), 1);
  std::vector<int64_t> ra, rb;
  for (size_t k = 0; k < rank; ++k) {
    if (a[k] != b[k] && a[k] != 1 && b[k] != 1) return ctx.error("incompatible shapes");
    if (a[k] == 1 && b[k] != 1) ra.push_back(static_cast<int64_t>(k));
    if (b[k] == 1 && a[k] != 1) rb.push_back(static_cast<int64_t>(k));
    if (a[k] == 1 && b[k] == 1) {
      ra.push_back(static_cast<int64_t>(k));
      rb.push_back(static_cast<int64_t>(k));
    }
  }
  ctx.outputs[0] = makeIntVector(ra, ctx.inputs[0].dtype());
  ctx.outputs[1] = makeIntVector(rb, ctx.inputs[0].dtype());
  return Status::ok();
}

}  // namespace

void registerShapeKernels(KernelTable& r) {
  r.addFn("Reshape", reshape);
  r.addFn("Squeeze", squeeze);
  r.addFn("ExpandDims", expandDims);
  r.addFn("Shape", shapeOp);
  r.addFn("ShapeN", shapeOp);
  r.addFn("Size", sizeOp);
  r.addFn("Rank", rankOp);
  r.addFn("BroadcastGradientArgs", broadcastGradientArgs);
}

}  // namespace flowscope
