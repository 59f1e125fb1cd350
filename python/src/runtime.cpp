// The process-wide parts of the module: tf.print's output through Python's sys.stdout/sys.stderr, variables in the
// eager resource store (which traced functions share), tf.config.run_functions_eagerly, and the eager seed.
#include <atomic>

#include "base/thread_pool.h"
#include "binding.h"
#include "exec/eager.h"
#include "exec/print_sink.h"
#include "exec/resource_manager.h"
#include "trace/function.h"

namespace flowscope::py {
namespace {

void writeToPython(const std::string& text, bool toStderr) {
  pyb::gil_scoped_acquire gil;
  try {
    pyb::module_::import("sys").attr(toStderr ? "stderr" : "stdout").attr("write")(text);
  } catch (pyb::error_already_set& e) {
    e.discard_as_unraisable("tf.print");
  }
}

tf::Tensor createVariable(const tf::Tensor& initial, const std::string& name) {
  if (initial.isSymbolic())
    throw pyb::value_error("a tf.Variable's initial value must be known outside a traced function");
  static std::atomic<int> uid{0};
  const std::string handle = "var:" + name + "_" + std::to_string(uid++);
  EagerContext::global().resources().assignVariable(handle, initial.value());
  return tf::Tensor(ResourceManager::handleTensor(handle));
}

}  // namespace

void bindRuntime(pyb::module_& m) {
  setPrintSink(&writeToPython);
  m.def("_variable", &createVariable, pyb::arg("initial_value"), pyb::arg("name"),
        "A resource handle to a new variable holding the initial value");
  m.def("run_functions_eagerly", &tf::config::runFunctionsEagerly);
  m.def("functions_run_eagerly", &tf::config::functionsRunEagerly);
  m.def("set_threads", &setIntraOpThreads, "Threads each kernel may use (default: the physical cores)");
  m.def("threads", &intraOpThreads);
  m.def(
      "_seed", [](uint64_t seed) { EagerContext::global().exec().rng.seed(seed); }, "Seeds eager random ops");
}

}  // namespace flowscope::py
