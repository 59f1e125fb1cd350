// flowscope GraphDef objects from Python: a ConcreteFunction's graph as TensorFlow's text format (what print()
// shows), as binary protobuf bytes, written atomically as .pb/.pbtxt, and a light view of its nodes.
#include <pybind11/stl.h>

#include "base/atomic_file.h"
#include "binding.h"
#include "io/graph_writer.h"

namespace flowscope::py {
namespace {

std::string serialized(const Graph& graph, GraphFormat format) {
  auto text = serializeGraph(graph, format);
  if (!text) raiseStatus(text.status());
  return *text;
}

pyb::list nodeSummaries(const Graph& graph) {
  pyb::list nodes;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    std::vector<std::string> inputs;
    for (const auto& in : n.inputs) inputs.push_back(in.toString());
    for (const auto& c : n.controlInputs) inputs.push_back("^" + c);
    nodes.append(pyb::make_tuple(n.name, n.op.str(), inputs, n.device.str()));
  }
  return nodes;
}

}  // namespace

void bindGraphDef(pyb::module_& m) {
  pyb::class_<Graph>(m, "Graph")
      .def("text", [](const Graph& g) { return serialized(g, GraphFormat::kText); })
      .def("binary", [](const Graph& g) { return pyb::bytes(serialized(g, GraphFormat::kBinary)); })
      .def(
          "write",
          [](const Graph& g, const std::string& path, bool asText) {
            const std::string content = serialized(g, asText ? GraphFormat::kText : GraphFormat::kBinary);
            if (Status s = writeFileAtomically(path, content); !s) raiseStatus(s);
          },
          pyb::arg("path"), pyb::arg("as_text"))
      .def("nodes", &nodeSummaries, "(name, op, inputs, device) per node")
      .def("function_names",
           [](const Graph& g) {
             std::vector<std::string> names;
             for (const auto& f : g.library.functions()) names.push_back(f.signature.name);
             return names;
           })
      .def_property_readonly("producer", [](const Graph& g) { return g.versions.producer; });
}

}  // namespace flowscope::py
