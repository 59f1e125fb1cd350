// Kernels that create tensors from values: Fill, BroadcastTo, Range, OneHot.
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

Status broadcastValue(KernelContext& ctx, const Tensor& value, const Shape& target) {
  Shape outShape;
  BroadcastPlan plan;
  if (!planBroadcast({value.shape(), target}, &outShape, &plan) || outShape != target)
    return ctx.error("cannot broadcast " + value.shape().toString() + " to " + target.toString());
  Tensor out = Tensor::uninitialized(value.dtype(), target);
  FS_RETURN_IF_ERROR(moveBySize(ctx, value, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = value.data<T>();
    T* o = out.data<T>();
    forEachRunInParallel(plan, 1, [&](int64_t at, int64_t len, const int64_t* off, const int64_t* inner) {
      for (int64_t i = 0; i < len; ++i) o[at + i] = in[off[0] + i * inner[0]];
    });
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status fill(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  for (int64_t d : dims)
    if (d < 0) return ctx.error("dims must be non-negative, got " + Shape(dims).toString());
  if (ctx.inputs[1].numElements() != 1) return ctx.error("value must be a scalar");
  if (ctx.inputs[1].isStringLike()) {
    ctx.outputs[0] = Tensor::fromStrings(
        Shape(dims),
        std::vector<std::string>(static_cast<size_t>(Shape(dims).numElements()), ctx.inputs[1].strings()[0]));
    return Status::ok();
  }
  return broadcastValue(ctx, ctx.inputs[1].reshaped(Shape{}), Shape(dims));
}

Status broadcastTo(KernelContext& ctx) { return broadcastValue(ctx, ctx.inputs[0], Shape(intValues(ctx.inputs[1]))); }

Status range(KernelContext& ctx) {
  const Tensor& s = ctx.inputs[0];
  Status status;
  if (!dispatchNumeric(s.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          status = ctx.error("bool range");
        } else {
          T start = s.data<T>()[0], limit = ctx.inputs[1].data<T>()[0], delta = ctx.inputs[2].data<T>()[0];
          if (delta == T(0)) {
            status = ctx.error("Requires delta != 0");
            return;
          }
          if ((delta > T(0) && start > limit) || (delta < T(0) && start < limit)) {
            status = ctx.error("Requires start <= limit when delta > 0 (start >= limit when delta < 0)");
            return;
          }
          double count = std::ceil(
              std::abs((static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta)));
          Tensor out = Tensor::uninitialized(s.dtype(), Shape{static_cast<int64_t>(count)});
          T v = start;
          for (int64_t i = 0; i < static_cast<int64_t>(count); ++i, v = static_cast<T>(v + delta)) out.data<T>()[i] = v;
          ctx.outputs[0] = std::move(out);
        }
      }))
    return ctx.error("unsupported dtype");
  return status;
}

Status oneHot(KernelContext& ctx) {
  const Tensor& indices = ctx.inputs[0];
  int64_t depth;
  if (!scalarInt(ctx.inputs[1], &depth) || depth < 0) return ctx.error("depth must be a non-negative scalar");
  int64_t axis = attrInt(ctx.node, "axis", -1);
  const int rank = indices.shape().rank();
  if (axis < -1 || axis > rank) return ctx.error("axis out of range");
  if (axis == -1) axis = rank;
  std::vector<int64_t> dims = indices.shape().dims();
  dims.insert(dims.begin() + axis, depth);
  const Tensor& on = ctx.inputs[2];
  const Tensor& off = ctx.inputs[3];
  Tensor out = Tensor::uninitialized(on.dtype(), Shape(dims));
  std::vector<int64_t> idx = intValues(indices);
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= indices.shape().dim(static_cast<int>(k));
  int64_t inner = indices.numElements() / std::max<int64_t>(outer, 1);
  FS_RETURN_IF_ERROR(moveBySize(ctx, on, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t d = 0; d < depth; ++d)
        for (int64_t b = 0; b < inner; ++b)
          o[(a * depth + d) * inner + b] =
              idx[static_cast<size_t>(a * inner + b)] == d ? on.data<T>()[0] : off.data<T>()[0];
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerFillKernels(KernelTable& r) {
  r.addFn("Fill", fill);
  r.addFn("BroadcastTo", broadcastTo);
  r.addFn("Range", range);
  r.addFn("OneHot", oneHot);
}

}  // namespace flowscope
