// Index kernels: GatherV2 / Gather (with bounds errors, as eager TensorFlow raises them), GatherNd, ScatterNd and
// SparseToDense, and ONNX's Gather, GatherND and GatherElements (which count negative indices from the end).
#include <algorithm>
#include <cstring>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

size_t elementBytes(const Tensor& t) { return static_cast<size_t>(dtypeSize(t.dtype())); }

// `index` into a dim of `size`, counted from the end when negative and `fromEnd` (ONNX); false when out of range.
bool resolveIndex(int64_t index, int64_t size, bool fromEnd, int64_t* out) {
  *out = fromEnd && index < 0 ? index + size : index;
  return *out >= 0 && *out < size;
}

std::string notInRange(int64_t index, int64_t size, bool fromEnd) {
  return std::to_string(index) + " is not in [" + std::to_string(fromEnd ? -size : 0) + ", " + std::to_string(size) +
         ")";
}

// Rows of params along `axis` picked by the indices (input 1); ONNX's Gather also counts negative ones from the end.
Status gatherAlong(KernelContext& ctx, int64_t axis, bool negativeFromEnd) {
  const Tensor& params = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  if (!normalizeAxis(axis, params.shape().rank(), &axis)) return ctx.error("axis out of range");
  if (params.isStringLike()) return ctx.error("string params are not supported");
  std::vector<int64_t> idx = intValues(indices);
  const int64_t limit = params.shape().dim(static_cast<int>(axis));
  for (size_t i = 0; i < idx.size(); ++i)
    if (!resolveIndex(idx[i], limit, negativeFromEnd, &idx[i]))
      return ctx.error("indices[" + std::to_string(i) + "] = " + notInRange(idx[i], limit, negativeFromEnd));
  std::vector<int64_t> dims(params.shape().dims().begin(), params.shape().dims().begin() + axis);
  dims.insert(dims.end(), indices.shape().dims().begin(), indices.shape().dims().end());
  dims.insert(dims.end(), params.shape().dims().begin() + axis + 1, params.shape().dims().end());
  const AxisSplit split = splitAt(params.shape(), axis);
  const int64_t outer = split.outer, inner = split.inner;
  Tensor out = Tensor::uninitialized(params.dtype(), Shape(dims));
  const size_t row = static_cast<size_t>(inner) * elementBytes(params);
  const std::byte* src = params.bytes().data();
  std::byte* dst = out.mutableBytes().data();
  const auto count = static_cast<int64_t>(idx.size());
  parallelFor(outer * count, static_cast<int64_t>(row) / 32 + 2, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {  // output row r = (outer index, position in the indices)
      const int64_t o = r / count, i = r % count;
      std::memcpy(dst + r * static_cast<int64_t>(row),
                  src + (o * limit + idx[static_cast<size_t>(i)]) * static_cast<int64_t>(row), row);
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status gather(KernelContext& ctx) {
  int64_t axis = 0;
  if (ctx.node.op == "GatherV2" && !scalarInt(ctx.inputs[2], &axis)) return ctx.error("axis must be a scalar");
  if (attrInt(ctx.node, "batch_dims", 0) != 0) return ctx.error("batch_dims != 0 is not supported");
  return gatherAlong(ctx, axis, false);
}

// ONNX's Gather: the axis an attr, with no adapter building index and axis tensors on every call (Silero VAD runs
// five on a few values each).
Status onnxGather(KernelContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.error("needs data and indices");
  return gatherAlong(ctx, attrInt(ctx.node, "axis", 0), true);
}

// GatherNd / GatherND: the last dim of the indices addresses the params' dims after the first `batchDims` (which
// params and indices share); each index picks the slice below them.
Status gatherSlices(KernelContext& ctx, int64_t batchDims, bool fromEnd) {
  if (ctx.inputs.size() < 2) return ctx.error("needs params and indices");
  const Tensor& params = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  const Shape& ps = params.shape();
  const Shape& is = indices.shape();
  if (params.isStringLike()) return ctx.error("string params are not supported");
  if (is.rank() < 1) return ctx.error("indices must have rank >= 1");
  if (batchDims < 0 || batchDims >= std::min(ps.rank(), is.rank()))
    return ctx.error("batch_dims " + std::to_string(batchDims) + " does not fit params " + ps.toString() +
                     " and indices " + is.toString());
  const auto b = static_cast<int>(batchDims);
  const int64_t depth = is.dim(is.rank() - 1);
  if (b + depth > ps.rank())
    return ctx.error("index depth " + std::to_string(depth) + " exceeds the " + std::to_string(ps.rank() - b) +
                     " dims of params " + ps.toString() + " it can address");
  std::vector<int64_t> dims;
  int64_t batches = 1, perBatch = 1, slice = 1;
  for (int k = 0; k < b; ++k) {
    if (ps.dim(k) != is.dim(k)) return ctx.error("params and indices differ in batch dim " + std::to_string(k));
    batches *= ps.dim(k);
    dims.push_back(ps.dim(k));
  }
  for (int k = b; k < is.rank() - 1; ++k) perBatch *= is.dim(k), dims.push_back(is.dim(k));
  for (auto k = static_cast<int>(b + depth); k < ps.rank(); ++k) slice *= ps.dim(k), dims.push_back(ps.dim(k));
  const std::vector<int64_t> idx = intValues(indices), strides = stridesOf(ps);
  const int64_t batchStride = b > 0 ? strides[static_cast<size_t>(b - 1)] : 0;
  Tensor out = Tensor::uninitialized(params.dtype(), Shape(dims));
  const size_t bytes = static_cast<size_t>(slice) * elementBytes(params);
  for (int64_t n = 0; n < batches * perBatch; ++n) {
    int64_t offset = (n / perBatch) * batchStride;
    for (int64_t k = 0; k < depth; ++k) {
      const int dim = b + static_cast<int>(k);
      const int64_t v = idx[static_cast<size_t>(n * depth + k)];
      int64_t at = 0;
      if (!resolveIndex(v, ps.dim(dim), fromEnd, &at))
        return ctx.error("index " + notInRange(v, ps.dim(dim), fromEnd) + " of data dim " + std::to_string(dim));
      offset += at * strides[static_cast<size_t>(dim)];
    }
    std::memcpy(out.mutableBytes().data() + static_cast<size_t>(n) * bytes,
                params.bytes().data() + static_cast<size_t>(offset) * elementBytes(params), bytes);
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status gatherNd(KernelContext& ctx) { return gatherSlices(ctx, 0, false); }

Status onnxGatherNd(KernelContext& ctx) { return gatherSlices(ctx, attrInt(ctx.node, "batch_dims", 0), true); }

// ONNX's GatherElements: out[i...] = data[i... with the axis coordinate replaced by indices[i...]]; the indices and
// the output share a shape, no larger than the data's off the axis.
Status onnxGatherElements(KernelContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.error("needs data and indices");
  const Tensor& data = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  const int rank = data.shape().rank();
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", 0), rank, &axis)) return ctx.error("axis out of range");
  if (data.isStringLike()) return ctx.error("string data is not supported");
  bool fits = indices.shape().rank() == rank;
  for (int k = 0; fits && k < rank; ++k) fits = k == axis || indices.shape().dim(k) <= data.shape().dim(k);
  if (!fits)
    return ctx.error("indices " + indices.shape().toString() + " must have the rank of data " +
                     data.shape().toString() + " and no larger dims off axis " + std::to_string(axis));
  const std::vector<int64_t> idx = intValues(indices), strides = stridesOf(data.shape());
  const std::vector<int64_t>& dims = indices.shape().dims();
  const int64_t size = data.shape().dim(static_cast<int>(axis));
  Tensor out = Tensor::uninitialized(data.dtype(), indices.shape());
  const size_t element = elementBytes(data);
  const std::byte* src = data.bytes().data();
  std::byte* dst = out.mutableBytes().data();
  std::vector<int64_t> coord(static_cast<size_t>(rank), 0);
  const auto axisAt = static_cast<size_t>(axis);
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t at = 0, offset = 0;
    if (!resolveIndex(idx[i], size, true, &at))
      return ctx.error("index " + notInRange(idx[i], size, true) + " of axis " + std::to_string(axis));
    for (size_t k = 0; k < coord.size(); ++k) offset += (k == axisAt ? at : coord[k]) * strides[k];
    std::memcpy(dst + i * element, src + static_cast<size_t>(offset) * element, element);
    for (size_t k = coord.size(); k-- > 0 && ++coord[k] == dims[k];) coord[k] = 0;  // the next output coordinate
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Adds `updates` rows into a zero (or default-filled) tensor at N-d indices (ScatterNd / SparseToDense).
Status scatterInto(KernelContext& ctx, Tensor& out, const Tensor& indices, const Tensor& updates, bool add) {
  const int ir = indices.shape().rank();
  const int64_t depth = ir == 0 ? 1 : indices.shape().dim(ir - 1);
  std::vector<int64_t> idx = intValues(indices);
  std::vector<int64_t> strides = stridesOf(out.shape());
  int64_t slice = 1;
  for (int k = static_cast<int>(depth); k < out.shape().rank(); ++k) slice *= out.shape().dim(k);
  const int64_t count = depth ? static_cast<int64_t>(idx.size()) / depth : 0;
  bool scalarUpdate = updates.numElements() == 1 && count * slice != 1;
  if (!scalarUpdate && updates.numElements() != count * slice) return ctx.error("updates do not match the indices");
  Status status;
  bool ok = dispatchNumeric(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    const T* u = updates.data<T>();
    for (int64_t n = 0; n < count && status.isOk(); ++n) {
      int64_t offset = 0;
      for (int64_t k = 0; k < depth; ++k) {
        int64_t v = idx[static_cast<size_t>(n * depth + k)];
        if (v < 0 || v >= out.shape().dim(static_cast<int>(k))) {
          status = ctx.error("index " + std::to_string(v) + " out of bounds for dim " + std::to_string(k));
          return;
        }
        offset += v * strides[static_cast<size_t>(k)];
      }
      for (int64_t i = 0; i < slice; ++i) {
        T value = u[scalarUpdate ? 0 : n * slice + i];
        if constexpr (std::is_same_v<T, bool>)
          o[offset + i] = add ? (o[offset + i] || value) : value;
        else
          o[offset + i] = add ? static_cast<T>(o[offset + i] + value) : value;
      }
    }
  });
  if (!ok) return ctx.error("unsupported dtype");
  return status;
}

Status scatterNd(KernelContext& ctx) {
  Tensor out(ctx.inputs[1].dtype(), Shape(intValues(ctx.inputs[2])));
  FS_RETURN_IF_ERROR(scatterInto(ctx, out, ctx.inputs[0], ctx.inputs[1], true));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status sparseToDense(KernelContext& ctx) {
  const Tensor& def = ctx.inputs[3];
  Tensor out(def.dtype(), Shape(intValues(ctx.inputs[1])));
  if (!dispatchBySize(def.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::fill(out.data<T>(), out.data<T>() + out.numElements(), def.data<T>()[0]);
      }))
    return ctx.error("unsupported dtype");
  Tensor indices = ctx.inputs[0];
  if (indices.shape().rank() < 2) indices = indices.reshaped(Shape{indices.numElements(), 1});
  FS_RETURN_IF_ERROR(scatterInto(ctx, out, indices, ctx.inputs[2], false));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerGatherKernels(KernelTable& r) {
  r.addFn("GatherV2", gather);
  r.addFn("Gather", gather);
  r.addFn("onnx::Gather", onnxGather);
  r.addFn("GatherNd", gatherNd);
  r.addFn("onnx::GatherND", onnxGatherNd);
  r.addFn("onnx::GatherElements", onnxGatherElements);
  r.addFn("ScatterNd", scatterNd);
  r.addFn("SparseToDense", sparseToDense);
}

}  // namespace flowscope
