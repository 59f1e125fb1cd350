// Elementwise unary kernels (math and activations), Cast with half/bfloat16 conversions, ClipByValue.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/fast_math.h"
#include "exec/cpu/wrapping_arithmetic.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

enum class UnOp {
  kNeg,
  kAbs,
  kExp,
  kExpm1,
  kLog,
  kLog1p,
  kSqrt,
  kRsqrt,
  kSquare,
  kReciprocal,
  kTanh,
  kSigmoid,
  kErf,
  kFloor,
  kCeil,
  kRound,
  kSign,
  kSin,
  kCos,
  kTan,
  kAtan,
  kRelu,
  kRelu6,
  kElu,
  kSelu,
  kSoftplus,
  kSoftsign,
  kLeakyRelu,
  kZerosLike,
  kOnesLike
};

constexpr bool floatOnly(UnOp op) {
  return op != UnOp::kNeg && op != UnOp::kAbs && op != UnOp::kSquare && op != UnOp::kSign && op != UnOp::kRelu &&
         op != UnOp::kRelu6 && op != UnOp::kFloor && op != UnOp::kCeil && op != UnOp::kRound &&
         op != UnOp::kZerosLike && op != UnOp::kOnesLike;
}

template <UnOp Op, typename T>
inline T apply(T x, float alpha) {
  if constexpr (Op == UnOp::kNeg)
    return wrappingNeg(x);
  else if constexpr (Op == UnOp::kAbs) {
    if constexpr (std::is_unsigned_v<T>)
      return x;
    else
      return x < 0 ? wrappingNeg(x) : x;
  } else if constexpr (Op == UnOp::kSquare)
    return wrappingMul(x, x);
  else if constexpr (Op == UnOp::kSign)
    return static_cast<T>((x > T(0)) - (x < T(0)));
  else if constexpr (Op == UnOp::kRelu)
    return x > T(0) ? x : T(0);
  else if constexpr (Op == UnOp::kRelu6)
    return x > T(0) ? (x < T(6) ? x : T(6)) : T(0);
  else if constexpr (Op == UnOp::kZerosLike)
    return T(0);
  else if constexpr (Op == UnOp::kOnesLike)
    return T(1);
  else if constexpr (!std::is_floating_point_v<T>) {
    return x;  // Floor / Ceil / Round of an integer
  } else if constexpr (Op == UnOp::kExp)
    return std::exp(x);
  else if constexpr (Op == UnOp::kExpm1)
    return std::expm1(x);
  else if constexpr (Op == UnOp::kLog)
    return std::log(x);
  else if constexpr (Op == UnOp::kLog1p)
    return std::log1p(x);
  else if constexpr (Op == UnOp::kSqrt)
    return std::sqrt(x);
  else if constexpr (Op == UnOp::kRsqrt)
    return T(1) / std::sqrt(x);
  else if constexpr (Op == UnOp::kReciprocal)
    return T(1) / x;
  else if constexpr (Op == UnOp::kTanh && std::is_same_v<T, float>)
    return tanhFloat(x);
  else if constexpr (Op == UnOp::kTanh)
    return std::tanh(x);
  else if constexpr (Op == UnOp::kSigmoid)
    return T(1) / (T(1) + std::exp(-x));
  else if constexpr (Op == UnOp::kErf)
    return std::erf(x);
  else if constexpr (Op == UnOp::kFloor)
    return std::floor(x);
  else if constexpr (Op == UnOp::kCeil)
    return std::ceil(x);
  else if constexpr (Op == UnOp::kRound)
    return std::nearbyint(x);  // half to even under the default rounding mode
  else if constexpr (Op == UnOp::kSin)
    return std::sin(x);
  else if constexpr (Op == UnOp::kCos)
    return std::cos(x);
  else if constexpr (Op == UnOp::kTan)
    return std::tan(x);
  else if constexpr (Op == UnOp::kAtan)
    return std::atan(x);
  else if constexpr (Op == UnOp::kElu)
    return x > T(0) ? x : std::expm1(x);
  else if constexpr (Op == UnOp::kSelu) {
    constexpr T kScale = T(1.0507009873554804934193349852946), kAlpha = T(1.6732632423543772848170429916717);
    return x > T(0) ? kScale * x : kScale * kAlpha * std::expm1(x);
  } else if constexpr (Op == UnOp::kSoftplus)
    return x > T(20) ? x : std::log1p(std::exp(x));
  else if constexpr (Op == UnOp::kSoftsign)
    return x / (T(1) + std::fabs(x));
  else
    return x > T(0) ? x : static_cast<T>(alpha) * x;  // LeakyRelu
}

template <UnOp Op>
Status computeUnary(KernelContext& ctx) {
  if (ctx.inputs.size() != 1) return expectInputs(ctx, 1);
  const Tensor& x = ctx.inputs[0];
  const float alpha = Op == UnOp::kLeakyRelu ? attrFloat(ctx.node, "alpha", 0.2f) : 0.0f;
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const int64_t n = x.numElements();
  bool supportedType = true;
  bool known = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      supportedType = false;
    } else if constexpr (floatOnly(Op) && !std::is_floating_point_v<T>) {
      supportedType = false;
    } else {
      const T* in = x.data<T>();
      T* o = out.data<T>();
      parallelFor(n, 8, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) o[i] = apply<Op, T>(in[i], alpha);
      });
    }
  });
  if (!known || !supportedType) return ctx.error("does not support dtype " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

template <bool (*Test)(double)>
Status computePredicate(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  Tensor out = Tensor::uninitialized(DType::kBool, x.shape());
  if (!dispatchFloat(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < x.numElements(); ++i) out.data<bool>()[i] = Test(static_cast<double>(x.data<T>()[i]));
      }))
    return ctx.error("expects a floating input");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

