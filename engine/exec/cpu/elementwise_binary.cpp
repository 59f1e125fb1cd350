// Elementwise binary kernels with NumPy broadcasting: arithmetic, comparisons and logic, with TensorFlow's
// integer division (Div/TruncateDiv truncate, FloorDiv/FloorMod round toward -inf) and error on x / 0. Integer
// sums, differences and products wrap where they overflow (wrapping_arithmetic.h), and so does the one overflowing
// division, the most negative integer by -1.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/wrapping_arithmetic.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

template <typename T>
constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// a / b truncated; b is not 0 (the kernel refuses that first).
template <typename T>
T truncDiv(T a, T b) {
  return divisionOverflows(a, b) ? wrappingNeg(a) : static_cast<T>(a / b);
}

// a % b; b is not 0. A signed one by -1 is 0, also where a / b overflows.
template <typename T>
T truncMod(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return static_cast<T>(a % b);
}

template <typename T>
T floorDiv(T a, T b) {
  if constexpr (kIsInt<T>) {
    T q = truncDiv(a, b);
    if (truncMod(a, b) != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return std::floor(a / b);
  }
}

template <typename T>
T floorMod(T a, T b) {
  if constexpr (kIsInt<T>) {
    T r = truncMod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else {
    T r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  }
}

template <typename T>
T intPow(T base, T exp) {
  T result = 1;
  while (exp > 0) {
    if (exp & 1) result = wrappingMul(result, base);
    base = wrappingMul(base, base);
    exp >>= 1;
  }
  return result;
}

enum class BinOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kTruncDiv,
  kFloorDiv,
  kFloorMod,
  kTruncMod,
  kMax,
  kMin,
  kPow,
  kSqDiff,
  kDivNoNan,
  kAtan2,
  kLess,
  kLessEq,
  kGreater,
  kGreaterEq,
  kEqual,
  kNotEqual,
  kAnd,
  kOr
};

constexpr bool isComparison(BinOp op) { return op >= BinOp::kLess; }

template <BinOp Op, typename T>
inline auto apply(T a, T b) {
  if constexpr (Op == BinOp::kAdd)
    return wrappingAdd(a, b);
  else if constexpr (Op == BinOp::kSub)
    return wrappingSub(a, b);
  else if constexpr (Op == BinOp::kMul)
    return wrappingMul(a, b);
  else if constexpr (Op == BinOp::kDiv || Op == BinOp::kTruncDiv) {
    if constexpr (kIsInt<T>)
      return truncDiv(a, b);
    else
      return static_cast<T>(a / b);
  } else if constexpr (Op == BinOp::kFloorDiv)
    return floorDiv(a, b);
  else if constexpr (Op == BinOp::kFloorMod)
    return floorMod(a, b);
  else if constexpr (Op == BinOp::kTruncMod) {
    if constexpr (kIsInt<T>)
      return truncMod(a, b);
    else
      return static_cast<T>(std::fmod(a, b));
  } else if constexpr (Op == BinOp::kMax)
    return a > b ? a : b;
  else if constexpr (Op == BinOp::kMin)
    return a < b ? a : b;
  else if constexpr (Op == BinOp::kPow) {
    if constexpr (kIsInt<T>)
      return intPow(a, b);
    else
      return static_cast<T>(std::pow(a, b));
  } else if constexpr (Op == BinOp::kSqDiff)
    return wrappingMul(wrappingSub(a, b), wrappingSub(a, b));
  else if constexpr (Op == BinOp::kDivNoNan)
    return b == T(0) ? T(0) : static_cast<T>(a / b);
  else if constexpr (Op == BinOp::kAtan2)
    return static_cast<T>(std::atan2(a, b));
  else if constexpr (Op == BinOp::kLess)
    return a < b;
  else if constexpr (Op == BinOp::kLessEq)
    return a <= b;
  else if constexpr (Op == BinOp::kGreater)
    return a > b;
  else if constexpr (Op == BinOp::kGreaterEq)
    return a >= b;
  else if constexpr (Op == BinOp::kEqual)
    return a == b;
  else if constexpr (Op == BinOp::kNotEqual)
    return a != b;
  else if constexpr (Op == BinOp::kAnd)
    return a && b;
  else
    return a || b;
}

template <BinOp Op, typename T>
constexpr bool supported() {
  if constexpr (std::is_same_v<T, bool>)
    return Op == BinOp::kAnd || Op == BinOp::kOr || Op == BinOp::kEqual || Op == BinOp::kNotEqual;
  if constexpr (Op == BinOp::kAnd || Op == BinOp::kOr) return false;
  if constexpr (Op == BinOp::kAtan2 || Op == BinOp::kDivNoNan) return std::is_floating_point_v<T>;
  return true;
}

// Rough cost of one element in simple operations (how much work makes threads worth waking).
template <BinOp Op>
constexpr int64_t elementCost() {
  return Op == BinOp::kPow || Op == BinOp::kAtan2 || Op == BinOp::kFloorMod || Op == BinOp::kTruncMod ? 16 : 1;
}

// x^2, x^1 and x^0.5 without std::pow (14 ns an element here; Silero VAD's magnitude spectrum squares with it):
// x * x and sqrt are correctly rounded, so never less exact than pow. sqrt(-0) is -0 and sqrt(-inf) NaN where
// pow gives +0 and +inf, hence the + 0 and the -inf case.
template <typename T>
bool powWithSimpleExponent(const T* x, T y, T* out, int64_t n) {
  if (y == T(2)) {
    parallelFor(n, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] = x[i] * x[i];
    });
  } else if (y == T(0.5)) {
    constexpr T kInf = std::numeric_limits<T>::infinity();
    parallelFor(n, 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] = x[i] == -kInf ? kInf : std::sqrt(x[i]) + T(0);
    });
  } else if (y == T(1)) {
    std::copy(x, x + n, out);
  } else {
    return false;
  }
  return true;
}

