// Choosing elements by condition: Select/SelectV2 (with broadcasting) and Where (coordinates).
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

Status select(KernelContext& ctx) {
  const Tensor& c = ctx.inputs[0];
  const Tensor& t = ctx.inputs[1];
  const Tensor& e = ctx.inputs[2];
  if (t.dtype() != e.dtype()) return ctx.error("t and e have different dtypes");
  Shape outShape;
  BroadcastPlan plan;
  std::vector<Shape> shapes = {c.shape(), t.shape(), e.shape()};
  bool v1Vector = ctx.node.op == "Select" && c.shape().rank() == 1 && t.shape().rank() > 1;
  if (v1Vector) {  // Select v1: a vector condition picks whole rows
    std::vector<int64_t> cd(static_cast<size_t>(t.shape().rank()), 1);
    cd[0] = c.shape().dim(0);
    shapes[0] = Shape(cd);
  }
  if (!planBroadcast(shapes, &outShape, &plan)) return ctx.error("condition, t and e shapes do not broadcast");
  Tensor out = Tensor::uninitialized(t.dtype(), outShape);
  FS_RETURN_IF_ERROR(moveBySize(ctx, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const uint8_t* pc = c.data<uint8_t>();
    const T* pt = t.data<T>();
    const T* pe = e.data<T>();
    T* o = out.data<T>();
    forEachRunInParallel(plan, 1, [&](int64_t at, int64_t len, const int64_t* off, const int64_t* inner) {
      for (int64_t i = 0; i < len; ++i)
        o[at + i] = pc[off[0] + i * inner[0]] ? pt[off[1] + i * inner[1]] : pe[off[2] + i * inner[2]];
    });
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status where(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  std::vector<int64_t> hits;
  std::vector<int64_t> strides = stridesOf(x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    if (x.elementAsDouble(i) == 0) continue;
    for (int k = 0; k < rank; ++k) hits.push_back((i / strides[static_cast<size_t>(k)]) % x.shape().dim(k));
  }
  Tensor out = Tensor::uninitialized(
      DType::kInt64, Shape{static_cast<int64_t>(rank ? hits.size() / static_cast<size_t>(rank) : 0), rank});
  std::copy(hits.begin(), hits.end(), out.data<int64_t>());
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerSelectKernels(KernelTable& r) {
  r.addFn("Select", select);
  r.addFn("SelectV2", select);
  r.addFn("Where", where);
}

}  // namespace flowscope
