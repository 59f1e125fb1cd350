// ONNX's GatherElements and GatherND: elements or slices of the data picked by index tensors, negative indices
// counted from the end (GatherND also with leading batch dims shared by data and indices).
#include <cstring>

#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

// An index into a dim of `size`, counted from the end when negative; false when outside [-size, size).
bool resolveIndex(int64_t index, int64_t size, int64_t* out) {
  *out = index < 0 ? index + size : index;
  return *out >= 0 && *out < size;
}

std::string outOfRange(int64_t index, int64_t size) {
  return "index " + std::to_string(index) + " is not in [" + std::to_string(-size) + ", " + std::to_string(size) + ")";
}

// out[i...] = data[i... with the axis coordinate replaced by indices[i...]]: indices and output share a shape.
Status gatherElements(KernelContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.error("needs data and indices");
  const Tensor& data = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  const int rank = data.shape().rank();
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", 0), rank, &axis)) return ctx.error("axis out of range");
  if (indices.shape().rank() != rank)
    return ctx.error("indices " + indices.shape().toString() + " must have the rank of data " +
                     data.shape().toString());
  if (data.isStringLike()) return ctx.error("string data is not supported");
  const std::vector<int64_t> idx = intValues(indices), strides = stridesOf(data.shape());
  const std::vector<int64_t>& dims = indices.shape().dims();
  Tensor out = Tensor::uninitialized(data.dtype(), indices.shape());
  const auto element = static_cast<size_t>(dtypeSize(data.dtype()));
  const std::byte* src = data.bytes().data();
  std::byte* dst = out.mutableBytes().data();
  std::vector<int64_t> coord(static_cast<size_t>(rank), 0);
  const auto axisAt = static_cast<size_t>(axis);
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t offset = 0, at = 0;
    if (!resolveIndex(idx[i], data.shape().dim(static_cast<int>(axis)), &at))
      return ctx.error(outOfRange(idx[i], data.shape().dim(static_cast<int>(axis))) + " of axis " +
                       std::to_string(axis));
    for (size_t k = 0; k < coord.size(); ++k) {
      if (k != axisAt && coord[k] >= data.shape().dim(static_cast<int>(k)))
        return ctx.error("indices " + indices.shape().toString() + " exceed data " + data.shape().toString() +
                         " along axis " + std::to_string(k));
      offset += (k == axisAt ? at : coord[k]) * strides[k];
    }
    std::memcpy(dst + i * element, src + static_cast<size_t>(offset) * element, element);
    for (size_t k = coord.size(); k-- > 0;)
      if (++coord[k] < dims[k])
        break;
      else
        coord[k] = 0;
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// GatherND: the last dim of indices addresses the data's leading dims after batch_dims; each index picks a slice.
Status gatherNd(KernelContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.error("needs data and indices");
  const Tensor& data = ctx.inputs[0];
  const Tensor& indices = ctx.inputs[1];
  const Shape& ds = data.shape();
  const Shape& is = indices.shape();
  const int64_t batchDims = attrInt(ctx.node, "batch_dims", 0);
  if (is.rank() < 1 || batchDims < 0 || batchDims >= std::min(ds.rank(), is.rank()))
    return ctx.error("batch_dims " + std::to_string(batchDims) + " does not fit data " + ds.toString() +
                     " and indices " + is.toString());
  const auto b = static_cast<int>(batchDims);
  const int64_t depth = is.dim(is.rank() - 1);
  if (depth < 1 || b + depth > ds.rank())
    return ctx.error("indices' last dim " + std::to_string(depth) + " must address 1 to " +
                     std::to_string(ds.rank() - b) + " dims of data " + ds.toString());
  if (data.isStringLike()) return ctx.error("string data is not supported");
  std::vector<int64_t> dims;
  int64_t batches = 1, perBatch = 1, slice = 1;
  for (int k = 0; k < b; ++k) {
    if (ds.dim(k) != is.dim(k)) return ctx.error("data and indices differ in batch dim " + std::to_string(k));
    batches *= ds.dim(k);
    dims.push_back(ds.dim(k));
  }
  for (int k = b; k < is.rank() - 1; ++k) perBatch *= is.dim(k), dims.push_back(is.dim(k));
  for (auto k = static_cast<int>(b + depth); k < ds.rank(); ++k) slice *= ds.dim(k), dims.push_back(ds.dim(k));
  const std::vector<int64_t> idx = intValues(indices), strides = stridesOf(ds);
  const int64_t batchStride = b > 0 ? strides[static_cast<size_t>(b - 1)] : 0;
  Tensor out = Tensor::uninitialized(data.dtype(), Shape(dims));
  const auto bytes = static_cast<size_t>(slice * dtypeSize(data.dtype()));
  const auto element = static_cast<size_t>(dtypeSize(data.dtype()));
  for (int64_t n = 0; n < batches * perBatch; ++n) {
    int64_t offset = (n / perBatch) * batchStride;
    for (int64_t k = 0; k < depth; ++k) {
      const int dim = b + static_cast<int>(k);
      int64_t at = 0;
      if (!resolveIndex(idx[static_cast<size_t>(n * depth + k)], ds.dim(dim), &at))
        return ctx.error(outOfRange(idx[static_cast<size_t>(n * depth + k)], ds.dim(dim)) + " of data dim " +
                         std::to_string(dim));
      offset += at * strides[static_cast<size_t>(dim)];
    }
    std::memcpy(out.mutableBytes().data() + static_cast<size_t>(n) * bytes,
                data.bytes().data() + static_cast<size_t>(offset) * element, bytes);
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxGatherKernels(KernelTable& r) {
  r.addFn("onnx::GatherElements", gatherElements);
  r.addFn("onnx::GatherND", gatherNd);
}

}  // namespace flowscope
