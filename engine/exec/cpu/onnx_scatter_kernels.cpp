// ONNX scatters: ScatterElements (and the older Scatter) and ScatterND write updates into a copy of the data at the
// positions the indices give, replacing them or (opset 16's reduction attr) adding or multiplying into them.
#include <type_traits>

#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/wrapping_arithmetic.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

enum class Reduction { kNone, kAdd, kMul };

Expected<Reduction> reductionOf(const Node& node) {
  const std::string r = attrString(node, "reduction", "none");
  if (r == "none") return Reduction::kNone;
  if (r == "add") return Reduction::kAdd;
  if (r == "mul") return Reduction::kMul;
  return invalidArgument("reduction '" + r + "' is not none, add or mul");
}

template <typename T>
void combine(T& target, T update, Reduction r) {
  if constexpr (std::is_same_v<T, bool>) {
    target = r == Reduction::kNone ? update : (r == Reduction::kAdd ? (target || update) : (target && update));
  } else {
    target = r == Reduction::kNone ? update
                                   : (r == Reduction::kAdd ? wrappingAdd(target, update) : wrappingMul(target, update));
  }
}

// An index read from an int32 or int64 tensor, negative ones counted from the end of a dim of size `dim`; false when
// it is outside.
bool indexAt(const Tensor& indices, int64_t i, int64_t dim, int64_t* out) {
  int64_t v = indices.dtype() == DType::kInt32 ? indices.data<int32_t>()[i] : indices.data<int64_t>()[i];
  if (v < 0) v += dim;
  *out = v;
  return v >= 0 && v < dim;
}

Status scatterElements(KernelContext& ctx) {
  const Tensor &data = ctx.inputs[0], &indices = ctx.inputs[1], &updates = ctx.inputs[2];
  const int rank = data.shape().rank();
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", 0), rank, &axis)) return ctx.error("axis out of range");
  if (indices.shape() != updates.shape() || indices.shape().rank() != rank ||
      (indices.dtype() != DType::kInt32 && indices.dtype() != DType::kInt64) || updates.dtype() != data.dtype() ||
      data.isStringLike())
    return ctx.error("expects int32 or int64 indices and updates of one shape, of the data's rank and dtype");
  for (int d = 0; d < rank; ++d)
    if (d != axis && indices.shape().dim(d) > data.shape().dim(d))
      return ctx.error("indices " + indices.shape().toString() + " reach outside data " + data.shape().toString());
  auto reduction = reductionOf(ctx.node);
  if (!reduction) return ctx.error(reduction.status().message());
  const std::vector<int64_t> strides = stridesOf(data.shape());
  Tensor out = data.clone();
  Status status;
  const bool ok = dispatchNumeric(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < indices.numElements() && status.isOk(); ++i) {
      int64_t target = 0;
      int64_t rest = i;
      for (int d = rank - 1; d >= 0; --d) {
        int64_t coordinate = rest % indices.shape().dim(d);
        rest /= indices.shape().dim(d);
        if (d == axis && !indexAt(indices, i, data.shape().dim(d), &coordinate))
          status = ctx.error("index " + std::to_string(coordinate) + " is out of range");
        target += coordinate * strides[static_cast<size_t>(d)];
      }
      if (status.isOk()) combine(out.data<T>()[target], updates.data<T>()[i], *reduction);
    }
  });
  if (!ok) return ctx.error("cannot scatter " + std::string(dtypeName(data.dtype())));
  FS_RETURN_IF_ERROR(status);
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status scatterNd(KernelContext& ctx) {
  const Tensor &data = ctx.inputs[0], &indices = ctx.inputs[1], &updates = ctx.inputs[2];
  const int rank = data.shape().rank(), q = indices.shape().rank();
  const int64_t k = q > 0 ? indices.shape().dim(q - 1) : 0;
  if (q < 1 || k > rank || (indices.dtype() != DType::kInt32 && indices.dtype() != DType::kInt64) ||
      updates.dtype() != data.dtype() || data.isStringLike())
    return ctx.error("expects int64 indices whose last dim is at most the data's rank, and updates of its dtype");
  std::vector<int64_t> want(indices.shape().dims().begin(), indices.shape().dims().end() - 1);
  want.insert(want.end(), data.shape().dims().begin() + k, data.shape().dims().end());
  if (updates.shape() != Shape(want)) return ctx.error("updates must be " + Shape(want).toString());
  auto reduction = reductionOf(ctx.node);
  if (!reduction) return ctx.error(reduction.status().message());
  const std::vector<int64_t> strides = stridesOf(data.shape());
  int64_t slice = 1;
  for (int d = static_cast<int>(k); d < rank; ++d) slice *= data.shape().dim(d);
  int64_t tuples = 1;  // the index tuples: every position of indices but its last axis
  for (int d = 0; d + 1 < q; ++d) tuples *= indices.shape().dim(d);
  Tensor out = data.clone();
  Status status;
  const bool ok = dispatchNumeric(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t t = 0; t < tuples && status.isOk(); ++t) {
      int64_t base = 0;
      for (int64_t j = 0; j < k && status.isOk(); ++j) {
        int64_t coordinate = 0;
        if (!indexAt(indices, t * k + j, data.shape().dim(static_cast<int>(j)), &coordinate))
          status = ctx.error("index tuple " + std::to_string(t) + " is out of range");
        base += coordinate * strides[static_cast<size_t>(j)];
      }
      for (int64_t e = 0; e < slice && status.isOk(); ++e)
        combine(out.data<T>()[base + e], updates.data<T>()[t * slice + e], *reduction);
    }
  });
  if (!ok) return ctx.error("cannot scatter " + std::string(dtypeName(data.dtype())));
  FS_RETURN_IF_ERROR(status);
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxScatterKernels(KernelTable& r) {
  r.add("onnx::ScatterElements", withInputs(3, scatterElements));
  r.add("onnx::Scatter", withInputs(3, scatterElements));
  r.add("onnx::ScatterND", withInputs(3, scatterNd));
}

}  // namespace flowscope
