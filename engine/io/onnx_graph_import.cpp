// ONNX graphs and subgraphs into the IR.
#include "io/onnx_graph_import.h"

#include <algorithm>

#include "io/onnx_attrs.h"
#include "io/onnx_sparse.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

std::string nodeWhere(const onnx::NodeProto& proto, const std::string& name) {
  return "node '" + name + "' (op " + onnxOpName(proto.domain(), proto.op_type()) + "): ";
}

AttrValue shapesAttr(const std::vector<Shape>& shapes) {
  AttrList list;
  list.shape = shapes;
  return AttrValue::fromList(std::move(list));
}

AttrValue typesAttr(const std::vector<DType>& types) {
  AttrList list;
  list.type = types;
  return AttrValue::fromList(std::move(list));
}

}  // namespace

AttrValue OnnxGraphImporter::declarationsAttr() const {
  AttrList declared;
  for (const auto& v : m_proto.input()) declared.s.push_back(v.SerializeAsString());
  for (const auto& v : m_proto.output()) declared.s.push_back(v.SerializeAsString());
  return AttrValue::fromList(std::move(declared));
}

OnnxGraphImporter::OnnxGraphImporter(const onnx::GraphProto& proto, OnnxImportContext& context,
                                     const OnnxGraphImporter* parent)
    : m_proto(proto), m_context(context), m_parent(parent) {
  collectTypes();
}

void OnnxGraphImporter::collectTypes() {
  auto add = [&](const onnx::ValueInfoProto& v) {
    if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET && !v.type().has_tensor_type()) {
      m_types[v.name()] = OnnxValueType{DType::kVariant, Shape::unknownRank(), onnxTypeString(v.type())};
      return;
    }
    if (!v.type().has_tensor_type()) return;
    const auto& tensorType = v.type().tensor_type();
    OnnxValueType t;
    if (auto dtype = dtypeFromOnnx(tensorType.elem_type())) t.dtype = *dtype;
    if (tensorType.has_shape()) t.shape = shapeFromOnnx(tensorType.shape());
    m_types[v.name()] = t;
  };
  for (const auto& v : m_proto.value_info()) add(v);
  for (const auto& v : m_proto.output()) add(v);
  for (const auto& v : m_proto.input()) add(v);
  for (const auto& init : m_proto.initializer()) {
    OnnxValueType t;
    if (auto dtype = dtypeFromOnnx(init.data_type())) t.dtype = *dtype;
    t.shape = Shape(std::vector<int64_t>(init.dims().begin(), init.dims().end()));
    m_types[init.name()] = t;
  }
  for (const auto& sparse : m_proto.sparse_initializer()) {
    OnnxValueType t;
    if (auto dtype = dtypeFromOnnx(sparse.values().data_type())) t.dtype = *dtype;
    t.shape = Shape(std::vector<int64_t>(sparse.dims().begin(), sparse.dims().end()));
    m_types[sparse.values().name()] = t;
  }
}

OnnxValueType OnnxGraphImporter::typeOf(const std::string& value) const {
  if (auto it = m_types.find(value); it != m_types.end()) return it->second;
  return m_parent ? m_parent->typeOf(value) : OnnxValueType{};
}

std::string OnnxGraphImporter::uniqueName(const std::string& value) {
  // ':' separates a node's name from its output index in the IR, so names keep it out.
  std::string base = value.empty() ? "node" : value;
  std::replace(base.begin(), base.end(), ':', '_');
  std::string name = base;
  for (int n = 1; m_names.count(name); ++n) name = base + "_" + std::to_string(n);
  m_names.insert(name);
  return name;
}

std::string OnnxGraphImporter::uniqueFunctionName(const std::string& base) {
  std::string name = base;
  for (int n = 1; m_context.functionNames.count(name); ++n) name = base + "_" + std::to_string(n);
  m_context.functionNames.insert(name);
  return name;
}