template <BinOp Op, typename T, typename Out>
void run(const T* a, const T* b, Out* out, const Shape& sa, const Shape& sb, int64_t n, const BroadcastPlan* plan) {
  if constexpr (Op == BinOp::kPow && std::is_floating_point_v<T>)
    if (!plan && sb.numElements() == 1 && sa.numElements() == n && powWithSimpleExponent(a, b[0], out, n)) return;
  if (!plan) {
    const int64_t na = sa.numElements(), nb = sb.numElements();
    parallelFor(n, elementCost<Op>(), [&](int64_t begin, int64_t end) {
      if (na == nb) {
        for (int64_t i = begin; i < end; ++i) out[i] = apply<Op>(a[i], b[i]);
      } else if (na == 1) {
        const T x = a[0];
        for (int64_t i = begin; i < end; ++i) out[i] = apply<Op>(x, b[i]);
      } else {
        const T y = b[0];
        for (int64_t i = begin; i < end; ++i) out[i] = apply<Op>(a[i], y);
      }
    });
    return;
  }
  auto visit = [&](int64_t o, int64_t len, const int64_t* off, const int64_t* inner) {
    const T* pa = a + off[0];
    const T* pb = b + off[1];
    Out* po = out + o;
    if (inner[0] && inner[1])
      for (int64_t i = 0; i < len; ++i) po[i] = apply<Op>(pa[i], pb[i]);
    else if (inner[0])
      for (int64_t i = 0; i < len; ++i) po[i] = apply<Op>(pa[i], pb[0]);
    else if (inner[1])
      for (int64_t i = 0; i < len; ++i) po[i] = apply<Op>(pa[0], pb[i]);
    else
      for (int64_t i = 0; i < len; ++i) po[i] = apply<Op>(pa[0], pb[0]);
  };
  forEachRunInParallel(*plan, elementCost<Op>(), visit);
}

