// flowscope._flowscope: the extension module under `import flowscope as tf`.
#include "binding.h"

PYBIND11_MODULE(_flowscope, m) {
  m.doc() = "Flowscope's engine for Python: tensors, eager ops, tracing into graphs, concrete functions";
  flowscope::py::bindErrors(m);
  flowscope::py::bindTensor(m);
  flowscope::py::bindOps(m);
  flowscope::py::bindTracing(m);
  flowscope::py::bindRuntime(m);
}
