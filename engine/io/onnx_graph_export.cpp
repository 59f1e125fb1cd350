// The IR's ONNX graphs back into GraphProtos.
#include "io/onnx_graph_export.h"

#include "io/onnx_attrs.h"
#include "io/onnx_sparse.h"
#include "io/onnx_tensor.h"
#include "ops/onnx_op_set.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

onnx::AttributeProto::AttributeType listTypeOf(const std::string& schemaType) {
  if (schemaType == "list(float)") return onnx::AttributeProto::FLOATS;
  if (schemaType == "list(string)") return onnx::AttributeProto::STRINGS;
  if (schemaType == "list(tensor)") return onnx::AttributeProto::TENSORS;
  if (schemaType == "list(func)") return onnx::AttributeProto::GRAPHS;
  return onnx::AttributeProto::INTS;
}

void setValueInfo(const std::string& name, DType dtype, const Shape& shape, onnx::ValueInfoProto* info) {
  info->set_name(name);
  auto* tensorType = info->mutable_type()->mutable_tensor_type();
  tensorType->set_elem_type(onnxTypeFromDType(dtype));
  if (!shape.hasUnknownRank()) shapeToOnnx(shape, {}, tensorType->mutable_shape());
}

const Shape* firstShape(const AttrMap& attrs) {
  auto it = attrs.find("_output_shapes");
  if (it == attrs.end() || it->second.kind() != AttrValue::Kind::kList || it->second.list().shape.empty())
    return nullptr;
  return &it->second.list().shape[0];
}

void keepDeclarations(const AttrValue& declared, onnx::GraphProto* proto) {
  if (declared.kind() != AttrValue::Kind::kList) return;
  std::vector<onnx::ValueInfoProto> infos(declared.list().s.size());
  for (size_t i = 0; i < infos.size(); ++i)
    if (!infos[i].ParseFromString(declared.list().s[i])) infos[i].Clear();
  keepDeclaredValues(infos, proto);
}

}  // namespace

void keepDeclaredValues(const std::vector<onnx::ValueInfoProto>& declared, onnx::GraphProto* graph) {
  auto merge = [&](auto* values) {
    for (auto& v : *values)
      for (const auto& d : declared)
        if (!d.name().empty() && d.name() == v.name()) v = d;
  };
  merge(graph->mutable_input());
  merge(graph->mutable_output());
}

OnnxGraphExporter::OnnxGraphExporter(const Graph& graph, const FunctionLibrary& library,
                                     std::map<std::string, std::string> outer)
    : m_graph(graph), m_library(library), m_outer(std::move(outer)) {}

std::string OnnxGraphExporter::nameOf(const std::string& node, int index) const {
  const std::string key = node + ":" + std::to_string(index);
  if (auto it = m_graph.tensorNames.find(key); it != m_graph.tensorNames.end()) return it->second;
  return index == 0 ? node : key;
}

Expected<std::string> OnnxGraphExporter::valueName(const std::string& tensor) const {
  TensorRef ref;
  if (!parseTensorRef(tensor, true, &ref)) return invalidArgument("'" + tensor + "' is not a tensor name");
  if (auto it = m_outer.find(ref.node); it != m_outer.end() && ref.outputArg.empty()) return it->second;
  return nameOf(ref.node, ref.index);
}

void OnnxGraphExporter::addInput(const Node& node, onnx::GraphProto* proto) const {
  const AttrValue* dtype = node.attr("dtype");
  const AttrValue* shape = node.attr("shape");
  setValueInfo(nameOf(node.name, 0), dtype && dtype->kind() == AttrValue::Kind::kType ? dtype->type() : DType::kFloat,
               shape && shape->kind() == AttrValue::Kind::kShape ? shape->shape() : Shape::unknownRank(),
               proto->add_input());
}

Status OnnxGraphExporter::exportNodes(onnx::GraphProto* proto) {
  for (size_t i = 0; i < m_graph.size(); ++i) {
    const Node& node = m_graph.node(i);
    const std::string where = "node '" + node.name + "' (op " + node.op + "): ";
    if (node.op == "Placeholder") {
      addInput(node, proto);
    } else if (node.op == "Const") {
      const AttrValue* value = node.attr("value");
      if (!value || value->kind() != AttrValue::Kind::kTensor) return invalidArgument(where + "has no value tensor");
      if (const AttrValue* sparse = node.attr(kOnnxSparseAttr); sparse && sparse->b()) {
        auto* init = proto->add_sparse_initializer();
        FS_RETURN_IF_ERROR(sparseTensorToOnnx(value->tensor(), nameOf(node.name, 0), init).withContext(where));
        if (const AttrValue* doc = node.attr("_onnx_doc")) init->mutable_values()->set_doc_string(doc->s());
        continue;
      }
      auto* init = proto->add_initializer();
      FS_RETURN_IF_ERROR(tensorToOnnx(value->tensor(), init).withContext(where));
      init->set_name(nameOf(node.name, 0));
      if (const AttrValue* doc = node.attr("_onnx_doc")) init->set_doc_string(doc->s());
    } else if (isOnnxOp(node.op)) {
      FS_RETURN_IF_ERROR(exportNode(node, proto).withContext(where));
    } else {
      return unimplemented(where + "is a TensorFlow op; ONNX files hold only ONNX ops");
    }
  }
  return Status::ok();
}