Status OnnxGraphImporter::addInitializers() {
  for (int i = 0; i < m_proto.initializer_size(); ++i) {
    const auto& init = m_proto.initializer(i);
    if (init.name().empty()) return invalidArgument("initializer " + std::to_string(i) + " has no name");
    if (m_values.count(init.name())) return invalidArgument("initializer '" + init.name() + "' is defined twice");
    auto value = tensorFromOnnx(init, m_context.root);
    if (!value) return value.status().withContext("initializer '" + init.name() + "': ");
    addConstant(init.name(), std::move(value).value(), init.doc_string(), false);
  }
  for (int i = 0; i < m_proto.sparse_initializer_size(); ++i) {
    const auto& sparse = m_proto.sparse_initializer(i);
    const std::string& name = sparse.values().name();
    if (name.empty()) return invalidArgument("sparse initializer " + std::to_string(i) + " has no name");
    if (m_values.count(name)) return invalidArgument("initializer '" + name + "' is defined twice");
    auto value = sparseTensorFromOnnx(sparse, m_context.root);
    if (!value) return value.status().withContext("sparse initializer '" + name + "': ");
    addConstant(name, std::move(value).value(), sparse.values().doc_string(), true);
  }
  return Status::ok();
}

void OnnxGraphImporter::addConstant(const std::string& value, Tensor tensor, const std::string& doc, bool sparse) {
  Node node;
  node.name = uniqueName(value);
  if (node.name != value) m_graph->tensorNames[node.name + ":0"] = value;
  node.op = "Const";
  node.attrs["dtype"] = AttrValue::fromType(tensor.dtype());
  node.attrs["value"] = AttrValue::fromTensor(std::move(tensor));
  if (!doc.empty()) node.attrs["_onnx_doc"] = AttrValue::fromString(doc);
  if (sparse) node.attrs[kOnnxSparseAttr] = AttrValue::fromBool(true);
  m_values[value] = TensorRef{node.name, 0, m_isBody ? "output" : ""};
  m_graph->addNode(std::move(node));
}

Status OnnxGraphImporter::addInputs(std::vector<ArgDef>* arguments) {
  for (const auto& input : m_proto.input()) {
    const std::string& name = input.name();
    if (name.empty()) return invalidArgument("graph '" + m_proto.name() + "' has an input without a name");
    if (m_values.count(name) && !m_isBody) continue;  // an initializer that old files also list as an input
    if (!input.has_type() || input.type().value_case() == onnx::TypeProto::VALUE_NOT_SET)
      return invalidArgument("graph input '" + name + "' has no type; ONNX requires an element type and shape");
    OnnxValueType t = m_types[name];
    if (t.dtype == DType::kInvalid)
      return invalidArgument("graph input '" + name + "' has element type " +
                             std::to_string(input.type().tensor_type().elem_type()) + ", not a tensor type");
    if (arguments) {
      ArgDef arg;
      arg.name = uniqueName(name);
      if (arg.name != name) m_graph->tensorNames[arg.name + ":0"] = name;
      arg.type = t.dtype;
      arguments->push_back(arg);
      m_values[name] = TensorRef{arg.name, 0, ""};
      continue;
    }
    Node node;
    node.name = uniqueName(name);
    if (node.name != name) m_graph->tensorNames[node.name + ":0"] = name;
    node.op = "Placeholder";
    node.attrs["dtype"] = AttrValue::fromType(t.dtype);
    node.attrs["shape"] = AttrValue::fromShape(t.shape);
    if (!t.nonTensor.empty()) node.attrs[kOnnxTypeAttr] = AttrValue::fromString(t.nonTensor);
    m_values[name] = TensorRef{node.name, 0, ""};
    m_graph->addNode(std::move(node));
  }
  return Status::ok();
}

