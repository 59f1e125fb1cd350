// ONNX ops that pick or place elements by index or condition: TopK, NonZero, OneHot, Hardmax, Compress,
// ReverseSequence, and the masks Trilu and EyeLike.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

// a before b in descending order; NaN is larger than any number, and equal values keep their index order.
template <typename T>
bool above(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && !std::isnan(b);
  }
  return a > b;
}

// TopK: the k largest (or smallest) values along an axis and their indices, sorted, the lower index first on ties.
Status topK(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", -1), x.shape().rank(), &axis)) return ctx.error("axis out of range");
  const Tensor* kInput = onnxInput(ctx, 1);
  if (kInput && kInput->numElements() != 1) return ctx.error("K must hold one value");
  const int64_t k = kInput ? intValues(*kInput)[0] : attrInt(ctx.node, "k", 0);
  const AxisSplit s = splitAt(x.shape(), axis);
  if (k < 0 || k > s.length)
    return ctx.error("K " + std::to_string(k) + " is not in [0, " + std::to_string(s.length) + "]");
  const bool largest = attrInt(ctx.node, "largest", 1) != 0;
  std::vector<int64_t> dims = x.shape().dims();
  dims[static_cast<size_t>(axis)] = k;
  Tensor values = Tensor::uninitialized(x.dtype(), Shape(dims)), indices(DType::kInt64, Shape(dims));
  const bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>();
    parallelFor(s.outer * s.inner, s.length * 8, [&](int64_t b, int64_t e) {
      std::vector<int64_t> order(static_cast<size_t>(s.length));
      for (int64_t slice = b; slice < e; ++slice) {
        const int64_t o = slice / s.inner, i = slice % s.inner, first = o * s.length * s.inner + i;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t p, int64_t q) {
          const T a = in[first + p * s.inner], c = in[first + q * s.inner];
          return largest ? (above(a, c) || (!above(c, a) && p < q)) : (above(c, a) || (!above(a, c) && p < q));
        });
        for (int64_t j = 0; j < k; ++j) {
          const int64_t at = (o * k + j) * s.inner + i;
          values.data<T>()[at] = in[first + order[static_cast<size_t>(j)] * s.inner];
          indices.data<int64_t>()[at] = order[static_cast<size_t>(j)];
        }
      }
    });
  });
  if (!ok) return ctx.error("cannot sort " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(values);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(indices);
  return Status::ok();
}

