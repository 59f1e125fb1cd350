// Reductions (Sum, Mean, Max, Min, Prod, All, Any), ArgMax/ArgMin, TopKV2 and Cumsum.
#include <algorithm>
#include <limits>
#include <numeric>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/running_sums.h"
#include "exec/cpu/strided_copy.h"
#include "exec/cpu/wrapping_arithmetic.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

enum class Reduce { kSum, kMean, kMax, kMin, kProd, kAll, kAny };

// Moves the reduced axes to the end so that every output element reduces one contiguous row. Where the reduced axes
// are one block with kept axes after it ([outer, len, inner], NHWC's H and W), a float Sum, Mean, Max or Min instead
// folds len rows of `inner` values into one, with no transpose.
struct ReductionLayout {
  std::vector<int64_t> outDims;  // keep_dims applied
  int64_t outCount = 1, rowLength = 1;
  int64_t blockOuter = 0, blockInner = 0;  // the [outer, len, inner] split where the reduced axes are one block
  bool needsTranspose = false;
  std::vector<int64_t> permDims, permStrides;
};

Expected<ReductionLayout> layoutFor(const Shape& shape, std::vector<int64_t> axes, bool keepDims) {
  const int rank = shape.rank();
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t n;
    if (!normalizeAxis(a, rank, &n)) return invalidArgument("reduction axis " + std::to_string(a) + " out of range");
    reduced[static_cast<size_t>(n)] = true;
  }
  ReductionLayout l;
  std::vector<int64_t> strides = stridesOf(shape);
  std::vector<int> order;
  for (int k = 0; k < rank; ++k)
    if (!reduced[static_cast<size_t>(k)]) order.push_back(k);
  for (int k = 0; k < rank; ++k)
    if (reduced[static_cast<size_t>(k)]) order.push_back(k);
  for (int k = 0; k < rank; ++k) {
    if (!reduced[static_cast<size_t>(k)]) {
      l.outDims.push_back(shape.dim(k));
      l.outCount *= shape.dim(k);
    } else {
      if (keepDims) l.outDims.push_back(1);
      l.rowLength *= shape.dim(k);
    }
  }
  for (size_t i = 0; i < order.size(); ++i) l.needsTranspose |= order[i] != static_cast<int>(i);
  const auto first = std::find(reduced.begin(), reduced.end(), true);
  const auto last = std::find(reduced.rbegin(), reduced.rend(), true).base();
  if (l.needsTranspose && std::all_of(first, last, [](bool r) { return r; })) {
    l.blockOuter = l.blockInner = 1;
    for (int k = 0; k < rank; ++k) {
      if (reduced.begin() + k < first) l.blockOuter *= shape.dim(k);
      if (reduced.begin() + k >= last) l.blockInner *= shape.dim(k);
    }
  }
  for (int k : order) {
    l.permDims.push_back(shape.dim(k));
    l.permStrides.push_back(strides[static_cast<size_t>(k)]);
  }
  return l;
}

template <Reduce R, typename T>
T reduceRow(const T* row, int64_t n) {
  if constexpr (R == Reduce::kSum || R == Reduce::kMean) {
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    if constexpr (std::is_same_v<T, float>) {  // float: vectorizable float accumulation in 8 lanes
      float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      int64_t i = 0;
      for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) lanes[k] += row[i + k];
      float s = 0;
      for (; i < n; ++i) s += row[i];
      for (float v : lanes) s += v;
      if constexpr (R == Reduce::kMean) return n ? s / static_cast<float>(n) : std::numeric_limits<float>::quiet_NaN();
      return s;
    } else {
      Acc s = 0;
      for (int64_t i = 0; i < n; ++i) s = wrappingAdd(s, static_cast<Acc>(row[i]));
      if constexpr (R == Reduce::kMean) return n ? static_cast<T>(s / static_cast<Acc>(n)) : T(0);
      return static_cast<T>(s);
    }
  } else if constexpr (R == Reduce::kProd) {
    T p = 1;
    for (int64_t i = 0; i < n; ++i) p = wrappingMul(p, row[i]);
    return p;
  } else if constexpr (R == Reduce::kMax) {
    T m = std::numeric_limits<T>::lowest();
    for (int64_t i = 0; i < n; ++i) m = row[i] > m ? row[i] : m;
    return m;
  } else if constexpr (R == Reduce::kMin) {
    T m = std::numeric_limits<T>::max();
    for (int64_t i = 0; i < n; ++i) m = row[i] < m ? row[i] : m;
    return m;
  } else if constexpr (R == Reduce::kAll) {
    for (int64_t i = 0; i < n; ++i)
      if (!row[i]) return T(0);
    return T(1);
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (row[i]) return T(1);
    return T(0);
  }
}

