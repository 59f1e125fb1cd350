// Writing ONNX models: the header kept from the file, the graph from the IR.
#include "io/onnx_writer.h"

#include <set>

#include "base/atomic_file.h"
#include "io/onnx_graph_export.h"
#include "io/onnx_model.h"
#include "io/onnx_tensor.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

// Graph inputs and outputs keep the file's declarations (symbolic dims, doc strings) where the names still match.
void mergeDeclarations(const onnx::GraphProto& header, onnx::GraphProto* graph) {
  std::vector<onnx::ValueInfoProto> declared(header.input().begin(), header.input().end());
  declared.insert(declared.end(), header.output().begin(), header.output().end());
  keepDeclaredValues(declared, graph);
  std::set<std::string> written;
  for (const auto& node : graph->node())
    for (const auto& out : node.output()) written.insert(out);
  for (const auto& info : header.value_info())
    if (written.count(info.name())) *graph->add_value_info() = info;
}

// Domains the nodes use that the header does not import (a pass wrote a contrib op): version 1.
void addMissingOpsets(const Graph& graph, const FunctionLibrary& library, onnx::ModelProto* proto) {
  std::set<std::string> domains;
  auto collect = [&](const Graph& g) {
    for (size_t i = 0; i < g.size(); ++i) {
      std::string domain, type;
      if (splitOnnxOpName(g.node(i).op, &domain, &type)) domains.insert(domain);
    }
  };
  collect(graph);
  for (const auto& f : library.functions())
    if (f.body) collect(*f.body);
  for (const auto& o : proto->opset_import()) domains.erase(o.domain() == "ai.onnx" ? "" : o.domain());
  for (const auto& d : domains) {
    auto* opset = proto->add_opset_import();
    opset->set_domain(d);
    opset->set_version(d.empty() ? 17 : 1);
  }
}

}  // namespace

std::string onnxHeaderOf(onnx::ModelProto proto) {
  auto* graph = proto.mutable_graph();
  graph->clear_node();
  graph->clear_initializer();
  graph->clear_sparse_initializer();
  return proto.SerializeAsString();
}

Expected<onnx::ModelProto> modelToOnnx(const Model& model) {
  onnx::ModelProto proto;
  if (!model.onnxHeader.empty() && !proto.ParseFromString(model.onnxHeader))
    return internalError("the model's kept ONNX header does not parse");
  if (model.onnxHeader.empty()) {
    proto.set_ir_version(8);
    proto.set_producer_name("flowscope");
  }
  onnx::GraphProto header = proto.graph();
  onnx::GraphProto* graph = proto.mutable_graph();
  graph->clear_input();
  graph->clear_output();
  graph->clear_value_info();
  OnnxGraphExporter exporter(model.graph, model.graph.library, {});
  FS_RETURN_IF_ERROR(exporter.exportNodes(graph));
  const Signature* signature = model.findSignature("serving_default");
  if (!signature) return invalidArgument("the model has no signature of graph outputs to write");
  for (const auto& output : signature->outputs) {
    FS_ASSIGN_OR_RETURN(std::string name, exporter.valueName(output.tensorName));
    auto* info = graph->add_output();
    info->set_name(name);
    auto* tensorType = info->mutable_type()->mutable_tensor_type();
    tensorType->set_elem_type(onnxTypeFromDType(output.dtype));
    if (!output.shape.hasUnknownRank()) shapeToOnnx(output.shape, {}, tensorType->mutable_shape());
  }
  mergeDeclarations(header, graph);
  addMissingOpsets(model.graph, model.graph.library, &proto);
  return proto;
}

Expected<std::string> serializeOnnx(const Model& model) {
  FS_ASSIGN_OR_RETURN(onnx::ModelProto proto, modelToOnnx(model));
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) return internalError("the ONNX model does not serialize (over 2 GiB?)");
  return bytes;
}

Status writeOnnx(const Model& model, const std::string& path) {
  FS_ASSIGN_OR_RETURN(std::string bytes, serializeOnnx(model));
  return writeFileAtomically(path, bytes).withContext(path + ": ");
}

}  // namespace flowscope
