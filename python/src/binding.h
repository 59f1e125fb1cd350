// The Python binding's shared pieces: the parts of the module (one file each) and conversions between NumPy arrays,
// Python values and engine tensors. The binding is thin: the engine's tf::Tensor, applyOp, FuncGraph, cond/whileLoop
// and ConcreteFunction do the work; flowscope/*.py gives them TensorFlow's Python API.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "ir/attr_value.h"
#include "trace/tensor.h"

namespace flowscope::py {

namespace pyb = pybind11;

void bindErrors(pyb::module_& m);
void bindTensor(pyb::module_& m);
void bindOps(pyb::module_& m);
void bindTracing(pyb::module_& m);
void bindRuntime(pyb::module_& m);
void bindGraphDef(pyb::module_& m);

/// A NumPy array's values as an engine tensor (a copy; strings and bytes become a string tensor).
flowscope::Tensor tensorFromNumpy(const pyb::array& array);
/// A zero-copy, read-only NumPy view of an eager tensor that keeps `owner` (the Python tensor) alive; strings give
/// an object array of bytes (a copy).
pyb::array numpyView(const flowscope::Tensor& value, pyb::handle owner);
/// NumPy's dtype for an engine dtype; throws TypeError for dtypes NumPy lacks (resource, variant).
pyb::dtype numpyDType(DType dtype);

/// A shape as Python's tuple (None for unknown dims), or None for an unknown rank.
pyb::object shapeTuple(const Shape& shape);

/// An attr value from Python: bool, int, float, str/bytes, AttrValue (types, shapes, tensors, funcs), or a list.
AttrValue attrFromPython(pyb::handle value);

/// Raises the Python exception of flowscope.errors for a failed Status (InvalidArgumentError, ...).
[[noreturn]] void raiseStatus(const Status& status);

}  // namespace flowscope::py
