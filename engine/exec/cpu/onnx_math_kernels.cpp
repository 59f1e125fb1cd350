// ONNX math ops that TensorFlow's kernels do not cover one to one: CumSum, Xor, BitShift, IsInf, Shrink, Det and
// CastLike.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/running_sums.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// CumSum: running sums along an axis (input 1), optionally exclusive (each sum leaves its own element out) and
// reversed (from the end).
Status cumSum(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (ctx.inputs[1].numElements() != 1) return ctx.error("axis must be a scalar");
  int64_t axis = 0;
  if (!normalizeAxis(intValues(ctx.inputs[1])[0], x.shape().rank(), &axis)) return ctx.error("axis out of range");
  const bool exclusive = attrInt(ctx.node, "exclusive", 0) != 0, reverse = attrInt(ctx.node, "reverse", 0) != 0;
  auto sums = runningSums(x, static_cast<int>(axis), exclusive, reverse);
  if (!sums) return ctx.error(sums.status().message());
  ctx.outputs[0] = std::move(*sums);
  return Status::ok();
}

// A broadcast elementwise op of two inputs of one dtype, out[i] = f(a, b), of the output dtype `Out`.
template <typename In, typename Out, typename F>
Tensor broadcastBinary(const Tensor& a, const Tensor& b, DType outType, const Shape& shape, const BroadcastPlan& plan,
                       F&& f) {
  Tensor out = Tensor::uninitialized(outType, shape);
  const In* pa = a.data<In>();
  const In* pb = b.data<In>();
  Out* o = out.data<Out>();
  forEachRunInParallel(plan, 1, [&](int64_t at, int64_t len, const int64_t* offset, const int64_t* step) {
    for (int64_t i = 0; i < len; ++i) o[at + i] = f(pa[offset[0] + i * step[0]], pb[offset[1] + i * step[1]]);
  });
  return out;
}

Expected<std::pair<Shape, BroadcastPlan>> plan2(const KernelContext& ctx) {
  std::pair<Shape, BroadcastPlan> p;
  if (ctx.inputs[0].dtype() != ctx.inputs[1].dtype()) return invalidArgument("the inputs' dtypes differ");
  if (!planBroadcast({ctx.inputs[0].shape(), ctx.inputs[1].shape()}, &p.first, &p.second))
    return invalidArgument(ctx.inputs[0].shape().toString() + " and " + ctx.inputs[1].shape().toString() +
                           " do not broadcast");
  return p;
}

Status logicalXor(KernelContext& ctx) {
  auto p = plan2(ctx);
  if (!p) return ctx.error(p.status().message());
  if (ctx.inputs[0].dtype() != DType::kBool) return ctx.error("runs on bool");
  ctx.outputs[0] =
      broadcastBinary<uint8_t, uint8_t>(ctx.inputs[0], ctx.inputs[1], DType::kBool, p->first, p->second,
                                        [](uint8_t a, uint8_t b) { return uint8_t((a != 0) != (b != 0)); });
  return Status::ok();
}