// NonZero: the coordinates of the elements that are not zero, as int64 [rank, count], in row-major order.
Status nonZero(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  std::vector<int64_t> found;
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (x.elementAsDouble(i) != 0) found.push_back(i);
  const auto count = static_cast<int64_t>(found.size());
  Tensor out(DType::kInt64, Shape{rank, count});
  for (int64_t j = 0; j < count; ++j)
    for (int64_t d = rank - 1, rest = found[static_cast<size_t>(j)]; d >= 0; --d) {
      out.data<int64_t>()[d * count + j] = rest % x.shape().dim(static_cast<int>(d));
      rest /= x.shape().dim(static_cast<int>(d));
    }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// OneHot: a new axis of `depth` values, on_value where it equals the index (negative indices count from the end),
// off_value elsewhere.
Status oneHot(KernelContext& ctx) {
  const Tensor& indices = ctx.inputs[0];
  const Tensor& values = ctx.inputs[2];
  if (ctx.inputs[1].numElements() != 1 || values.numElements() != 2 || values.isStringLike())
    return ctx.error("expects a scalar depth and numeric values [off_value, on_value]");
  const double depthValue = ctx.inputs[1].elementAsDouble(0);
  if (!std::isfinite(depthValue) || depthValue < 0 || depthValue > 1e15)
    return ctx.error("depth " + std::to_string(depthValue) + " is not a size");
  const auto depth = static_cast<int64_t>(depthValue);
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", -1), indices.shape().rank() + 1, &axis))
    return ctx.error("axis out of range");
  std::vector<int64_t> dims = indices.shape().dims();
  dims.insert(dims.begin() + axis, depth);
  if (auto bytes = Tensor::checkedByteSize(values.dtype(), Shape(dims), kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor out = Tensor::uninitialized(values.dtype(), Shape(dims));
  const AxisSplit s = splitAt(out.shape(), axis);
  const size_t size = static_cast<size_t>(dtypeSize(values.dtype()));
  const std::byte* off = values.bytes().data();
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t d = 0; d < depth; ++d)
      for (int64_t i = 0; i < s.inner; ++i) {
        const double value = indices.elementAsDouble(o * s.inner + i);
        auto index = std::isfinite(value) && std::abs(value) <= 1e15 ? static_cast<int64_t>(value) : depth;
        if (index < 0) index += depth;
        std::copy_n(off + (index == d ? size : 0), size,
                    out.mutableBytes().data() + static_cast<size_t>((o * depth + d) * s.inner + i) * size);
      }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Hardmax: 1 at the first largest value along the axis (opset 13), or along each row of the input flattened to 2-D
// at the axis (before), 0 elsewhere.
Status hardmax(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const bool v13 = onnxOpset(ctx.node, 13) >= 13;
  int64_t axis = 0;
  if (!normalizeAxis(attrInt(ctx.node, "axis", v13 ? -1 : 1), x.shape().rank(), &axis))
    return ctx.error("axis out of range");
  AxisSplit s = splitAt(x.shape(), axis);
  if (!v13) s = {s.outer, s.length * s.inner, 1};
  Tensor out(x.dtype(), x.shape());
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t first = o * s.length * s.inner + i;
        int64_t best = 0;
        for (int64_t j = 1; j < s.length; ++j)
          if (above(x.data<T>()[first + j * s.inner], x.data<T>()[first + best * s.inner])) best = j;
        if (s.length > 0) out.data<T>()[first + best * s.inner] = T(1);
      }
  });
  if (!ok) return ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Trilu: the upper (j - i >= k) or lower (j - i <= k) triangle of each matrix in the last two axes, zeros elsewhere.
Status trilu(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  if (rank < 2) return ctx.error("expects at least 2 axes, got " + x.shape().toString());
  const Tensor* kInput = onnxInput(ctx, 1);
  if (kInput && kInput->numElements() != 1) return ctx.error("k must hold one value");
  if (x.isStringLike()) return ctx.error("does not take string tensors");
  const int64_t k = kInput ? intValues(*kInput)[0] : 0;
  const bool upper = attrInt(ctx.node, "upper", 1) != 0;
  const int64_t rows = x.shape().dim(rank - 2), cols = x.shape().dim(rank - 1);
  const auto size = static_cast<size_t>(dtypeSize(x.dtype()));
  Tensor out(x.dtype(), x.shape());
  const int64_t matrices = rows * cols > 0 ? x.numElements() / (rows * cols) : 0;
  for (int64_t m = 0; m < matrices; ++m)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        if (upper ? j - i >= k : j - i <= k) {
          const size_t at = static_cast<size_t>((m * rows + i) * cols + j) * size;
          std::copy_n(x.bytes().data() + at, size, out.mutableBytes().data() + at);
        }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// EyeLike: ones on the diagonal k of a matrix shaped as the input, of the dtype attr or else the input's.
Status eyeLike(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.shape().rank() != 2) return ctx.error("expects a 2-D input, got " + x.shape().toString());
  DType dtype = x.dtype();
  if (ctx.node.attr("dtype")) {
    auto d = onnxDTypeAttr(ctx.node, "dtype");
    if (!d) return ctx.error(d.status().message());
    dtype = *d;
  }
  const int64_t rows = x.shape().dim(0), cols = x.shape().dim(1), k = attrInt(ctx.node, "k", 0);
  Tensor out(dtype, x.shape());
  const bool ok = dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i) out.data<T>()[i * cols + i + k] = T(1);
  });
  if (!ok) return ctx.error("cannot make " + std::string(dtypeName(dtype)) + " ones");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Compress: the slices along `axis` (or the elements of the flattened input, without one) whose condition is true;