// The block form: out[o, i] = R over j of x[o, j, i] (float Sum, Mean, Max, Min; NaNs as reduceRow treats them).
// The work is split into chunks of kChunk values of `inner`, each folded over the len rows in a fixed-size array the
// compiler keeps in registers, so that a global average pool at batch 1 (MobileNetV2's 7x7x1280) loads each input
// once and stores each sum once, and its channels are shared among the threads.
constexpr int64_t kChunk = 32;

template <Reduce R>
inline float combined(float acc, float v) {
  if constexpr (R == Reduce::kMax) return v > acc ? v : acc;
  if constexpr (R == Reduce::kMin) return v < acc ? v : acc;
  return acc + v;
}

// One chunk of `width` values (Whole: kChunk, known at compile time so that the loop unrolls over registers).
template <Reduce R, bool Whole>
void reduceChunk(const float* in, int64_t len, int64_t inner, int64_t width, float* out) {
  const float start = R == Reduce::kMax   ? std::numeric_limits<float>::lowest()
                      : R == Reduce::kMin ? std::numeric_limits<float>::max()
                                          : 0.0f;
  float acc[kChunk];
  std::fill(acc, acc + kChunk, start);
  for (int64_t j = 0; j < len; ++j)
    for (int64_t i = 0; i < (Whole ? kChunk : width); ++i) acc[i] = combined<R>(acc[i], in[j * inner + i]);
  for (int64_t i = 0; i < width; ++i)
    out[i] = R != Reduce::kMean ? acc[i]
             : len              ? acc[i] / static_cast<float>(len)
                                : std::numeric_limits<float>::quiet_NaN();
}

template <Reduce R>
void reduceBlock(const float* in, const ReductionLayout& l, float* out) {
  const int64_t len = l.rowLength, inner = l.blockInner, chunks = (inner + kChunk - 1) / kChunk;
  parallelFor(l.blockOuter * chunks, len * kChunk, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / chunks, i0 = t % chunks * kChunk, width = std::min(kChunk, inner - i0);
      const float* from = in + o * len * inner + i0;
      if (width == kChunk)
        reduceChunk<R, true>(from, len, inner, width, out + o * inner + i0);
      else
        reduceChunk<R, false>(from, len, inner, width, out + o * inner + i0);
    }
  });
}

template <Reduce R>
Status reduce(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  auto layout = layoutFor(x.shape(), intValues(ctx.inputs[1]), attrBool(ctx.node, "keep_dims", false));
  if (!layout) return ctx.error(layout.status().message());
  const ReductionLayout& l = *layout;
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(l.outDims));
  bool logical = R == Reduce::kAll || R == Reduce::kAny;
  if (logical != (x.dtype() == DType::kBool))
    return ctx.error("unsupported dtype " + std::string(dtypeName(x.dtype())));
  if constexpr (R == Reduce::kSum || R == Reduce::kMean || R == Reduce::kMax || R == Reduce::kMin) {
    if (x.dtype() == DType::kFloat && l.blockOuter > 0) {
      reduceBlock<R>(x.data<float>(), l, out.data<float>());
      ctx.outputs[0] = std::move(out);
      return Status::ok();
    }
  }
  Status status;
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using V = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        Tensor source = x;
        if (l.needsTranspose) {
          source = Tensor::uninitialized(x.dtype(), x.shape());
          stridedCopy(x.data<V>(), 0, l.permStrides, l.permDims, source.data<V>());
        }
        const V* in = source.data<V>();
        V* o = out.data<V>();
        parallelFor(l.outCount, l.rowLength, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) o[i] = reduceRow<R, V>(in + i * l.rowLength, l.rowLength);
        });
      }))
    return ctx.error("unsupported dtype " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return status;
}

