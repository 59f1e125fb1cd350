// Kernels that reorder elements: Transpose, Tile, ReverseV2 (strided copies; float NCHW <-> NHWC transposes as
// oneDNN reorders, which are several times faster than a strided copy when the channels are few).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// A float NCHW -> NHWC (perm 0,2,3,1) or NHWC -> NCHW (perm 0,3,1,2) transpose as a oneDNN reorder of the
// NCHW-labelled tensor from one layout to the other; false for other transposes. On MobileNetV2's 1x3x224x224 input
// it takes about 100 us at 1 and at 2 threads (12 GB/s, the memory's bandwidth); a tiled transpose of our own took
// the same.
bool channelsReorder(const Tensor& x, const std::vector<int64_t>& perm, Tensor* out) {
  const bool toLast = perm == std::vector<int64_t>{0, 2, 3, 1}, toFirst = perm == std::vector<int64_t>{0, 3, 1, 2};
  constexpr int64_t kSmall = 4096;  // below this a strided copy beats making the reorder (about 3 us)
  if (x.dtype() != DType::kFloat || x.shape().rank() != 4 || (!toLast && !toFirst) || x.numElements() < kSmall)
    return false;
  const auto& d = x.shape().dims();
  const dnnl::memory::dims nchw =
      toLast ? dnnl::memory::dims{d[0], d[1], d[2], d[3]} : dnnl::memory::dims{d[0], d[3], d[1], d[2]};
  using tag = dnnl::memory::format_tag;
  const auto f32 = dnnl::memory::data_type::f32;
  dnnl::memory src({nchw, f32, toLast ? tag::nchw : tag::nhwc}, dnnl_util::engine(),
                   const_cast<float*>(x.data<float>()));
  *out = Tensor::uninitialized(DType::kFloat, toLast ? Shape{d[0], d[2], d[3], d[1]} : Shape{d[0], d[3], d[1], d[2]});
  dnnl::memory dst({nchw, f32, toLast ? tag::nhwc : tag::nchw}, dnnl_util::engine(), out->data<float>());
  dnnl::reorder(src, dst).execute(dnnl_util::stream(), src, dst);
  dnnl_util::stream().wait();
  return true;
}

// True when `perm` keeps the order of the axes longer than 1: the elements do not move, only the shape changes
// (NCHW -> NHWC of a single channel, or of a 1x1 image).
bool movesOnlyUnitAxes(const Shape& shape, const std::vector<int64_t>& perm) {
  int64_t last = -1;
  for (int64_t axis : perm) {
    if (shape.dim(static_cast<int>(axis)) == 1) continue;
    if (axis < last) return false;
    last = axis;
  }
  return true;
}

Status transpose(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> perm = intValues(ctx.inputs[1]);
  if (Tensor fast; channelsReorder(x, perm, &fast)) {
    ctx.outputs[0] = std::move(fast);
    return Status::ok();
  }
  const int rank = x.shape().rank();
  if (static_cast<int>(perm.size()) != rank)
    return ctx.error("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(rank));
  std::vector<int64_t> inStrides = stridesOf(x.shape()), dims(perm.size()), strides(perm.size());
  std::vector<bool> seen(perm.size(), false);
  for (size_t k = 0; k < perm.size(); ++k) {
    if (perm[k] < 0 || perm[k] >= rank || seen[static_cast<size_t>(perm[k])])
      return ctx.error("perm is not a permutation");
    seen[static_cast<size_t>(perm[k])] = true;
    dims[k] = x.shape().dim(static_cast<int>(perm[k]));
    strides[k] = inStrides[static_cast<size_t>(perm[k])];
  }
  if (movesOnlyUnitAxes(x.shape(), perm)) {
    ctx.outputs[0] = x.reshaped(Shape(dims));
    return Status::ok();
  }
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(dims));
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    stridedCopy(x.data<T>(), 0, strides, dims, out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status tile(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> multiples = intValues(ctx.inputs[1]);
  const int rank = x.shape().rank();
  if (static_cast<int>(multiples.size()) != rank) return ctx.error("multiples must have one entry per dim");
  // Output dims are (m_k, d_k) pairs: tile index then element index, so strides are (0, s_k).
  std::vector<int64_t> dims, strides, inStrides = stridesOf(x.shape()), outDims;
  for (int k = 0; k < rank; ++k) {
    if (multiples[static_cast<size_t>(k)] < 0) return ctx.error("multiples must be non-negative");
    dims.push_back(multiples[static_cast<size_t>(k)]);
    strides.push_back(0);
    dims.push_back(x.shape().dim(k));
    strides.push_back(inStrides[static_cast<size_t>(k)]);
    outDims.push_back(multiples[static_cast<size_t>(k)] * x.shape().dim(k));
  }
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(outDims));
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    stridedCopy(x.data<T>(), 0, strides, dims, out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status reverse(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> strides = stridesOf(x.shape());
  int64_t offset = 0;
  for (int64_t a : intValues(ctx.inputs[1])) {
    if (!normalizeAxis(a, x.shape().rank(), &a)) return ctx.error("axis out of range");
    offset += (x.shape().dim(static_cast<int>(a)) - 1) * strides[static_cast<size_t>(a)];
    strides[static_cast<size_t>(a)] = -strides[static_cast<size_t>(a)];
  }
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (x.numElements() > 0) stridedCopy(x.data<T>(), offset, strides, x.shape().dims(), out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerReorderKernels(KernelTable& r) {
  r.addFn("Transpose", transpose);
  r.addFn("Tile", tile);
  r.addFn("ReverseV2", reverse);
}

}  // namespace flowscope