template <BinOp Op>
Status computeBinary(KernelContext& ctx) {
  if (ctx.inputs.size() != 2) return expectInputs(ctx, 2);
  const Tensor& a = ctx.inputs[0];
  const Tensor& b = ctx.inputs[1];
  if (a.dtype() != b.dtype())
    return ctx.error("inputs have different dtypes: " + std::string(dtypeName(a.dtype())) + " and " +
                     std::string(dtypeName(b.dtype())));
  if (Op == BinOp::kAdd && a.dtype() == DType::kString) {  // string concatenation (Add only)
    if (a.shape() != b.shape() && a.numElements() != 1 && b.numElements() != 1)
      return ctx.error("string Add needs equal shapes or a scalar");
    const Tensor& big = a.numElements() >= b.numElements() ? a : b;
    std::vector<std::string> out(static_cast<size_t>(big.numElements()));
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = a.strings()[a.numElements() == 1 ? 0 : i] + b.strings()[b.numElements() == 1 ? 0 : i];
    ctx.outputs[0] = Tensor::fromStrings(big.shape(), std::move(out));
    return Status::ok();
  }
  // Fast paths avoid planning for equal shapes and scalars (most eager calls).
  Shape outShape;
  BroadcastPlan plan;
  const BroadcastPlan* planPtr = nullptr;
  if (a.shape() == b.shape() || (b.numElements() == 1 && b.shape().rank() <= a.shape().rank())) {
    outShape = a.shape();
  } else if (a.numElements() == 1 && a.shape().rank() <= b.shape().rank()) {
    outShape = b.shape();
  } else {
    if (!planBroadcast({a.shape(), b.shape()}, &outShape, &plan))
      return ctx.error("shapes " + a.shape().toString() + " and " + b.shape().toString() + " do not broadcast");
    planPtr = &plan;
  }
  const int64_t n = outShape.numElements();
  DType outType = isComparison(Op) || Op == BinOp::kAnd || Op == BinOp::kOr ? DType::kBool : a.dtype();
  Tensor out = Tensor::uninitialized(outType, outShape);
  Status status;
  bool known = dispatchNumeric(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!supported<Op, T>()) {
      status = ctx.error("does not support dtype " + std::string(dtypeName(a.dtype())));
    } else {
      if constexpr (kIsInt<T> && (Op == BinOp::kDiv || Op == BinOp::kTruncDiv || Op == BinOp::kFloorDiv ||
                                  Op == BinOp::kFloorMod || Op == BinOp::kTruncMod)) {
        for (int64_t i = 0; i < b.numElements(); ++i)
          if (b.data<T>()[i] == 0) {
            status = ctx.error("Integer division by zero");
            return;
          }
      }
      if constexpr (kIsInt<T> && Op == BinOp::kPow) {
        if constexpr (std::is_signed_v<T>)
          for (int64_t i = 0; i < b.numElements(); ++i)
            if (b.data<T>()[i] < 0) {
              status = ctx.error("Integers to negative integer powers are not allowed");
              return;
            }
      }
      using Out = std::conditional_t<isComparison(Op) || Op == BinOp::kAnd || Op == BinOp::kOr, bool, T>;
      run<Op, T, Out>(a.data<T>(), b.data<T>(), out.data<Out>(), a.shape(), b.shape(), n, planPtr);
    }
  });
  if (!known) return ctx.error("does not support dtype " + std::string(dtypeName(a.dtype())));
  if (!status.isOk()) return status;
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status addN(KernelContext& ctx) {
  if (ctx.inputs.empty()) return ctx.error("needs at least one input");
  const Tensor& first = ctx.inputs[0];
  for (const auto& t : ctx.inputs)
    if (t.shape() != first.shape() || t.dtype() != first.dtype())
      return ctx.error("all inputs must have shape " + first.shape().toString() +
                       " and one dtype (AddN does not broadcast)");
  Tensor out = Tensor::uninitialized(first.dtype(), first.shape());
  if (!dispatchNumeric(first.dtype(),
                       [&](auto tag) {
                         using T = typename decltype(tag)::type;
                         if constexpr (!std::is_same_v<T, bool>) {
                           T* o = out.data<T>();
                           const auto inputs = static_cast<int64_t>(ctx.inputs.size());
                           parallelFor(first.numElements(), inputs, [&](int64_t begin, int64_t end) {
                             std::copy(first.data<T>() + begin, first.data<T>() + end, o + begin);
                             for (size_t k = 1; k < ctx.inputs.size(); ++k) {
                               const T* in = ctx.inputs[k].data<T>();
                               for (int64_t i = begin; i < end; ++i) o[i] = static_cast<T>(o[i] + in[i]);
                             }
                           });
                         }
                       }) ||
      first.dtype() == DType::kBool)
    return ctx.error("unsupported dtype " + std::string(dtypeName(first.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerElementwiseBinaryKernels(KernelTable& r) {
  r.addFn("AddN", addN);
  r.addFn("Add", computeBinary<BinOp::kAdd>);
  r.addFn("AddV2", computeBinary<BinOp::kAdd>);
  r.addFn("Sub", computeBinary<BinOp::kSub>);
  r.addFn("Mul", computeBinary<BinOp::kMul>);
  r.addFn("RealDiv", computeBinary<BinOp::kDiv>);
  r.addFn("Div", computeBinary<BinOp::kDiv>);
  r.addFn("TruncateDiv", computeBinary<BinOp::kTruncDiv>);
  r.addFn("FloorDiv", computeBinary<BinOp::kFloorDiv>);
  r.addFn("FloorMod", computeBinary<BinOp::kFloorMod>);
  r.addFn("Mod", computeBinary<BinOp::kTruncMod>);
  r.addFn("TruncateMod", computeBinary<BinOp::kTruncMod>);
  r.addFn("Maximum", computeBinary<BinOp::kMax>);
  r.addFn("Minimum", computeBinary<BinOp::kMin>);
  r.addFn("Pow", computeBinary<BinOp::kPow>);
  r.addFn("SquaredDifference", computeBinary<BinOp::kSqDiff>);
  r.addFn("DivNoNan", computeBinary<BinOp::kDivNoNan>);
  r.addFn("Atan2", computeBinary<BinOp::kAtan2>);
  r.addFn("Less", computeBinary<BinOp::kLess>);
  r.addFn("LessEqual", computeBinary<BinOp::kLessEq>);
  r.addFn("Greater", computeBinary<BinOp::kGreater>);
  r.addFn("GreaterEqual", computeBinary<BinOp::kGreaterEq>);
  r.addFn("Equal", computeBinary<BinOp::kEqual>);
  r.addFn("NotEqual", computeBinary<BinOp::kNotEqual>);
  r.addFn("LogicalAnd", computeBinary<BinOp::kAnd>);
  r.addFn("LogicalOr", computeBinary<BinOp::kOr>);
}

}  // namespace flowscope