bool isNan(double v) { return std::isnan(v); }
bool isFinite(double v) { return std::isfinite(v); }

Status logicalNot(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kBool) return ctx.error("expects bool");
  Tensor out = Tensor::uninitialized(DType::kBool, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) out.data<uint8_t>()[i] = !x.data<uint8_t>()[i];
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

template <typename To>
void castFrom(const Tensor& x, Tensor& out) {
  To* o = out.data<To>();
  const int64_t n = x.numElements();
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using From = typename decltype(tag)::type;
        const From* in = x.data<From>();
        parallelFor(n, 1, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) {
            if constexpr (std::is_same_v<To, bool>)
              o[i] = in[i] != From(0);
            else
              o[i] = static_cast<To>(in[i]);
          }
        });
      })) {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<To>(x.elementAsDouble(i));  // half, bfloat16
  }
}

Status cast(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  DType to = attrType(ctx.node, "DstT", x.dtype());
  if (to == x.dtype()) {
    ctx.outputs[0] = x;
    return Status::ok();
  }
  Tensor out = Tensor::uninitialized(to, x.shape());
  if (to == DType::kHalf || to == DType::kBFloat16) {
    for (int64_t i = 0; i < x.numElements(); ++i) {
      float v = static_cast<float>(x.elementAsDouble(i));
      uint16_t bits;
      if (to == DType::kHalf) {
        bits = floatToHalf(v);
      } else {
        uint32_t w;
        std::memcpy(&w, &v, 4);
        bits = static_cast<uint16_t>((w + 0x7fff + ((w >> 16) & 1)) >> 16);  // round to nearest even
      }
      out.data<uint16_t>()[i] = bits;
    }
  } else if (!dispatchNumeric(to, [&](auto tag) { castFrom<typename decltype(tag)::type>(x, out); })) {
    return ctx.error("cannot cast " + std::string(dtypeName(x.dtype())) + " to " + std::string(dtypeName(to)));
  }
  if (!isFloating(x.dtype()) && !isInteger(x.dtype()) && x.dtype() != DType::kBool)
    return ctx.error("cannot cast from " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status clipByValue(KernelContext& ctx) {
  if (ctx.inputs.size() != 3) return expectInputs(ctx, 3);
  const Tensor& x = ctx.inputs[0];
  const Tensor& lo = ctx.inputs[1];
  const Tensor& hi = ctx.inputs[2];
  if ((lo.numElements() != 1 && lo.shape() != x.shape()) || (hi.numElements() != 1 && hi.shape() != x.shape()))
    return ctx.error("clip bounds must be scalars or have the input's shape");
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < x.numElements(); ++i) {
          T l = lo.data<T>()[lo.numElements() == 1 ? 0 : i], h = hi.data<T>()[hi.numElements() == 1 ? 0 : i];
          T v = x.data<T>()[i];
          out.data<T>()[i] = v < l ? l : (v > h ? h : v);
        }
      }))
    return ctx.error("unsupported dtype");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerElementwiseUnaryKernels(KernelTable& r) {
  r.addFn("Neg", computeUnary<UnOp::kNeg>);
  r.addFn("Abs", computeUnary<UnOp::kAbs>);
  r.addFn("Exp", computeUnary<UnOp::kExp>);
  r.addFn("Expm1", computeUnary<UnOp::kExpm1>);
  r.addFn("Log", computeUnary<UnOp::kLog>);
  r.addFn("Log1p", computeUnary<UnOp::kLog1p>);
  r.addFn("Sqrt", computeUnary<UnOp::kSqrt>);
  r.addFn("Rsqrt", computeUnary<UnOp::kRsqrt>);
  r.addFn("Square", computeUnary<UnOp::kSquare>);
  r.addFn("Reciprocal", computeUnary<UnOp::kReciprocal>);
  r.addFn("Inv", computeUnary<UnOp::kReciprocal>);
  r.addFn("Tanh", computeUnary<UnOp::kTanh>);
  r.addFn("Sigmoid", computeUnary<UnOp::kSigmoid>);
  r.addFn("Erf", computeUnary<UnOp::kErf>);
  r.addFn("Floor", computeUnary<UnOp::kFloor>);
  r.addFn("Ceil", computeUnary<UnOp::kCeil>);
  r.addFn("Round", computeUnary<UnOp::kRound>);
  r.addFn("Sign", computeUnary<UnOp::kSign>);
  r.addFn("Sin", computeUnary<UnOp::kSin>);
  r.addFn("Cos", computeUnary<UnOp::kCos>);
  r.addFn("Tan", computeUnary<UnOp::kTan>);
  r.addFn("Atan", computeUnary<UnOp::kAtan>);
  r.addFn("Relu", computeUnary<UnOp::kRelu>);
  r.addFn("Relu6", computeUnary<UnOp::kRelu6>);
  r.addFn("Elu", computeUnary<UnOp::kElu>);
  r.addFn("Selu", computeUnary<UnOp::kSelu>);
  r.addFn("Softplus", computeUnary<UnOp::kSoftplus>);
  r.addFn("Softsign", computeUnary<UnOp::kSoftsign>);
  r.addFn("LeakyRelu", computeUnary<UnOp::kLeakyRelu>);
  r.addFn("ZerosLike", computeUnary<UnOp::kZerosLike>);
  r.addFn("OnesLike", computeUnary<UnOp::kOnesLike>);
  r.addFn("IsNan", computePredicate<isNan>);
  r.addFn("IsFinite", computePredicate<isFinite>);
  r.addFn("LogicalNot", logicalNot);
  r.addFn("Cast", cast);
  r.addFn("ClipByValue", clipByValue);
}

}  // namespace flowscope
