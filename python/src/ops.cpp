// Ops from Python: one generic entry (`_C.op(type, inputs, attrs, name)`) that runs an op eagerly or records it in
// the graph being traced (tf::applyOp), with attrs converted from Python values.
#include <pybind11/stl.h>

#include "binding.h"
#include "trace/ops.h"

namespace flowscope::py {
namespace {

AttrList listFromPython(const pyb::sequence& items) {
  AttrList list;
  for (pyb::handle item : items) {
    if (PyBool_Check(item.ptr()))
      list.b.push_back(item.ptr() == Py_True);
    else if (PyLong_Check(item.ptr()))
      list.i.push_back(item.cast<int64_t>());
    else if (PyFloat_Check(item.ptr()))
      list.f.push_back(item.cast<float>());
    else if (pyb::isinstance<pyb::str>(item) || pyb::isinstance<pyb::bytes>(item))
      list.s.push_back(item.cast<std::string>());
    else if (pyb::isinstance<AttrValue>(item)) {
      const AttrValue& v = item.cast<const AttrValue&>();
      if (v.kind() == AttrValue::Kind::kType) list.type.push_back(v.type());
      if (v.kind() == AttrValue::Kind::kShape) list.shape.push_back(v.shape());
    } else {
      throw pyb::type_error("an attr list takes bools, ints, floats, strings, dtypes or shapes, not " +
                            std::string(pyb::repr(item)));
    }
  }
  return list;
}

Shape shapeFromPython(pyb::handle dims) {
  if (dims.is_none()) return Shape::unknownRank();
  std::vector<int64_t> values;
  for (pyb::handle d : dims) values.push_back(d.is_none() ? -1 : d.cast<int64_t>());
  return Shape(values);
}

}  // namespace

AttrValue attrFromPython(pyb::handle value) {
  if (pyb::isinstance<AttrValue>(value)) return value.cast<AttrValue>();
  if (PyBool_Check(value.ptr())) return AttrValue::fromBool(value.ptr() == Py_True);
  if (PyLong_Check(value.ptr())) return AttrValue::fromInt(value.cast<int64_t>());
  if (PyFloat_Check(value.ptr())) return AttrValue::fromFloat(value.cast<float>());
  if (pyb::isinstance<pyb::str>(value) || pyb::isinstance<pyb::bytes>(value))
    return AttrValue::fromString(value.cast<std::string>());
  if (pyb::isinstance<pyb::list>(value) || pyb::isinstance<pyb::tuple>(value))
    return AttrValue::fromList(listFromPython(value.cast<pyb::sequence>()));
  throw pyb::type_error("cannot make an attr of " + std::string(pyb::repr(value)));
}

void bindOps(pyb::module_& m) {
  pyb::class_<AttrValue>(m, "AttrValue").def("__repr__", [](const AttrValue& v) { return v.toString(); });
  m.def("attr_type", [](int dtype) { return AttrValue::fromType(static_cast<DType>(dtype)); });
  m.def("attr_shape", [](pyb::handle dims) { return AttrValue::fromShape(shapeFromPython(dims)); });
  m.def("attr_tensor", [](const tf::Tensor& t) { return AttrValue::fromTensor(t.value()); });
  m.def("attr_func", [](const std::string& name) { return AttrValue::fromFunc(FuncAttr{name, {}}); });
  m.def(
      "op",
      [](const std::string& type, const std::vector<tf::Tensor>& inputs, pyb::dict attrs, const std::string& name) {
        AttrMap map;
        for (auto [key, value] : attrs) map[key.cast<std::string>()] = attrFromPython(value);
        return tf::applyOp(type, inputs, map, name);
      },
      pyb::arg("type"), pyb::arg("inputs"), pyb::arg("attrs") = pyb::dict(), pyb::arg("name") = "",
      "Runs the op eagerly, or adds it to the graph being traced; returns its outputs");
}

}  // namespace flowscope::py
