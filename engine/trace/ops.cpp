// Eager-or-traced ops.
#include "trace/ops.h"

#include <cstdio>

#include "exec/eager.h"
#include "trace/func_graph.h"

namespace flowscope::tf {
namespace {

// "node 'GatherV2' (op GatherV2): indices[0] = 1 ..." -> "indices[0] = 1 ... [Op:GatherV2]", TensorFlow's eager form.
Error eagerError(const Status& status, const std::string& op) {
  std::string message = status.message();
  const std::string prefix = "node '" + op + "' (op " + op + "): ";
  if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
  return Error(status.code(), message + " [Op:" + op + "]");
}

flowscope::Tensor int64Vector(const std::vector<int64_t>& values, DType dtype = DType::kInt32) {
  flowscope::Tensor t(dtype, Shape{static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::kInt32)
      t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    else
      t.data<int64_t>()[i] = values[i];
  }
  return t;
}

AttrValue intList(const std::vector<int64_t>& values) {
  AttrList list;
  list.i = values;
  return AttrValue::fromList(list);
}

// Python scalars and lists take the other operand's dtype (tf.convert_to_tensor(value, dtype_hint)).
std::pair<Tensor, Tensor> unify(const Tensor& a, const Tensor& b) {
  if (a.dtype() == b.dtype() || !a.isValid() || !b.isValid()) return {a, b};
  if (a.isWeak() && !b.isWeak()) return {cast(a, b.dtype()), b};
  if (b.isWeak() && !a.isWeak()) return {a, cast(b, a.dtype())};
  if (a.isWeak() && b.isWeak()) {  // int and float literals: float
    if (isFloating(a.dtype())) return {a, cast(b, a.dtype()).asWeak()};
    return {cast(a, b.dtype()).asWeak(), b};
  }
  return {a, b};  // the op reports the mismatch, naming both dtypes
}

Tensor binary(const std::string& op, const Tensor& a, const Tensor& b) {
  auto [x, y] = unify(a, b);
  Tensor out = apply1(op, {x, y});
  return x.isWeak() && y.isWeak() ? out.asWeak() : out;
}

}  // namespace

std::vector<Tensor> applyOp(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs,
                            const std::string& nameHint) {
  if (auto graph = currentGraph()) return graph->addOp(op, inputs, attrs, nameHint);
  std::vector<flowscope::Tensor> values;
  values.reserve(inputs.size());
  for (const auto& in : inputs) values.push_back(in.value());
  auto outputs = eagerExecute(op, std::move(values), attrs);
  if (!outputs) throw eagerError(outputs.status(), op);
  std::vector<Tensor> result;
  result.reserve(outputs->size());
  for (auto& o : *outputs) result.emplace_back(std::move(o));
  return result;
}

Tensor apply1(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs,
              const std::string& nameHint) {
  auto outputs = applyOp(op, inputs, attrs, nameHint);
  if (outputs.empty()) throw Error(ErrorCode::kInternal, "op " + op + " has no output");
  return outputs[0];
}

Tensor constant(const flowscope::Tensor& value) { return Tensor(value); }
Tensor add(const Tensor& a, const Tensor& b) { return binary("AddV2", a, b); }
Tensor subtract(const Tensor& a, const Tensor& b) { return binary("Sub", a, b); }
Tensor multiply(const Tensor& a, const Tensor& b) { return binary("Mul", a, b); }
Tensor divide(const Tensor& a, const Tensor& b) { return binary("RealDiv", a, b); }
Tensor maximum(const Tensor& a, const Tensor& b) { return binary("Maximum", a, b); }
Tensor minimum(const Tensor& a, const Tensor& b) { return binary("Minimum", a, b); }
Tensor pow(const Tensor& a, const Tensor& b) { return binary("Pow", a, b); }
Tensor greater(const Tensor& a, const Tensor& b) { return binary("Greater", a, b); }
Tensor less(const Tensor& a, const Tensor& b) { return binary("Less", a, b); }
Tensor equal(const Tensor& a, const Tensor& b) { return binary("Equal", a, b); }
Tensor negative(const Tensor& x) { return apply1("Neg", {x}); }
Tensor square(const Tensor& x) { return apply1("Square", {x}); }
Tensor exp(const Tensor& x) { return apply1("Exp", {x}); }
Tensor relu(const Tensor& x) { return apply1("Relu", {x}); }
Tensor sigmoid(const Tensor& x) { return apply1("Sigmoid", {x}); }
Tensor tanh(const Tensor& x) { return apply1("Tanh", {x}); }
Tensor softmax(const Tensor& x) { return apply1("Softmax", {x}); }
Tensor identity(const Tensor& x) { return apply1("Identity", {x}); }

Tensor matmul(const Tensor& a, const Tensor& b, bool transposeA, bool transposeB) {
  auto [x, y] = unify(a, b);
  return apply1("MatMul", {x, y},
                {{"transpose_a", AttrValue::fromBool(transposeA)}, {"transpose_b", AttrValue::fromBool(transposeB)}});
}

Tensor biasAdd(const Tensor& x, const Tensor& bias) { return apply1("BiasAdd", {x, bias}); }

Tensor conv2d(const Tensor& input, const Tensor& filter, std::vector<int64_t> strides, const std::string& padding) {
  return apply1("Conv2D", {input, filter},
                {{"strides", intList(strides)}, {"padding", AttrValue::fromString(padding)}});
}

Tensor maxPool(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
               const std::string& padding) {
  return apply1(
      "MaxPool", {input},
      {{"ksize", intList(ksize)}, {"strides", intList(strides)}, {"padding", AttrValue::fromString(padding)}});
}

Tensor reshape(const Tensor& x, std::vector<int64_t> shape) {
  return apply1("Reshape", {x, Tensor(int64Vector(shape))});
}
Tensor transpose(const Tensor& x, std::vector<int64_t> perm) {
  return apply1("Transpose", {x, Tensor(int64Vector(perm))});
}

namespace {
Tensor reduce(const std::string& op, const Tensor& x, std::vector<int64_t> axes, bool keepDims) {
  if (axes.empty()) {
    const Shape shape = x.shape();
    if (shape.hasUnknownRank()) throw Error(ErrorCode::kInvalidArgument, op + " over all axes needs a known rank");
    for (int i = 0; i < shape.rank(); ++i) axes.push_back(i);
  }
  return apply1(op, {x, Tensor(int64Vector(axes))}, {{"keep_dims", AttrValue::fromBool(keepDims)}});
}
}  // namespace

Tensor reduceMean(const Tensor& x, std::vector<int64_t> axes, bool keepDims) {
  return reduce("Mean", x, std::move(axes), keepDims);
}
Tensor reduceSum(const Tensor& x, std::vector<int64_t> axes, bool keepDims) {
  return reduce("Sum", x, std::move(axes), keepDims);
}

Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis) {
  return apply1("GatherV2", {params, indices,
                             Tensor(flowscope::Tensor::scalar<int32_t>(DType::kInt32, static_cast<int32_t>(axis)))});
}