// the condition may be shorter than the axis (the rest are dropped).
Status compress(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& condition = ctx.inputs[1];
  const bool flat = !ctx.node.attr("axis");
  int64_t axis = 0;
  if (!flat && !normalizeAxis(attrInt(ctx.node, "axis", 0), x.shape().rank(), &axis))
    return ctx.error("axis out of range");
  if (x.isStringLike()) return ctx.error("does not take string tensors");
  const AxisSplit s = flat ? AxisSplit{1, x.numElements(), 1} : splitAt(x.shape(), axis);
  if (condition.shape().rank() != 1 || condition.numElements() > s.length)
    return ctx.error("condition must be 1-D and at most " + std::to_string(s.length) + " long");
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < condition.numElements(); ++i)
    if (condition.elementAsDouble(i) != 0) kept.push_back(i);
  std::vector<int64_t> dims = flat ? std::vector<int64_t>{0} : x.shape().dims();
  dims[flat ? 0 : static_cast<size_t>(axis)] = static_cast<int64_t>(kept.size());
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(dims));
  const size_t row = static_cast<size_t>(s.inner * dtypeSize(x.dtype()));
  for (int64_t o = 0; o < s.outer; ++o)
    for (size_t j = 0; j < kept.size(); ++j)
      std::copy_n(x.bytes().data() + static_cast<size_t>(o * s.length + kept[j]) * row, row,
                  out.mutableBytes().data() + (static_cast<size_t>(o) * kept.size() + j) * row);
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// ReverseSequence: each batch entry's first sequence_lens[b] steps along time_axis reversed, the rest as they are.
Status reverseSequence(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const std::vector<int64_t> lens = intValues(ctx.inputs[1]);
  const int64_t batchAxis = attrInt(ctx.node, "batch_axis", 1), timeAxis = attrInt(ctx.node, "time_axis", 0);
  if (x.shape().rank() < 2 || std::min(batchAxis, timeAxis) < 0 || std::max(batchAxis, timeAxis) > 1 ||
      batchAxis == timeAxis)
    return ctx.error("expects batch_axis and time_axis 0 and 1, in either order, of an input of rank 2 or more");
  if (x.isStringLike()) return ctx.error("does not take string tensors");
  const int64_t batch = x.shape().dim(static_cast<int>(batchAxis)), steps = x.shape().dim(static_cast<int>(timeAxis));
  if (static_cast<int64_t>(lens.size()) != batch) return ctx.error("sequence_lens must have one value per batch entry");
  const int64_t entries = batch * steps, inner = entries > 0 ? x.numElements() / entries : 0;
  const size_t size = static_cast<size_t>(inner * dtypeSize(x.dtype()));
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  for (int64_t b = 0; b < batch; ++b) {
    if (lens[static_cast<size_t>(b)] < 0 || lens[static_cast<size_t>(b)] > steps)
      return ctx.error("sequence_lens[" + std::to_string(b) + "] is outside [0, " + std::to_string(steps) + "]");
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t from = t < lens[static_cast<size_t>(b)] ? lens[static_cast<size_t>(b)] - 1 - t : t;
      auto at = [&](int64_t step) {
        return static_cast<size_t>(timeAxis == 0 ? step * batch + b : b * steps + step) * size;
      };
      std::copy_n(x.bytes().data() + at(from), size, out.mutableBytes().data() + at(t));
    }
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxIndexKernels(KernelTable& r) {
  r.add("onnx::Compress", withInputs(2, compress));
  r.add("onnx::ReverseSequence", withInputs(2, reverseSequence));
  r.add("onnx::TopK", withInputs(1, topK));
  r.add("onnx::NonZero", withInputs(1, nonZero));
  r.add("onnx::OneHot", withInputs(3, oneHot));
  r.add("onnx::Hardmax", withInputs(1, hardmax));
  r.add("onnx::Trilu", withInputs(1, trilu));
  r.add("onnx::EyeLike", withInputs(1, eyeLike));
}

}  // namespace flowscope