Status OnnxGraphImporter::reserveOutputs(const onnx::NodeProto& proto, const std::string& nodeName) {
  for (int k = 0; k < proto.output_size(); ++k) {
    const std::string& out = proto.output(k);
    m_graph->tensorNames[nodeName + ":" + std::to_string(k)] = out;
    if (out.empty()) continue;
    if (m_values.count(out))
      return invalidArgument(nodeWhere(proto, nodeName) + "output '" + out +
                             "' is already defined (ONNX values are assigned once)");
    m_values[out] = TensorRef{nodeName, k, m_isBody ? "outputs" : ""};
  }
  return Status::ok();
}

Status OnnxGraphImporter::addNodes() {
  for (int i = 0; i < m_proto.node_size(); ++i) {
    const auto& proto = m_proto.node(i);
    std::string base = proto.name();
    for (int k = 0; base.empty() && k < proto.output_size(); ++k) base = proto.output(k);
    if (base.empty()) base = proto.op_type() + "_" + std::to_string(i);
    m_nodeNames.push_back(uniqueName(base));
    FS_RETURN_IF_ERROR(reserveOutputs(proto, m_nodeNames.back()));
  }
  for (int i = 0; i < m_proto.node_size(); ++i) FS_RETURN_IF_ERROR(addNode(m_proto.node(i), static_cast<size_t>(i)));
  return Status::ok();
}

Status OnnxGraphImporter::addNode(const onnx::NodeProto& proto, size_t index) {
  Node node;
  node.name = m_nodeNames[index];
  if (proto.op_type().empty()) return invalidArgument("node '" + node.name + "' has no op_type");
  node.op = onnxOpName(proto.domain(), proto.op_type());
  const std::string where = nodeWhere(proto, node.name);
  AttrList absent;
  std::vector<std::string> inputValues;  // the value each input reads, for its dtype
  for (int k = 0; k < proto.input_size(); ++k) {
    if (proto.input(k).empty()) {
      absent.i.push_back(k);
      continue;
    }
    auto ref = resolve(proto.input(k));
    if (!ref) return ref.status().withContext(where + "input " + std::to_string(k) + " '" + proto.input(k) + "' ");
    node.inputs.push_back(*ref);
    inputValues.push_back(proto.input(k));
  }
  if (!absent.i.empty()) node.attrs[kOnnxAbsentInputsAttr] = AttrValue::fromList(std::move(absent));
  std::vector<Subgraph> subgraphs;
  FS_RETURN_IF_ERROR(convertAttributes(proto, node, subgraphs).withContext(where));
  FS_RETURN_IF_ERROR(addCaptures(subgraphs, node, inputValues).withContext(where));
  const std::string domain = proto.domain() == "ai.onnx" ? "" : proto.domain();
  if (auto opset = m_context.opsets.find(domain); opset != m_context.opsets.end())
    node.attrs[kOnnxOpsetAttr] = AttrValue::fromInt(opset->second);
  if (!proto.doc_string().empty()) node.attrs["_onnx_doc"] = AttrValue::fromString(proto.doc_string());
  setTypes(proto, inputValues, node);
  m_graph->addNode(std::move(node));
  return Status::ok();
}

