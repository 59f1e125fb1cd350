// Tracing from Python: FuncGraphs entered as context managers (ops called inside add nodes instead of running),
// cond and while_loop over Python callables, throwaway scratch graphs for AutoGraph's probes, and the
// ConcreteFunction a finished trace becomes (run with the GIL released).
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>

#include "binding.h"
#include "ir/verify.h"
#include "ops/op_registry.h"
#include "trace/control_flow.h"
#include "trace/func_graph.h"
#include "trace/function.h"

namespace flowscope::py {
namespace {

// A FuncGraph plus the TracingScope that makes it current while Python is inside `with graph:`.
struct PyFuncGraph {
  std::shared_ptr<tf::FuncGraph> graph;
  std::vector<std::unique_ptr<tf::TracingScope>> scopes;
};

Shape shapeOf(pyb::handle dims) {
  if (dims.is_none()) return Shape::unknownRank();
  std::vector<int64_t> values;
  for (pyb::handle d : dims) values.push_back(d.is_none() ? -1 : d.cast<int64_t>());
  return Shape(values);
}

std::vector<tf::Tensor> tensorsOf(pyb::handle result, const char* what) {
  if (pyb::isinstance<tf::Tensor>(result)) return {result.cast<tf::Tensor>()};
  if (!pyb::isinstance<pyb::sequence>(result))
    throw pyb::type_error(std::string(what) + " must return a Tensor or a list of Tensors, got " +
                          std::string(pyb::repr(result)));
  return result.cast<std::vector<tf::Tensor>>();
}

// (kind, ...) tuples from Python: ("tensor", dtype, shape) or ("literal", text).
tf::FunctionType functionTypeOf(const pyb::list& items) {
  tf::FunctionType type;
  for (pyb::handle item : items) {
    auto t = item.cast<pyb::tuple>();
    tf::ArgType arg;
    arg.isTensor = t[0].cast<std::string>() == "tensor";
    if (arg.isTensor)
      arg.spec = tf::TensorSpec{static_cast<DType>(t[1].cast<int>()), shapeOf(t[2]), ""};
    else
      arg.literal = t[1].cast<std::string>();
    type.push_back(std::move(arg));
  }
  return type;
}

// The static shape of a Const's or Placeholder's output; unknown for other nodes.
Shape knownShape(const Node& node) {
  if (const AttrValue* v = node.attr("value"); node.op == "Const" && v && v->kind() == AttrValue::Kind::kTensor)
    return v->tensor().shape();
  if (const AttrValue* s = node.attr("shape"); node.op == "Placeholder" && s && s->kind() == AttrValue::Kind::kShape)
    return s->shape();
  return Shape::unknownRank();
}

pyb::object producerOf(const tf::Tensor& t) {
  if (!t.isSymbolic() || !t.graph()) return pyb::none();
  const auto graph = t.graph();
  const Node* node = graph->graph().findNode(t.ref().node);
  if (!node) return pyb::none();
  const OpLookup lookup = OpRegistry::global().lookupWith(&graph->library());
  pyb::list inputs;
  for (const TensorRef& in : node->inputs) {
    const Node* from = graph->graph().findNode(in.node);
    if (!from || in.index < 0) continue;
    const auto types = outputTypesOf(*from, lookup(from->op));
    const DType dtype =
        static_cast<size_t>(in.index) < types.size() ? types[static_cast<size_t>(in.index)] : DType::kInvalid;
    inputs.append(tf::Tensor::symbolic(graph, in, dtype, knownShape(*from)));
  }
  return pyb::make_tuple(node->op.str(), inputs);
}

void bindFuncGraph(pyb::module_& m) {
  pyb::class_<PyFuncGraph, std::shared_ptr<PyFuncGraph>>(m, "FuncGraph")
      .def(pyb::init([](const std::string& name) {
             auto g = std::make_shared<PyFuncGraph>();
             g->graph = std::make_shared<tf::FuncGraph>(name, nullptr, nullptr);
             return g;
           }),
           "A new outermost graph to trace into")
      .def_property_readonly("name", [](const PyFuncGraph& g) { return g.graph->name(); })
      .def("__enter__",
           [](pyb::object self) {
             PyFuncGraph& g = self.cast<PyFuncGraph&>();
             g.scopes.push_back(std::make_unique<tf::TracingScope>(g.graph));
             return self;
           })
      .def("__exit__",
           [](PyFuncGraph& g, pyb::args) {
             if (!g.scopes.empty()) g.scopes.pop_back();
             return false;
           })
      .def("add_input",
           [](PyFuncGraph& g, const std::string& name, int dtype, pyb::handle shape) {
             return g.graph->addInput(name, static_cast<DType>(dtype), shapeOf(shape));
           })
      .def_property_readonly("inputs", [](const PyFuncGraph& g) { return g.graph->inputs(); })
      .def("set_outputs", [](PyFuncGraph& g, const std::vector<tf::Tensor>& outs) { g.graph->setOutputs(outs); })
      .def_property_readonly("outputs", [](const PyFuncGraph& g) { return g.graph->outputs(); })
      .def(
          "concrete",
          [](const PyFuncGraph& g, const pyb::list& type, std::vector<std::string> argNames,
             std::vector<std::string> inputs, bool jit) {
            auto made = tf::makeConcreteFunction(*g.graph, g.graph->name(), functionTypeOf(type), std::move(argNames),
                                                 std::move(inputs), jit);
            if (!made) raiseStatus(made.status());
            return *made;
          },
          "The finished trace as a ConcreteFunction (type: ('tensor', dtype, shape) or ('literal', text) per arg)");
  m.def(
      "scratch_graph",
      []() {
        auto parent = tf::currentGraph();
        auto library = std::make_shared<FunctionLibrary>(parent ? parent->library() : FunctionLibrary());
        auto g = std::make_shared<PyFuncGraph>();
        g->graph = std::make_shared<tf::FuncGraph>("scratch", parent, library);
        return g;
      },
      "A throwaway child of the current graph: what is traced inside leaves no trace outside");
  m.def("in_tracing", []() { return tf::currentGraph() != nullptr; });
  m.def("next_uid", &tf::nextFunctionUid, "The process-wide counter of function names (__inference_f_<uid>)");
  m.def("producer", &producerOf, "(op type, input tensors) of a symbolic tensor's node, or None");
}

void bindControlFlow(pyb::module_& m) {
  m.def("cond", [](const tf::Tensor& pred, pyb::object thenFn, pyb::object elseFn) {
    return tf::cond(
        pred, [&] { return tensorsOf(thenFn(), "true_fn"); }, [&] { return tensorsOf(elseFn(), "false_fn"); });
  });
  m.def("while_loop", [](pyb::object condFn, pyb::object bodyFn, const std::vector<tf::Tensor>& vars) {
    auto condition = [&](const std::vector<tf::Tensor>& v) { return condFn(*pyb::cast(v)).cast<tf::Tensor>(); };
    auto body = [&](const std::vector<tf::Tensor>& v) { return tensorsOf(bodyFn(*pyb::cast(v)), "body"); };
    return tf::whileLoop(condition, body, vars);
  });
}

pyb::list wrapOutputs(const std::vector<flowscope::Tensor>& values) {
  pyb::list out;
  for (const auto& v : values) out.append(tf::Tensor(v));
  return out;
}

double timeRuns(const tf::ConcreteFunction& f, const std::vector<tf::Tensor>& args, int n) {
  std::vector<flowscope::Tensor> values;
  for (const auto& a : args) values.push_back(a.value());
  pyb::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    if (auto out = f.runTensors(values); !out) {
      pyb::gil_scoped_acquire gil;
      raiseStatus(out.status());
    }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / std::max(n, 1);
}

void bindConcreteFunction(pyb::module_& m) {
  pyb::class_<tf::ConcreteFunction, std::shared_ptr<tf::ConcreteFunction>>(m, "ConcreteFunction")
      .def_property_readonly("name", &tf::ConcreteFunction::name)
      .def("run",
           [](const tf::ConcreteFunction& f, const std::vector<tf::Tensor>& args) {
             std::vector<flowscope::Tensor> values;
             values.reserve(args.size());
             for (const auto& a : args) {
               if (a.isSymbolic()) throw pyb::type_error("a graph tensor cannot be fed to '" + f.name() + "'");
               values.push_back(a.value());
             }
             Expected<std::vector<flowscope::Tensor>> out = [&] {
               pyb::gil_scoped_release release;
               return f.runTensors(values);
             }();
             if (!out) raiseStatus(out.status());
             return wrapOutputs(*out);
           })
      .def_property_readonly("output_specs",
                             [](const tf::ConcreteFunction& f) {
                               pyb::list specs;
                               for (const auto& o : f.outputs())
                                 specs.append(pyb::make_tuple(static_cast<int>(o.dtype), shapeTuple(o.shape)));
                               return specs;
                             })
      .def("_time_runs", &timeRuns, "Seconds per run of the graph alone, over n runs from C++ (benchmarks)")
      .def("pretty_signature", &tf::ConcreteFunction::prettySignature)
      .def("graph_def", &tf::ConcreteFunction::graphDef, "The GraphDef (the library without this function)")
      .def("full_graph", [](const tf::ConcreteFunction& f) { return f.graph(); });
}

}  // namespace

void bindTracing(pyb::module_& m) {
  bindFuncGraph(m);
  bindControlFlow(m);
  bindConcreteFunction(m);
  bindGraphDef(m);
}

}  // namespace flowscope::py