Tensor cast(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  return apply1("Cast", {x}, {{"DstT", AttrValue::fromType(dtype)}});
}

Tensor eye(int64_t n, DType dtype) {
  // A constant built eagerly: tf.eye with a static size folds to one in TensorFlow's graphs too.
  flowscope::Tensor diagonal(DType::kFloat, Shape{n, n});
  for (int64_t i = 0; i < n; ++i) diagonal.data<float>()[i * n + i] = 1;
  auto converted = eagerExecute("Cast", {diagonal}, {{"DstT", AttrValue::fromType(dtype)}});
  if (!converted) throw eagerError(converted.status(), "Cast");
  return apply1("Identity", {Tensor(converted->at(0))}, {}, "eye");
}

Tensor randomUniform(std::vector<int64_t> shape, double minval, double maxval, DType dtype, int64_t seed) {
  Tensor dims(int64Vector(shape));
  AttrMap seeds{{"seed", AttrValue::fromInt(seed)}, {"seed2", AttrValue::fromInt(seed)}};
  if (!isFloating(dtype)) {
    Tensor lo = cast(Tensor(static_cast<int>(minval)), dtype), hi = cast(Tensor(static_cast<int>(maxval)), dtype);
    return apply1("RandomUniformInt", {dims, lo, hi}, seeds, "random_uniform");
  }
  seeds["dtype"] = AttrValue::fromType(dtype);
  Tensor unit = apply1("RandomUniform", {dims}, seeds, "random_uniform");
  return add(multiply(unit, cast(Tensor(static_cast<float>(maxval - minval)), dtype)),
             cast(Tensor(static_cast<float>(minval)), dtype));
}

void print(const std::vector<PrintItem>& items) {
  std::string templ;
  std::vector<Tensor> tensors;
  for (const auto& item : items) {
    if (!templ.empty()) templ += " ";
    if (item.tensor.isValid()) {
      templ += "{}";
      tensors.push_back(item.tensor);
    } else {
      templ += item.text;  // StringFormat has no escape for "{}": text containing it would take a value
    }
  }
  Tensor text = apply1("StringFormat", tensors,
                       {{"template", AttrValue::fromString(templ)}, {"placeholder", AttrValue::fromString("{}")}});
  applyOp("PrintV2", {text}, {{"output_stream", AttrValue::fromString("stdout")}}, "print");
  if (!currentGraph()) std::fflush(stdout);
}

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return subtract(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return multiply(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return divide(a, b); }
Tensor operator-(const Tensor& x) { return negative(x); }
Tensor operator>(const Tensor& a, const Tensor& b) { return greater(a, b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return less(a, b); }

bool truthy(const Tensor& t) {
  if (t.isSymbolic())
    throw Error(ErrorCode::kInvalidArgument,
                "using a graph tensor as a C++ bool is not allowed while tracing: use tf::cond");
  return tensorIsTrue(t.value());
}

}  // namespace flowscope::tf
