// Index kernels: GatherV2 / Gather (with bounds errors, as eager TensorFlow raises them) and ONNX's Gather, GatherNd,
// ScatterNd and SparseToDense.
#include <cstring>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

size_t elementBytes(const Tensor& t) { return static_cast<size_t>(dtypeSize(t.dtype())); }

// Rows of params along `axis` picked by the indices (input 1); ONNX's Gather also counts negative ones from the end.
Status gatherAlong(KernelContext& ctx, int64_t axis, bool negativeFromEnd) {
  const Tensor& params = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  if (!normalizeAxis(axis, params.shape().rank(), &axis)) return ctx.error("axis out of range");
  if (params.isStringLike()) return ctx.error("string params are not supported");
  std::vector<int64_t> idx = intValues(indices);
  const int64_t limit = params.shape().dim(static_cast<int>(axis));
  for (size_t i = 0; i < idx.size(); ++i) {
    if (negativeFromEnd && idx[i] < 0 && idx[i] >= -limit) idx[i] += limit;
    if (idx[i] < 0 || idx[i] >= limit)
      return ctx.error("indices[" + std::to_string(i) + "] = " + std::to_string(idx[i]) + " is not in [" +
                       std::to_string(negativeFromEnd ? -limit : 0) + ", " + std::to_string(limit) + ")");
  }
  std::vector<int64_t> dims(params.shape().dims().begin(), params.shape().dims().begin() + axis);
  dims.insert(dims.end(), indices.shape().dims().begin(), indices.shape().dims().end());
  dims.insert(dims.end(), params.shape().dims().begin() + axis + 1, params.shape().dims().end());
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= params.shape().dim(static_cast<int>(k));
  for (int k = static_cast<int>(axis) + 1; k < params.shape().rank(); ++k) inner *= params.shape().dim(k);
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

Status gatherNd(KernelContext& ctx) {
  const Tensor& params = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  if (params.isStringLike()) return ctx.error("string params are not supported");
  const int ir = indices.shape().rank();
  if (ir < 1) return ctx.error("indices must have rank >= 1");
  const int64_t depth = indices.shape().dim(ir - 1);
  if (depth > params.shape().rank()) return ctx.error("index depth exceeds the params rank");
  std::vector<int64_t> idx = intValues(indices);
  std::vector<int64_t> strides = stridesOf(params.shape());
  int64_t slice = 1;
  for (int k = static_cast<int>(depth); k < params.shape().rank(); ++k) slice *= params.shape().dim(k);
  std::vector<int64_t> dims(indices.shape().dims().begin(), indices.shape().dims().end() - 1);
  dims.insert(dims.end(), params.shape().dims().begin() + depth, params.shape().dims().end());
  Tensor out = Tensor::uninitialized(params.dtype(), Shape(dims));
  const int64_t count = depth ? static_cast<int64_t>(idx.size()) / depth : 1;
  const size_t bytes = static_cast<size_t>(slice) * elementBytes(params);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t k = 0; k < depth; ++k) {
      int64_t v = idx[static_cast<size_t>(n * depth + k)];
      if (v < 0 || v >= params.shape().dim(static_cast<int>(k)))
        return ctx.error("index " + std::to_string(v) + " out of bounds for dim " + std::to_string(k));
      offset += v * strides[static_cast<size_t>(k)];
    }
    std::memcpy(out.mutableBytes().data() + n * static_cast<int64_t>(bytes),
                params.bytes().data() + offset * static_cast<int64_t>(elementBytes(params)), bytes);
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
  r.addFn("ScatterNd", scatterNd);
  r.addFn("SparseToDense", sparseToDense);
}

}  // namespace flowscope
