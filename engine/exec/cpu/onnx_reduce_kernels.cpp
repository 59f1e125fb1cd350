// The ONNX reductions that TensorFlow has no single kernel for: ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and
// ReduceLogSumExp (ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceProd run as TensorFlow's, in
// onnx_nn_kernels.cpp). A strided copy moves the reduced axes last, so that each output element folds one contiguous
// row; the folds sum in double.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/strided_copy.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

enum class Fold { kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

// log(sum(exp(v))) with the largest value taken out first, so that no exp overflows; -inf for no values.
template <typename T>
double logSumExp(const T* row, int64_t n) {
  double top = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(static_cast<double>(row[i]))) return static_cast<double>(row[i]);
    top = std::max(top, static_cast<double>(row[i]));
  }
  if (std::isinf(top)) return top;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(row[i]) - top);
  return top + std::log(sum);
}

template <typename T>
double fold(Fold f, const T* row, int64_t n) {
  if (f == Fold::kLogSumExp) return logSumExp(row, n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const auto v = static_cast<double>(row[i]);
    sum += f == Fold::kL1 ? std::abs(v) : (f == Fold::kLogSum ? v : v * v);
  }
  return f == Fold::kL2 ? std::sqrt(sum) : (f == Fold::kLogSum ? std::log(sum) : sum);
}

// The reduced axes: the attr, or input 1 from opset 18 on; none means all, unless noop_with_empty_axes.
Expected<std::vector<bool>> reducedAxes(const KernelContext& ctx, int rank) {
  std::vector<int64_t> axes = attrInts(ctx.node, "axes");
  if (onnxOpset(ctx.node, 18) >= 18)
    if (const Tensor* t = onnxInput(ctx, 1)) axes = intValues(*t);
  std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty() && !attrInt(ctx.node, "noop_with_empty_axes", 0));
  for (int64_t axis : axes) {
    int64_t a = 0;
    if (!normalizeAxis(axis, rank, &a))
      return invalidArgument("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    reduced[static_cast<size_t>(a)] = true;
  }
  return reduced;
}

template <Fold F>
Status reduceFold(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  auto reduced = reducedAxes(ctx, rank);
  if (!reduced) return ctx.error(reduced.status().message());
  if (std::none_of(reduced->begin(), reduced->end(), [](bool r) { return r; })) {  // noop_with_empty_axes
    ctx.outputs[0] = x;
    return Status::ok();
  }
  const bool keep = attrInt(ctx.node, "keepdims", 1) != 0;
  const std::vector<int64_t> inStrides = stridesOf(x.shape());
  std::vector<int64_t> dims, strides, outDims;  // the kept axes in order, then the reduced ones
  int64_t rowLength = 1;
  for (bool last : {false, true})
    for (int i = 0; i < rank; ++i)
      if ((*reduced)[static_cast<size_t>(i)] == last) {
        dims.push_back(x.shape().dim(i));
        strides.push_back(inStrides[static_cast<size_t>(i)]);
        if (last) rowLength *= x.shape().dim(i);
      }
  for (int i = 0; i < rank; ++i)
    if (!(*reduced)[static_cast<size_t>(i)] || keep)
      outDims.push_back((*reduced)[static_cast<size_t>(i)] ? 1 : x.shape().dim(i));
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(outDims));
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> rows(static_cast<size_t>(x.numElements()));
    if (!rows.empty()) stridedCopy(x.data<T>(), 0, strides, dims, rows.data());
    T* o = out.data<T>();
    parallelFor(out.numElements(), rowLength * 4 + 1, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) o[r] = static_cast<T>(fold(F, rows.data() + r * rowLength, rowLength));
    });
  });
  if (!ok) return ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxReduceKernels(KernelTable& r) {
  r.add("onnx::ReduceL1", withInputs(1, reduceFold<Fold::kL1>));
  r.add("onnx::ReduceL2", withInputs(1, reduceFold<Fold::kL2>));
  r.add("onnx::ReduceSumSquare", withInputs(1, reduceFold<Fold::kSumSquare>));
  r.add("onnx::ReduceLogSum", withInputs(1, reduceFold<Fold::kLogSum>));
  r.add("onnx::ReduceLogSumExp", withInputs(1, reduceFold<Fold::kLogSumExp>));
}

}  // namespace flowscope
