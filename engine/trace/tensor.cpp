// tf::Tensor and NumPy-style formatting.
#include "trace/tensor.h"

#include <cmath>
#include <cstdio>

#include "trace/func_graph.h"

namespace flowscope::tf {

struct Tensor::Impl {
  flowscope::Tensor value;
  std::weak_ptr<FuncGraph> graph;
  TensorRef ref;
  DType dtype = DType::kInvalid;
  Shape shape;
  bool symbolic = false;
  bool weak = false;
};

std::string Error::typeName() const {
  switch (m_code) {
    case ErrorCode::kInvalidArgument:
      return "InvalidArgumentError";
    case ErrorCode::kNotFound:
      return "NotFoundError";
    case ErrorCode::kUnimplemented:
      return "UnimplementedError";
    case ErrorCode::kOutOfRange:
      return "OutOfRangeError";
    case ErrorCode::kCancelled:
      return "CancelledError";
    case ErrorCode::kUnavailable:
      return "UnavailableError";
    case ErrorCode::kDataLoss:
      return "DataLossError";
    default:
      return "InternalError";
  }
}

Tensor::Tensor(flowscope::Tensor value) {
  auto impl = std::make_shared<Impl>();
  impl->dtype = value.dtype();
  impl->shape = value.shape();
  impl->value = std::move(value);
  m_impl = std::move(impl);
}
Tensor::Tensor(float v) : Tensor(Tensor(flowscope::Tensor::scalar<float>(DType::kFloat, v)).asWeak()) {}
Tensor::Tensor(double v) : Tensor(static_cast<float>(v)) {}  // Python floats become float32 tensors
Tensor::Tensor(int v) : Tensor(Tensor(flowscope::Tensor::scalar<int32_t>(DType::kInt32, v)).asWeak()) {}
Tensor::Tensor(int64_t v) : Tensor(static_cast<int>(v)) {}
Tensor::Tensor(bool v) : Tensor(Tensor(flowscope::Tensor::scalar<bool>(DType::kBool, v)).asWeak()) {}
Tensor::Tensor(const std::vector<float>& v) {
  flowscope::Tensor t(DType::kFloat, Shape{static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), t.data<float>());
  *this = Tensor(t).asWeak();
}
Tensor::Tensor(const std::vector<int>& v) {
  flowscope::Tensor t(DType::kInt32, Shape{static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), t.data<int32_t>());
  *this = Tensor(t).asWeak();
}

bool Tensor::isWeak() const { return m_impl && m_impl->weak; }

Tensor Tensor::asWeak() const {
  if (!m_impl) return *this;
  auto impl = std::make_shared<Impl>(*m_impl);
  impl->weak = true;
  Tensor t;
  t.m_impl = std::move(impl);
  return t;
}

Tensor Tensor::symbolic(const std::shared_ptr<FuncGraph>& graph, TensorRef ref, DType dtype, Shape shape) {
  auto impl = std::make_shared<Impl>();
  impl->graph = graph;
  impl->ref = std::move(ref);
  impl->dtype = dtype;
  impl->shape = std::move(shape);
  impl->symbolic = true;
  Tensor t;
  t.m_impl = std::move(impl);
  return t;
}

bool Tensor::isSymbolic() const { return m_impl && m_impl->symbolic; }
DType Tensor::dtype() const { return m_impl ? m_impl->dtype : DType::kInvalid; }
Shape Tensor::shape() const { return m_impl ? m_impl->shape : Shape::unknownRank(); }
std::shared_ptr<FuncGraph> Tensor::graph() const { return m_impl ? m_impl->graph.lock() : nullptr; }
const TensorRef& Tensor::ref() const {
  static const TensorRef none;
  return m_impl ? m_impl->ref : none;
}

const flowscope::Tensor& Tensor::value() const {
  if (!m_impl) throw Error(ErrorCode::kInvalidArgument, "an empty tf::Tensor has no value");
  if (m_impl->symbolic)
    throw Error(ErrorCode::kInvalidArgument,
                "'" + m_impl->ref.toString() + "' is a graph tensor: it has no value until the graph runs");
  return m_impl->value;
}

std::string pythonShape(const Shape& shape) {
  if (shape.hasUnknownRank()) return "<unknown>";
  std::string text = "(";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) text += ", ";
    text += shape.dim(i) < 0 ? "None" : std::to_string(shape.dim(i));
  }
  if (shape.rank() == 1) text += ",";
  return text + ")";
}

namespace {

std::string formatElement(const flowscope::Tensor& t, int64_t i) {
  if (t.dtype() == DType::kBool) return t.data<bool>()[i] ? "True" : "False";
  if (t.isStringLike()) return "b'" + t.strings()[static_cast<size_t>(i)] + "'";
  double v = t.elementAsDouble(i);
  if (!isFloating(t.dtype())) return std::to_string(static_cast<long long>(v));
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e16) return std::to_string(static_cast<long long>(v)) + ".";
  char buf[32];
  for (int precision = 1; precision <= 9; ++precision) {  // shortest text that reads back as the float32 value
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (static_cast<float>(std::strtod(buf, nullptr)) == static_cast<float>(v)) break;
  }
  return buf;
}

void formatLevel(const flowscope::Tensor& t, const std::vector<std::string>& items, size_t width, int dim, int64_t& at,
                 std::string& out, int indent) {
  const auto& dims = t.shape().dims();
  out += "[";
  for (int64_t k = 0; k < dims[static_cast<size_t>(dim)]; ++k) {
    if (static_cast<size_t>(dim) + 1 == dims.size()) {
      if (k) out += " ";
      const std::string& s = items[static_cast<size_t>(at++)];
      out += std::string(width - s.size(), ' ') + s;
    } else {
      if (k) out += "\n" + std::string(static_cast<size_t>(indent + 1), ' ');
      formatLevel(t, items, width, dim + 1, at, out, indent + 1);
    }
  }
  out += "]";
}

}  // namespace

std::string formatNumpy(const flowscope::Tensor& t) {
  if (t.shape().rank() == 0) {  // a NumPy scalar prints like a Python float: 0.0, 12.0, 5.5
    std::string s = formatElement(t, 0);
    return isFloating(t.dtype()) && !s.empty() && s.back() == '.' ? s + "0" : s;
  }
  std::vector<std::string> items;
  size_t width = 0;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    items.push_back(formatElement(t, i));
    width = std::max(width, items.back().size());
  }
  if (t.numElements() == 0) return "[]";
  std::string out;
  int64_t at = 0;
  formatLevel(t, items, width, 0, at, out, 0);
  return out;
}

std::string Tensor::numpy() const { return formatNumpy(value()); }

std::string Tensor::toString() const {
  if (!m_impl) return "tf.Tensor(<empty>)";
  const std::string tail = "shape=" + pythonShape(shape()) + ", dtype=" + std::string(dtypeName(dtype())) + ")";
  if (m_impl->symbolic) return "Tensor(\"" + m_impl->ref.toString() + "\", " + tail;
  std::string text = numpy();
  return "tf.Tensor(" + std::string(shape().rank() >= 2 ? "\n" : "") + text + ", " + tail;
}

}  // namespace flowscope::tf