template <bool Max>
Status argReduce(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis;
  if (!scalarInt(ctx.inputs[1], &axis) || !normalizeAxis(axis, x.shape().rank(), &axis))
    return ctx.error("dimension must be a scalar in range");
  if (x.shape().dim(static_cast<int>(axis)) == 0) return ctx.error("Reduction axis is empty");
  auto layout = layoutFor(x.shape(), {axis}, false);
  DType outType = attrType(ctx.node, "output_type", DType::kInt64);
  Tensor out = Tensor::uninitialized(outType, Shape(layout->outDims));
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor source = x;
        if (layout->needsTranspose) {
          source = Tensor::uninitialized(x.dtype(), x.shape());
          stridedCopy(x.data<T>(), 0, layout->permStrides, layout->permDims, source.data<T>());
        }
        for (int64_t i = 0; i < layout->outCount; ++i) {
          const T* row = source.data<T>() + i * layout->rowLength;
          int64_t best = 0;
          for (int64_t j = 1; j < layout->rowLength; ++j)
            if (Max ? row[j] > row[best] : row[j] < row[best]) best = j;
          if (outType == DType::kInt32)
            out.data<int32_t>()[i] = static_cast<int32_t>(best);
          else
            out.data<int64_t>()[i] = best;
        }
      }))
    return ctx.error("unsupported dtype");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status topK(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t k;
  if (!scalarInt(ctx.inputs[1], &k) || k < 0) return ctx.error("k must be a non-negative scalar");
  if (x.shape().rank() < 1 || x.shape().dims().back() < k)
    return ctx.error("input must have at least k=" + std::to_string(k) + " columns, got " + x.shape().toString());
  const int64_t cols = x.shape().dims().back();
  const int64_t rows = cols ? x.numElements() / cols : 0;
  std::vector<int64_t> dims = x.shape().dims();
  dims.back() = k;
  Tensor values = Tensor::uninitialized(x.dtype(), Shape(dims));
  Tensor indices = Tensor::uninitialized(DType::kInt32, Shape(dims));
  std::vector<int32_t> order(static_cast<size_t>(cols));
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t r = 0; r < rows; ++r) {
          const T* row = x.data<T>() + r * cols;
          std::iota(order.begin(), order.end(), 0);
          std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
            return row[a] > row[b] || (row[a] == row[b] && a < b);  // ties: lower index first
          });
          for (int64_t j = 0; j < k; ++j) {
            values.data<T>()[r * k + j] = row[order[static_cast<size_t>(j)]];
            indices.data<int32_t>()[r * k + j] = order[static_cast<size_t>(j)];
          }
        }
      }))
    return ctx.error("unsupported dtype");
  ctx.outputs[0] = std::move(values);
  ctx.outputs[1] = std::move(indices);
  return Status::ok();
}

Status cumsum(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis;
  if (!scalarInt(ctx.inputs[1], &axis) || !normalizeAxis(axis, x.shape().rank(), &axis))
    return ctx.error("axis out of range");
  auto sums = runningSums(x, static_cast<int>(axis), attrBool(ctx.node, "exclusive", false),
                          attrBool(ctx.node, "reverse", false));
  if (!sums) return ctx.error(sums.status().message());
  ctx.outputs[0] = std::move(*sums);
  return Status::ok();
}

}  // namespace

void registerReductionKernels(KernelTable& r) {
  r.addFn("Sum", reduce<Reduce::kSum>);
  r.addFn("Mean", reduce<Reduce::kMean>);
  r.addFn("Max", reduce<Reduce::kMax>);
  r.addFn("Min", reduce<Reduce::kMin>);
  r.addFn("Prod", reduce<Reduce::kProd>);
  r.addFn("All", reduce<Reduce::kAll>);
  r.addFn("Any", reduce<Reduce::kAny>);
  r.addFn("ArgMax", argReduce<true>);
  r.addFn("ArgMin", argReduce<false>);
  r.addFn("TopKV2", topK);
  r.addFn("Cumsum", cumsum);
}

}  // namespace flowscope