Status OnnxGraphImporter::convertAttributes(const onnx::NodeProto& proto, Node& node,
                                            std::vector<Subgraph>& subgraphs) {
  SubgraphImporter importSubgraph = [&](const onnx::GraphProto& graph,
                                        const std::string& attr) -> Expected<std::string> {
    OnnxGraphImporter child(graph, m_context, this);
    auto function = child.importBody(node.name, attr);
    if (!function) return function.status().withContext("subgraph '" + attr + "': ");
    subgraphs.push_back({*function, child.captures()});
    return function;
  };
  // In name order, as the IR keeps attributes: subgraphs then join the library in the same order however the file
  // orders them, so that a written model reads back equal.
  std::vector<const onnx::AttributeProto*> sorted;
  for (const auto& attribute : proto.attribute()) sorted.push_back(&attribute);
  std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name() < b->name(); });
  for (const auto* attributePtr : sorted) {
    const auto& attribute = *attributePtr;
    if (attribute.name().empty() || attribute.name()[0] == '_')
      return invalidArgument("attribute name '" + attribute.name() + "' is empty or starts with '_'");
    if (node.attrs.count(attribute.name()))
      return invalidArgument("attribute '" + attribute.name() + "' is given twice");
    FS_ASSIGN_OR_RETURN(AttrValue value, attrFromOnnx(attribute, m_context.root, importSubgraph));
    node.attrs[attribute.name()] = std::move(value);
    if (onnxAttrIsKeptVerbatim(attribute))
      node.attrs[kOnnxVerbatimAttrPrefix + attribute.name()] = AttrValue::fromString(attribute.SerializeAsString());
  }
  return Status::ok();
}

Status OnnxGraphImporter::addCaptures(const std::vector<Subgraph>& subgraphs, Node& node,
                                      std::vector<std::string>& inputValues) {
  std::vector<std::string> values;  // the union, in first-use order
  for (const auto& s : subgraphs)
    for (const auto& [value, arg] : s.captures)
      if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  if (values.empty()) return Status::ok();
  for (const auto& s : subgraphs) {
    FunctionDef function = *m_context.library->find(s.function);
    for (const auto& value : values) {
      auto own = std::find_if(s.captures.begin(), s.captures.end(), [&](const auto& c) { return c.first == value; });
      std::string arg = own != s.captures.end() ? own->second : value;
      auto taken = [&](const std::string& name) {
        return function.body->find(name) >= 0 ||
               std::any_of(function.signature.inputs.begin(), function.signature.inputs.end(),
                           [&](const ArgDef& a) { return a.name == name; });
      };
      while (own == s.captures.end() && taken(arg)) arg += "_outer";
      addArgument(function, arg, value);
    }
    m_context.library->add(std::move(function));
  }
  for (const auto& value : values) {
    FS_ASSIGN_OR_RETURN(TensorRef ref, resolve(value));
    node.inputs.push_back(ref);
    inputValues.push_back(value);
  }
  node.attrs[kOnnxCapturesAttr] = AttrValue::fromInt(static_cast<int64_t>(values.size()));
  return Status::ok();
}

void OnnxGraphImporter::addArgument(FunctionDef& function, const std::string& name, const std::string& value) const {
  OnnxValueType t = typeOf(value);
  ArgDef arg;
  arg.name = name;
  arg.type = t.dtype;
  const auto index = static_cast<uint32_t>(function.signature.inputs.size());
  function.signature.inputs.push_back(arg);
  if (!t.shape.hasUnknownRank()) function.argAttrs[index]["_output_shapes"] = shapesAttr({t.shape});
}

void OnnxGraphImporter::setTypes(const onnx::NodeProto& proto, const std::vector<std::string>& inputValues,
                                 Node& node) const {
  std::vector<DType> inTypes;
  for (const auto& value : inputValues) inTypes.push_back(typeOf(value).dtype);
  std::vector<DType> outTypes;
  std::vector<Shape> outShapes;
  bool anyShape = false;
  for (const auto& out : proto.output()) {
    OnnxValueType t = out.empty() ? OnnxValueType{} : typeOf(out);
    outTypes.push_back(t.dtype);
    outShapes.push_back(t.shape);
    anyShape |= !t.shape.hasUnknownRank();
  }
  if (proto.output_size() == 1 && !typeOf(proto.output(0)).nonTensor.empty())  // the sequence ops: one output
    node.attrs[kOnnxTypeAttr] = AttrValue::fromString(typeOf(proto.output(0)).nonTensor);
  node.attrs[kOnnxInTypesAttr] = typesAttr(inTypes);
  node.attrs[kOnnxOutTypesAttr] = typesAttr(outTypes);
  if (anyShape) node.attrs["_output_shapes"] = shapesAttr(outShapes);
}

