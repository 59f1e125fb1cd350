// flowscope.Tensor: the engine's tf::Tensor (an eager value, or a symbolic output of a graph being traced). The
// arithmetic operators live here in C++ (they are the hot path of eager code); the rest of the class (str/repr,
// numpy(), shape objects) is added by flowscope/_tensor.py.
#include <cmath>
#include <limits>

#include "binding.h"
#include "trace/func_graph.h"
#include "trace/ops.h"

namespace flowscope::py {
namespace {

// flowscope._tensor.convert_to_tensor(value, dtype_enum), for values C++ does not convert (never destroyed: it lives
// as long as the interpreter).
pyb::object& converter() {
  static auto* fn = new pyb::object();
  return *fn;
}

template <typename T>
flowscope::Tensor scalarOf(DType dtype, T value) {
  switch (dtype) {
    case DType::kFloat:
      return flowscope::Tensor::scalar<float>(dtype, static_cast<float>(value));
    case DType::kDouble:
      return flowscope::Tensor::scalar<double>(dtype, static_cast<double>(value));
    case DType::kInt32:
      return flowscope::Tensor::scalar<int32_t>(dtype, static_cast<int32_t>(value));
    case DType::kInt64:
      return flowscope::Tensor::scalar<int64_t>(dtype, static_cast<int64_t>(value));
    default: {
      flowscope::Tensor t = flowscope::Tensor::uninitialized(DType::kDouble, Shape{});
      *t.data<double>() = static_cast<double>(value);
      return tf::apply1("Cast", {tf::Tensor(t)}, {{"DstT", AttrValue::fromType(dtype)}}).value();
    }
  }
}

[[noreturn]] void cannotConvert(pyb::handle value, DType dtype) {
  throw pyb::type_error("Cannot convert " + std::string(pyb::repr(value)) + " to EagerTensor of dtype " +
                        std::string(dtypeName(dtype)));
}

// A Python int or float as a scalar of `dtype`, with TensorFlow's rules: ints go to any numeric dtype that holds them,
// floats only to floating dtypes.
bool pythonScalar(pyb::handle value, DType dtype, tf::Tensor* out) {
  if (PyBool_Check(value.ptr())) {
    if (dtype != DType::kBool) cannotConvert(value, dtype);
    *out = tf::Tensor(flowscope::Tensor::scalar<bool>(DType::kBool, value.ptr() == Py_True));
    return true;
  }
  if (PyLong_Check(value.ptr())) {
    if (dtype == DType::kBool || dtype == DType::kString) cannotConvert(value, dtype);
    const long long v = PyLong_AsLongLong(value.ptr());
    if (v == -1 && PyErr_Occurred()) throw pyb::error_already_set();
    if (dtype == DType::kInt32 && (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min()))
      cannotConvert(value, dtype);
    *out = tf::Tensor(scalarOf(dtype, v));
    return true;
  }
  if (PyFloat_Check(value.ptr())) {
    if (!isFloating(dtype)) cannotConvert(value, dtype);
    *out = tf::Tensor(scalarOf(dtype, PyFloat_AS_DOUBLE(value.ptr())));
    return true;
  }
  return false;
}

// The other operand of a binary operator as a tensor of `like`'s dtype.
tf::Tensor operand(pyb::handle value, const tf::Tensor& like) {
  if (pyb::isinstance<tf::Tensor>(value)) return value.cast<tf::Tensor>();
  tf::Tensor t;
  if (pythonScalar(value, like.dtype(), &t)) return t;
  if (!converter()) throw pyb::type_error("flowscope is not initialized");
  return converter()(value, static_cast<int>(like.dtype())).cast<tf::Tensor>();
}

// int32 / int32 divides as float64 (int8 and int16 as float32), as Python 3 and TensorFlow's truediv do.
tf::Tensor forTrueDivision(const tf::Tensor& t) {
  const DType d = t.dtype();
  if (!isInteger(d)) return t;
  const DType to = d == DType::kInt8 || d == DType::kInt16 || d == DType::kUInt8 ? DType::kFloat : DType::kDouble;
  return tf::apply1("Cast", {t}, {{"DstT", AttrValue::fromType(to)}}, "Cast");
}

// `a op b` (or `b op a` when reflected), named as TensorFlow's Python wrappers name the node.
// TensorFlow's DataTypeString ("float" for float32), which its eager dtype errors use.
std::string coreTypeName(DType d) {
  switch (d) {
    case DType::kFloat:
      return "float";
    case DType::kDouble:
      return "double";
    case DType::kHalf:
      return "half";
    default:
      return std::string(dtypeName(d));
  }
}

// Two tensors of different dtypes: TensorFlow refuses (eagerly InvalidArgumentError, while tracing TypeError).
void checkSameDType(const char* op, const tf::Tensor& x, const tf::Tensor& y) {
  if (x.dtype() == y.dtype()) return;
  if (!x.isSymbolic() && !y.isSymbolic())
    throw tf::Error(ErrorCode::kInvalidArgument, std::string("cannot compute ") + op +
                                                     " as input #1(zero-based) was expected to be a " +
                                                     coreTypeName(x.dtype()) + " tensor but is a " +
                                                     coreTypeName(y.dtype()) + " tensor [Op:" + op + "]");
  throw pyb::type_error(std::string("Input 'y' of '") + op + "' Op has type " + std::string(dtypeName(y.dtype())) +
                        " that does not match type " + std::string(dtypeName(x.dtype())) + " of argument 'x'.");
}

pyb::object binary(const char* op, const char* name, const tf::Tensor& self, pyb::handle other, bool reflected) {
  tf::Tensor b = operand(other, self);
  tf::Tensor x = reflected ? b : self, y = reflected ? self : b;
  checkSameDType(op, x, y);
  if (std::string(op) == "RealDiv") x = forTrueDivision(x), y = forTrueDivision(y);
  return pyb::cast(tf::apply1(op, {x, y}, {}, name));
}

void bindOperators(pyb::class_<tf::Tensor>& cls) {
  struct Binary {
    const char *method, *reflectedMethod, *op, *name;
  };
  static const Binary kBinary[] = {
      {"__add__", "__radd__", "AddV2", "add"},
      {"__sub__", "__rsub__", "Sub", "sub"},
      {"__mul__", "__rmul__", "Mul", "mul"},
      {"__truediv__", "__rtruediv__", "RealDiv", "truediv"},
      {"__floordiv__", "__rfloordiv__", "FloorDiv", "floordiv"},
      {"__mod__", "__rmod__", "FloorMod", "mod"},
      {"__pow__", "__rpow__", "Pow", "pow"},
      {"__matmul__", "__rmatmul__", "MatMul", "MatMul"},
      {"__and__", "__rand__", "LogicalAnd", "LogicalAnd"},
      {"__or__", "__ror__", "LogicalOr", "LogicalOr"},
  };
  for (const Binary& b : kBinary) {
    cls.def(
        b.method, [b](const tf::Tensor& self, pyb::handle other) { return binary(b.op, b.name, self, other, false); },
        pyb::is_operator());
    cls.def(
        b.reflectedMethod,
        [b](const tf::Tensor& self, pyb::handle other) { return binary(b.op, b.name, self, other, true); },
        pyb::is_operator());
  }
  static const Binary kCompare[] = {{"__gt__", "", "Greater", "Greater"},
                                    {"__lt__", "", "Less", "Less"},
                                    {"__ge__", "", "GreaterEqual", "GreaterEqual"},
                                    {"__le__", "", "LessEqual", "LessEqual"}};
  for (const Binary& b : kCompare)
    cls.def(
        b.method, [b](const tf::Tensor& self, pyb::handle other) { return binary(b.op, b.name, self, other, false); },
        pyb::is_operator());
  cls.def("__neg__", [](const tf::Tensor& self) { return tf::apply1("Neg", {self}, {}, "Neg"); });
  cls.def("__abs__", [](const tf::Tensor& self) { return tf::apply1("Abs", {self}, {}, "Abs"); });
  cls.def("__invert__", [](const tf::Tensor& self) { return tf::apply1("LogicalNot", {self}, {}, "LogicalNot"); });
}

}  // namespace

pyb::object shapeTuple(const Shape& shape) {
  if (shape.hasUnknownRank()) return pyb::none();
  pyb::tuple dims(static_cast<size_t>(shape.rank()));
  for (int k = 0; k < shape.rank(); ++k)
    dims[static_cast<size_t>(k)] = shape.dim(k) < 0 ? pyb::object(pyb::none()) : pyb::int_(shape.dim(k));
  return dims;
}

void bindTensor(pyb::module_& m) {
  pyb::class_<tf::Tensor> cls(m, "Tensor", pyb::dynamic_attr());
  cls.def_property_readonly("_dtype", [](const tf::Tensor& t) { return static_cast<int>(t.dtype()); })
      .def_property_readonly("_shape", [](const tf::Tensor& t) { return shapeTuple(t.shape()); })
      .def_property_readonly("_symbolic", &tf::Tensor::isSymbolic)
      .def_property_readonly("_node", [](const tf::Tensor& t) { return t.ref().node; })
      .def_property_readonly("_index", [](const tf::Tensor& t) { return t.ref().index; })
      .def_property_readonly("_graph_name",
                             [](const tf::Tensor& t) { return t.graph() ? t.graph()->name() : std::string(); })
      .def("_view",
           [](pyb::object self) {
             const tf::Tensor& t = self.cast<const tf::Tensor&>();
             if (t.isSymbolic())
               throw pyb::type_error("symbolic");  // flowscope/_tensor.py raises TensorFlow's error first
             return numpyView(t.value(), self);
           })
      .def("_truthy", &tf::truthy)
      .def_static("_from_numpy", [](const pyb::array& a) { return tf::Tensor(tensorFromNumpy(a)); })
      .def_static("_scalar", [](pyb::handle value, int dtype) {
        tf::Tensor t;
        if (!pythonScalar(value, static_cast<DType>(dtype), &t)) throw pyb::type_error("not a Python number");
        return t;
      });
  bindOperators(cls);
  m.def("_check_same_dtype",
        [](const std::string& op, const tf::Tensor& x, const tf::Tensor& y) { checkSameDType(op.c_str(), x, y); });
  m.def("_set_converter", [](pyb::object fn) { converter() = std::move(fn); });
}

}  // namespace flowscope::py
