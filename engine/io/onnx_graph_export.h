// A Graph of the ONNX op set (and its library's subgraphs) back into a GraphProto: the inverse of
// onnx_graph_import.h. Const nodes become initializers, Placeholders graph inputs, ONNX nodes NodeProtos with their
// attributes (bookkeeping attrs starting with '_' are not written), and function references subgraphs. Values get the
// file's names from Graph::tensorNames, else their node's name ("node" for output 0, "node:k" after).
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// Graph inputs and outputs take the file's declarations where the names still match (sequence types, symbolic
/// dims, doc strings: what the IR does not keep).
void keepDeclaredValues(const std::vector<onnx::ValueInfoProto>& declared, onnx::GraphProto* graph);

class OnnxGraphExporter {
 public:
  /// `outer` maps the body's capture arguments to the enclosing graph's value names (empty for the main graph).
  OnnxGraphExporter(const Graph& graph, const FunctionLibrary& library, std::map<std::string, std::string> outer);

  /// The nodes and initializers of the graph, and its Placeholders as inputs (shapes from their attrs).
  Status exportNodes(onnx::GraphProto* proto);
  /// A library function as a subgraph: its formal arguments as inputs, its outputs as outputs.
  Status exportFunction(const FunctionDef& function, size_t captures, onnx::GraphProto* proto);
  /// The file name of a tensor of this graph ("node:k" or, in bodies, "node:outputs:k" or an argument).
  Expected<std::string> valueName(const std::string& tensor) const;

 private:
  std::string nameOf(const std::string& node, int index) const;
  /// The shape a body node declares for one of its outputs (`_output_shapes`); unknown when it declares none.
  Shape shapeOf(const std::string& tensor) const;
  Status exportNode(const Node& node, onnx::GraphProto* proto);
  Status exportAttributes(const Node& node, onnx::NodeProto* proto);
  void addInput(const Node& node, onnx::GraphProto* proto) const;

  const Graph& m_graph;
  const FunctionLibrary& m_library;
  std::map<std::string, std::string> m_outer;
};

}  // namespace flowscope