bool OnnxGraphImporter::canSee(const std::string& value) const {
  return m_values.count(value) || (m_parent && m_parent->canSee(value));
}

Expected<TensorRef> OnnxGraphImporter::resolve(const std::string& value) {
  if (auto it = m_values.find(value); it != m_values.end()) return it->second;
  if (!m_parent || !m_parent->canSee(value))
    return invalidArgument(std::string("names no value of the graph (no node output, graph input or initializer") +
                           (m_parent ? " here or in an enclosing graph)" : ")"));
  const std::string arg = uniqueName(value);
  m_captures.emplace_back(value, arg);
  m_values[value] = TensorRef{arg, 0, ""};
  return m_values[value];
}

Status OnnxGraphImporter::importMain(Graph* graph) {
  m_graph = graph;
  FS_RETURN_IF_ERROR(addInitializers());
  FS_RETURN_IF_ERROR(addInputs(nullptr));
  FS_RETURN_IF_ERROR(addNodes());
  for (const auto& output : m_proto.output()) {
    if (output.name().empty()) return invalidArgument("the graph has an output without a name");
    if (!m_values.count(output.name()))
      return invalidArgument("graph output '" + output.name() +
                             "' names no value of the graph (no node output, graph input or initializer)");
  }
  return Status::ok();
}

std::string OnnxGraphImporter::tensorOf(const std::string& value) const {
  auto it = m_values.find(value);
  if (it == m_values.end()) return {};
  return it->second.outputArg.empty() ? it->second.node + ":" + std::to_string(it->second.index)
                                      : it->second.toString();
}

Expected<std::string> OnnxGraphImporter::importBody(const std::string& owner, const std::string& attr) {
  m_isBody = true;
  auto body = std::make_shared<Graph>();
  m_graph = body.get();
  FunctionDef function;
  FS_RETURN_IF_ERROR(addInputs(&function.signature.inputs));
  for (size_t i = 0; i < function.signature.inputs.size(); ++i)
    if (OnnxValueType t = typeOf(m_proto.input(static_cast<int>(i)).name()); !t.shape.hasUnknownRank())
      function.argAttrs[static_cast<uint32_t>(i)]["_output_shapes"] = shapesAttr({t.shape});
  FS_RETURN_IF_ERROR(addInitializers());
  FS_RETURN_IF_ERROR(addNodes());
  FS_RETURN_IF_ERROR(addReturns(function));
  function.signature.name = uniqueFunctionName(owner + "." + attr);
  function.attrs["_onnx_graph_name"] = AttrValue::fromString(m_proto.name());
  function.attrs[kOnnxDeclarationsAttr] = declarationsAttr();
  if (!m_proto.doc_string().empty()) function.attrs["_onnx_doc"] = AttrValue::fromString(m_proto.doc_string());
  function.body = std::move(body);
  const std::string name = function.name();
  m_context.library->add(std::move(function));
  return name;
}

Status OnnxGraphImporter::addReturns(FunctionDef& function) {
  for (const auto& output : m_proto.output()) {
    if (output.name().empty()) return invalidArgument("graph '" + m_proto.name() + "' has an output without a name");
    auto ref = resolve(output.name());
    if (!ref) return ref.status().withContext("graph output '" + output.name() + "' ");
    ArgDef arg;
    arg.name = output.name();
    arg.type = typeOf(output.name()).dtype;
    if (std::any_of(function.signature.outputs.begin(), function.signature.outputs.end(),
                    [&](const ArgDef& a) { return a.name == arg.name; }))
      return invalidArgument("graph '" + m_proto.name() + "' lists output '" + arg.name + "' twice");
    function.signature.outputs.push_back(arg);
    function.ret[arg.name] = ref->toString();
  }
  return Status::ok();
}

}  // namespace flowscope