Status OnnxGraphExporter::exportNode(const Node& node, onnx::GraphProto* graph) {
  auto* proto = graph->add_node();
  std::string domain, opType;
  splitOnnxOpName(node.op, &domain, &opType);
  proto->set_op_type(opType);
  if (!domain.empty()) proto->set_domain(domain);
  proto->set_name(node.name);
  std::vector<int> positions = onnxFormalPositions(node);
  for (size_t k = 0; k < positions.size(); ++k) {
    while (proto->input_size() < positions[k]) proto->add_input("");
    FS_ASSIGN_OR_RETURN(std::string name, valueName(node.inputs[k].toString()));
    proto->add_input(name);
  }
  size_t outputs = 1;
  if (const AttrValue* tout = node.attr(kOnnxOutTypesAttr); tout && tout->kind() == AttrValue::Kind::kList)
    outputs = tout->list().type.size();
  for (size_t k = 0; k < outputs; ++k) proto->add_output(nameOf(node.name, static_cast<int>(k)));
  if (const AttrValue* doc = node.attr("_onnx_doc")) proto->set_doc_string(doc->s());
  return exportAttributes(node, proto);
}

Status OnnxGraphExporter::exportAttributes(const Node& node, onnx::NodeProto* proto) {
  const OpSchema* schema = OpRegistry::global().find(node.op);
  const size_t formal = node.inputs.size() - onnxCaptureCount(node);
  for (const auto& [name, value] : node.attrs) {
    if (name.empty() || name[0] == '_') continue;
    if (const AttrValue* verbatim = node.attr(kOnnxVerbatimAttrPrefix + std::string(name))) {
      if (!proto->add_attribute()->ParseFromString(verbatim->s()))
        return internalError("attribute '" + std::string(name) + "': its kept AttributeProto does not parse");
      continue;
    }
    std::string schemaType;
    if (schema)
      for (const auto& a : schema->def.attrs)
        if (a.name == name) schemaType = a.type;
    SubgraphExporter exportSubgraph = [&](const std::string& function, onnx::GraphProto* graph) -> Status {
      const FunctionDef* def = m_library.find(function);
      if (!def || !def->body) return notFound("subgraph function '" + function + "' is not in the library");
      // The body's trailing arguments carry the node's trailing inputs (outer values) under the outer names.
      const size_t captures = node.inputs.size() - formal;
      if (def->signature.inputs.size() < captures) return invalidArgument("'" + function + "' lacks capture args");
      std::map<std::string, std::string> outer;
      const size_t first = def->signature.inputs.size() - captures;
      for (size_t c = 0; c < captures; ++c) {
        FS_ASSIGN_OR_RETURN(std::string value, valueName(node.inputs[formal + c].toString()));
        outer[def->signature.inputs[first + c].name] = value;
      }
      OnnxGraphExporter child(*def->body, m_library, std::move(outer));
      return child.exportFunction(*def, captures, graph).withContext("subgraph '" + function + "': ");
    };
    FS_RETURN_IF_ERROR(attrToOnnx(name, value, listTypeOf(schemaType), exportSubgraph, proto->add_attribute()));
  }
  return Status::ok();
}

Shape OnnxGraphExporter::shapeOf(const std::string& tensor) const {
  TensorRef ref;
  const Node* node = parseTensorRef(tensor, true, &ref) ? m_graph.findNode(ref.node) : nullptr;
  const AttrValue* shapes = node ? node->attr("_output_shapes") : nullptr;
  if (!shapes || shapes->kind() != AttrValue::Kind::kList ||
      static_cast<size_t>(ref.index) >= shapes->list().shape.size())
    return Shape::unknownRank();
  return shapes->list().shape[static_cast<size_t>(ref.index)];
}

Status OnnxGraphExporter::exportFunction(const FunctionDef& function, size_t captures, onnx::GraphProto* proto) {
  if (const AttrValue* name =
          function.attrs.count("_onnx_graph_name") ? &function.attrs.at("_onnx_graph_name") : nullptr)
    proto->set_name(name->s());
  if (auto doc = function.attrs.find("_onnx_doc"); doc != function.attrs.end()) proto->set_doc_string(doc->second.s());
  const size_t formal = function.signature.inputs.size() - captures;
  for (size_t i = 0; i < formal; ++i) {
    const ArgDef& arg = function.signature.inputs[i];
    Shape shape = Shape::unknownRank();
    if (auto attrs = function.argAttrs.find(static_cast<uint32_t>(i)); attrs != function.argAttrs.end())
      if (const Shape* s = firstShape(attrs->second)) shape = *s;
    setValueInfo(nameOf(arg.name, 0), arg.type, shape, proto->add_input());
  }
  FS_RETURN_IF_ERROR(exportNodes(proto));
  for (const auto& arg : function.signature.outputs) {
    auto ret = function.ret.find(arg.name);
    if (ret == function.ret.end()) return invalidArgument("output '" + arg.name + "' has no value");
    FS_ASSIGN_OR_RETURN(std::string value, valueName(ret->second));
    setValueInfo(value, arg.type, shapeOf(ret->second), proto->add_output());
  }
  if (auto declared = function.attrs.find(kOnnxDeclarationsAttr); declared != function.attrs.end())
    keepDeclarations(declared->second, proto);
  return Status::ok();
}

}  // namespace flowscope
