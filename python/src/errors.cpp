// Engine errors as flowscope.errors exceptions: the Python package registers its classes (InvalidArgumentError, ...)
// by TensorFlow's class names, and every tf::Error or failed Status crossing into Python becomes one of them.
#include <map>

#include "binding.h"

namespace flowscope::py {
namespace {

std::map<std::string, pyb::object>& errorClasses() {
  static auto* classes = new std::map<std::string, pyb::object>();  // never destroyed: lives as long as Python
  return *classes;
}

[[noreturn]] void raiseNamed(const std::string& typeName, const std::string& message) {
  auto& classes = errorClasses();
  auto it = classes.find(typeName);
  if (it == classes.end()) it = classes.find("UnknownError");
  if (it == classes.end()) throw pyb::value_error(message);
  pyb::object error = it->second(pyb::none(), pyb::none(), message);
  PyErr_SetObject(it->second.ptr(), error.ptr());
  throw pyb::error_already_set();
}

}  // namespace

void raiseStatus(const Status& status) {
  raiseNamed(tf::Error(status.code(), status.message()).typeName(), status.message());
}

void bindErrors(pyb::module_& m) {
  m.def(
      "_register_error_classes",
      [](pyb::dict classes) {
        for (auto [name, cls] : classes)
          errorClasses()[name.cast<std::string>()] = pyb::reinterpret_borrow<pyb::object>(cls);
      },
      "flowscope.errors hands its exception classes over, keyed by TensorFlow's names");
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tf::Error& e) {
      try {
        raiseNamed(e.typeName(), e.what());
      } catch (pyb::error_already_set& set) {
        set.restore();
      } catch (const pyb::value_error& v) {
        PyErr_SetString(PyExc_ValueError, v.what());
      }
    }
  });
}

}  // namespace flowscope::py