// BitShift: unsigned integers shifted LEFT or RIGHT (the direction attr) by the second input's counts; a count of the
// type's width or more gives 0.
Status bitShift(KernelContext& ctx) {
  auto p = plan2(ctx);
  if (!p) return ctx.error(p.status().message());
  const std::string direction = attrString(ctx.node, "direction", "");
  if (direction != "LEFT" && direction != "RIGHT") return ctx.error("direction must be LEFT or RIGHT");
  const bool left = direction == "LEFT";
  Tensor out;
  const bool ok = dispatchNumeric(ctx.inputs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
      out = broadcastBinary<T, T>(ctx.inputs[0], ctx.inputs[1], ctx.inputs[0].dtype(), p->first, p->second,
                                  [left](T v, T n) {
                                    if (n >= sizeof(T) * 8) return T(0);
                                    return static_cast<T>(left ? v << n : v >> n);
                                  });
    }
  });
  if (!ok || !out.isValid())
    return ctx.error("runs on unsigned integers, got " + std::string(dtypeName(ctx.inputs[0].dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// IsInf: true for infinities of the signs detect_positive and detect_negative ask for.
Status isInf(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const bool positive = attrInt(ctx.node, "detect_positive", 1) != 0;
  const bool negative = attrInt(ctx.node, "detect_negative", 1) != 0;
  Tensor out(DType::kBool, x.shape());
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < x.numElements(); ++i) {
      const T v = x.data<T>()[i];
      out.data<uint8_t>()[i] = std::isinf(v) && (v > 0 ? positive : negative);
    }
  });
  if (!ok) return ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Shrink: x - bias above lambd, x + bias below -lambd, 0 between.
Status shrink(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const double lambd = attrFloat(ctx.node, "lambd", 0.5f), bias = attrFloat(ctx.node, "bias", 0.0f);
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < x.numElements(); ++i) {
      const auto v = static_cast<double>(x.data<T>()[i]);
      const double y = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
      out.data<T>()[i] = static_cast<T>(std::clamp<double>(y, static_cast<double>(std::numeric_limits<T>::lowest()),
                                                           static_cast<double>(std::numeric_limits<T>::max())));
    }
  });
  if (!ok) return ctx.error("cannot shrink " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Det: the determinant of each matrix in the last two axes, by LU decomposition with partial pivoting in double.
Status det(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  if (rank < 2 || x.shape().dim(rank - 1) != x.shape().dim(rank - 2))
    return ctx.error("expects square matrices in the last two axes, got " + x.shape().toString());
  const int64_t n = x.shape().dim(rank - 1);
  int64_t matrices = 1;  // the leading dims' product (the determinant of a 0 x 0 matrix is 1)
  for (int d = 0; d + 2 < rank; ++d) matrices *= x.shape().dim(d);
  Tensor out(x.dtype(), Shape(std::vector<int64_t>(x.shape().dims().begin(), x.shape().dims().end() - 2)));
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> a(static_cast<size_t>(n * n));
    for (int64_t m = 0; m < matrices; ++m) {
      for (int64_t i = 0; i < n * n; ++i) a[static_cast<size_t>(i)] = static_cast<double>(x.data<T>()[m * n * n + i]);
      double d = 1;
      for (int64_t c = 0; c < n && d != 0; ++c) {
        int64_t pivot = c;
        for (int64_t r = c + 1; r < n; ++r)
          if (std::abs(a[static_cast<size_t>(r * n + c)]) > std::abs(a[static_cast<size_t>(pivot * n + c)])) pivot = r;
        if (pivot != c) {
          for (int64_t k = 0; k < n; ++k)
            std::swap(a[static_cast<size_t>(c * n + k)], a[static_cast<size_t>(pivot * n + k)]);
          d = -d;
        }
        const double p = a[static_cast<size_t>(c * n + c)];
        d *= p;
        if (p == 0) break;
        for (int64_t r = c + 1; r < n; ++r) {
          const double f = a[static_cast<size_t>(r * n + c)] / p;
          for (int64_t k = c; k < n; ++k) a[static_cast<size_t>(r * n + k)] -= f * a[static_cast<size_t>(c * n + k)];
        }
      }
      out.data<T>()[m] = static_cast<T>(d);
    }
  });
  if (!ok) return ctx.error("runs on float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxMathKernels(KernelTable& r) {
  r.add("onnx::CumSum", withInputs(2, cumSum));
  r.add("onnx::Xor", withInputs(2, logicalXor));
  r.add("onnx::BitShift", withInputs(2, bitShift));
  r.add("onnx::IsInf", withInputs(1, isInf));
  r.add("onnx::Shrink", withInputs(1, shrink));
  r.add("onnx::Det", withInputs(1, det));
}

}  // namespace flowscope
