// ONNX's Cast and CastLike: numbers through TensorFlow's Cast kernel (made once per target dtype), and the casts
// TensorFlow's Cast refuses, between numbers and strings, as ONNX defines them: a number's text is its shortest
// round-trip decimal (NumPy's, so 0.9767611 and 1e-05), infinities and NaN read and written as "INF", "-INF" and "NaN".
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/kernel_table.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_dtypes.h"

namespace flowscope {
namespace {

template <typename T>
std::string numberText(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v < 0 ? "-INF" : "INF";
  }
  char text[64];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
  return ec == std::errc() ? std::string(text, end) : std::string();
}

// `text` as a T: all of it, an optional leading '+' allowed; integers within T's range.
template <typename T>
bool parseNumber(std::string_view text, T* v) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  if constexpr (std::is_floating_point_v<T>) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *v);
    return ec == std::errc() && end == text.data() + text.size();
  } else {
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    Wide wide = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), wide);
    if (ec != std::errc() || end != text.data() + text.size()) return false;
    if (wide < static_cast<Wide>(std::numeric_limits<T>::lowest()) ||
        wide > static_cast<Wide>(std::numeric_limits<T>::max()))
      return false;
    *v = static_cast<T>(wide);
    return true;
  }
}

template <typename T>
constexpr bool kNumber = !std::is_same_v<T, bool>;

// A half-precision float is written and read through float32.
DType textDType(DType numbers) { return isFloating(numbers) && dtypeSize(numbers) == 2 ? DType::kFloat : numbers; }

Expected<Tensor> numbersToText(const Tensor& x) {
  std::vector<std::string> text(static_cast<size_t>(x.numElements()));
  const bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kNumber<T>)
      for (size_t i = 0; i < text.size(); ++i) text[i] = numberText(x.data<T>()[i]);
  });
  if (!ok || x.dtype() == DType::kBool)
    return invalidArgument("cannot cast " + std::string(dtypeName(x.dtype())) + " to string");
  return Tensor::fromStrings(x.shape(), std::move(text));
}

Expected<Tensor> textToNumbers(const Tensor& x, DType to) {
  Tensor out = Tensor::uninitialized(to, x.shape());
  int64_t bad = -1;
  const bool ok = dispatchNumeric(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kNumber<T>)
      for (int64_t i = 0; i < x.numElements() && bad < 0; ++i)
        if (!parseNumber(x.strings()[static_cast<size_t>(i)], out.data<T>() + i)) bad = i;
  });
  if (!ok || to == DType::kBool) return invalidArgument("cannot cast string to " + std::string(dtypeName(to)));
  if (bad >= 0)
    return invalidArgument(
        "element " + std::to_string(bad) + " '" + x.strings()[static_cast<size_t>(bad)] + "' is not " +
        (isFloating(to) ? "a number" : "an integer within " + std::string(dtypeName(to)) + "'s range"));
  return out;
}

// Cast (target from the `to` attr) and CastLike (target: the second input's dtype).
class OnnxCastKernel : public OpKernel {
 public:
  explicit OnnxCastKernel(std::optional<DType> to) : m_to(to) {}

  Status compute(KernelContext& ctx) override {
    if (ctx.inputs.size() < (m_to ? 1u : 2u)) return ctx.error(m_to ? "needs input" : "needs input and target_type");
    const DType to = m_to ? *m_to : ctx.inputs[1].dtype();
    auto y = castTo(ctx, ctx.inputs[0], to);
    if (!y) return ctx.error(y.status().message());
    ctx.outputs[0] = std::move(y).value();
    return Status::ok();
  }

 private:
  Expected<Tensor> castTo(KernelContext& ctx, const Tensor& x, DType to) {
    const bool fromText = x.dtype() == DType::kString, toText = to == DType::kString;
    if (fromText == toText && fromText) return x;
    if (toText) {
      FS_ASSIGN_OR_RETURN(const Tensor numbers, castNumbers(ctx, x, textDType(x.dtype())));
      return numbersToText(numbers);
    }
    if (fromText) {
      FS_ASSIGN_OR_RETURN(const Tensor numbers, textToNumbers(x, textDType(to)));
      return castNumbers(ctx, numbers, to);
    }
    return castNumbers(ctx, x, to);
  }

  // Through TensorFlow's Cast kernel for `to`, made on first use.
  Expected<Tensor> castNumbers(KernelContext& ctx, const Tensor& x, DType to) {
    if (x.dtype() == to) return x;
    auto& cast = m_casts[to];
    if (!cast) {
      m_nodes[to].name = ctx.node.name;
      m_nodes[to].op = "Cast";
      m_nodes[to].attrs["DstT"] = AttrValue::fromType(to);
      FS_ASSIGN_OR_RETURN(cast, (*cpuKernelTable().find("Cast"))(m_nodes[to]));
    }
    std::vector<Tensor> in{x}, out(1);
    KernelContext inner{m_nodes[to], in, out, ctx.exec};
    FS_RETURN_IF_ERROR(cast->compute(inner));
    return out[0];
  }

  std::optional<DType> m_to;
  std::map<DType, std::unique_ptr<OpKernel>> m_casts;
  std::map<DType, Node> m_nodes;
};

}  // namespace

void registerOnnxCastKernels(KernelTable& r) {
  r.add("onnx::Cast", [](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    FS_ASSIGN_OR_RETURN(const DType to, onnxDTypeAttr(node, "to"));
    return std::unique_ptr<OpKernel>(std::make_unique<OnnxCastKernel>(to));
  });
  r.add("onnx::CastLike", [](const Node&) -> Expected<std::unique_ptr<OpKernel>> {
    return std::unique_ptr<OpKernel>(std::make_unique<OnnxCastKernel>(std::nullopt));
  });
}

}  // namespace flowscope
