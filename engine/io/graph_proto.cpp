// Conversions between the TensorFlow protos and the IR.
#include "io/graph_proto.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "io/tensor_proto.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

Expected<FuncAttr> funcFromProto(const tensorflow::NameAttrList& proto, const DecodeLimits& limits) {
  FuncAttr func;
  func.name = proto.name();
  std::map<std::string, AttrValue> sorted;
  for (const auto& [key, value] : proto.attr()) {
    FS_ASSIGN_OR_RETURN(AttrValue v, attrFromProto(value, limits));
    sorted.emplace(key, std::move(v));
  }
  func.attrs.assign(sorted.begin(), sorted.end());
  return func;
}

void funcToProto(const FuncAttr& func, tensorflow::NameAttrList* proto) {
  proto->set_name(func.name);
  for (const auto& [key, value] : func.attrs) attrToProto(value, &(*proto->mutable_attr())[key]);
}

Expected<AttrList> listFromProto(const tensorflow::AttrValue::ListValue& p, const DecodeLimits& limits) {
  AttrList list;
  list.s.assign(p.s().begin(), p.s().end());
  list.i.assign(p.i().begin(), p.i().end());
  list.f.assign(p.f().begin(), p.f().end());
  list.b.assign(p.b().begin(), p.b().end());
  for (int t : p.type()) list.type.push_back(dtypeFromProto(t));
  for (const auto& s : p.shape()) {
    FS_ASSIGN_OR_RETURN(Shape shape, shapeFromProto(s));
    list.shape.push_back(std::move(shape));
  }
  for (const auto& t : p.tensor()) {
    FS_ASSIGN_OR_RETURN(Tensor tensor, tensorFromProto(t, limits.maxTensorBytes));
    list.tensor.push_back(std::move(tensor));
  }
  for (const auto& f : p.func()) {
    FS_ASSIGN_OR_RETURN(FuncAttr func, funcFromProto(f, limits));
    list.func.push_back(std::move(func));
  }
  return list;
}

// Lists of a few ints or types, or none (strides, dilations, ksize, perm, explicit_paddings, Tout), repeat from node to
// node: equal ones share one AttrList (copy-on-write), which a list of eight vectors makes worth it (over 200 bytes
// each). Each loading thread keeps its own table of recent lists.
std::optional<AttrListRef> sharedSmallList(const tensorflow::AttrValue::ListValue& p) {
  constexpr int kMaxShared = 16;
  const bool ints = p.type_size() == 0, types = p.i_size() == 0;  // both, for an empty list
  if (!(ints || types) || std::max(p.i_size(), p.type_size()) > kMaxShared || p.s_size() || p.f_size() || p.b_size() ||
      p.shape_size() || p.tensor_size() || p.func_size())
    return std::nullopt;
  std::string key(1, ints ? 'i' : 't');
  if (ints)
    key.append(reinterpret_cast<const char*>(p.i().data()), sizeof(int64_t) * static_cast<size_t>(p.i_size()));
  else
    key.append(reinterpret_cast<const char*>(p.type().data()), sizeof(int) * static_cast<size_t>(p.type_size()));
  thread_local std::unordered_map<std::string, AttrListRef> recent;
  if (auto it = recent.find(key); it != recent.end()) return it->second;
  if (recent.size() >= 4096) recent.clear();
  AttrList list;
  list.i.assign(p.i().begin(), p.i().end());
  for (int t : p.type()) list.type.push_back(dtypeFromProto(t));
  return recent.emplace(std::move(key), AttrListRef(std::move(list))).first->second;
}

Expected<AttrMap> attrMapFromProto(const google::protobuf::Map<std::string, tensorflow::AttrValue>& attrs,
                                   const DecodeLimits& limits) {
  AttrMap out;
  out.reserve(attrs.size());
  for (const auto& [key, value] : attrs) {
    auto converted = attrFromProto(value, limits);
    if (!converted) return converted.status().withContext("attr '" + key + "': ");
    out.emplace(key, std::move(converted).value());
  }
  return out;
}

void attrMapToProto(const AttrMap& attrs, google::protobuf::Map<std::string, tensorflow::AttrValue>* proto) {
  for (const auto& [key, value] : attrs) attrToProto(value, &(*proto)[key]);
}

Expected<Node> nodeFromProto(const tensorflow::NodeDef& p, bool functionStyle, const DecodeLimits& limits) {
  Node node;
  node.name = p.name();
  node.op = p.op();
  node.device = p.device();
  node.inputs.reserve(static_cast<size_t>(p.input_size()));  // control inputs are rare
  for (const auto& input : p.input()) {
    if (!input.empty() && input[0] == '^') {
      node.controlInputs.push_back(input.substr(1));
      continue;
    }
    TensorRef ref;
    if (!parseTensorRef(input, functionStyle, &ref))
      return invalidArgument("input '" + input + "' is not of the form " +
                             (functionStyle ? "'node:out_arg:i', 'arg' or '^node'" : "'node', 'node:i' or '^node'"));
    node.inputs.push_back(std::move(ref));
  }
  FS_ASSIGN_OR_RETURN(node.attrs, attrMapFromProto(p.attr(), limits));
  const auto& debug = p.experimental_debug_info();
  if (debug.original_node_names_size() > 0 || debug.original_func_names_size() > 0) {
    auto info = std::make_shared<NodeDebugInfo>();
    info->originalNodeNames.assign(debug.original_node_names().begin(), debug.original_node_names().end());
    info->originalFuncNames.assign(debug.original_func_names().begin(), debug.original_func_names().end());
    node.debugInfo = std::move(info);
  }
  return node;
}

void nodeToProto(const Node& node, tensorflow::NodeDef* p) {
  p->set_name(node.name);
  p->set_op(node.op);
  if (!node.device.empty()) p->set_device(node.device);
  for (const auto& in : node.inputs) p->add_input(in.toString());
  for (const auto& c : node.controlInputs) p->add_input("^" + c);
  attrMapToProto(node.attrs, p->mutable_attr());
  if (node.debugInfo) {
    auto* debug = p->mutable_experimental_debug_info();
    for (const auto& s : node.debugInfo->originalNodeNames) debug->add_original_node_names(s);
    for (const auto& s : node.debugInfo->originalFuncNames) debug->add_original_func_names(s);
  }
}

Expected<std::shared_ptr<Graph>> nodesFromProto(const google::protobuf::RepeatedPtrField<tensorflow::NodeDef>& nodes,
                                                bool functionStyle, const DecodeLimits& limits) {
  auto graph = std::make_shared<Graph>();
  Status status = graph->addNodes(static_cast<size_t>(nodes.size()), [&](size_t k, Node* node) {
    const tensorflow::NodeDef& n = nodes[static_cast<int>(k)];
    auto converted = nodeFromProto(n, functionStyle, limits);
    if (!converted)
      return converted.status().withContext("node " + std::to_string(k) + " '" + n.name() + "' (op " + n.op() + "): ");
    *node = std::move(converted).value();
    return Status::ok();
  });
  if (!status) return status;
  return graph;
}

Expected<ArgDef> argFromProto(const tensorflow::OpDef::ArgDef& p) {
  ArgDef arg;
  arg.name = p.name();
  arg.description = p.description();
  arg.type = dtypeFromProto(p.type());
  arg.typeAttr = p.type_attr();
  arg.numberAttr = p.number_attr();
  arg.typeListAttr = p.type_list_attr();
  arg.isRef = p.is_ref() || p.type() > kRefOffset;
  for (const auto& hd : p.handle_data()) {
    FS_ASSIGN_OR_RETURN(Shape shape, shapeFromProto(hd.shape()));
    arg.handleData.emplace_back(dtypeFromProto(hd.dtype()), std::move(shape));
  }
  return arg;
}

void argToProto(const ArgDef& arg, tensorflow::OpDef::ArgDef* p) {
  p->set_name(arg.name);
  if (!arg.description.empty()) p->set_description(arg.description);
  if (arg.typeAttr.empty() && arg.typeListAttr.empty()) p->set_type(static_cast<tensorflow::DataType>(arg.type));
  p->set_type_attr(arg.typeAttr);
  p->set_number_attr(arg.numberAttr);
  p->set_type_list_attr(arg.typeListAttr);
  p->set_is_ref(arg.isRef);
  for (const auto& [dtype, shape] : arg.handleData) {
    auto* hd = p->add_handle_data();
    hd->set_dtype(static_cast<tensorflow::DataType>(dtype));
    shapeToProto(shape, hd->mutable_shape());
  }
}

template <typename K, typename V, typename PK, typename PV>
void copyMap(const google::protobuf::Map<PK, PV>& in, std::map<K, V>* out) {
  for (const auto& [k, v] : in) out->emplace(k, v);
}

Expected<FunctionDef> functionFromProto(const tensorflow::FunctionDef& p, const DecodeLimits& limits) {
  FunctionDef f;
  FS_ASSIGN_OR_RETURN(f.signature, opDefFromProto(p.signature(), limits));
  FS_ASSIGN_OR_RETURN(f.attrs, attrMapFromProto(p.attr(), limits));
  for (const auto& [index, argAttrs] : p.arg_attr()) {
    FS_ASSIGN_OR_RETURN(AttrMap attrs, attrMapFromProto(argAttrs.attr(), limits));
    f.argAttrs.emplace(index, std::move(attrs));
  }
  copyMap(p.resource_arg_unique_id(), &f.resourceArgUniqueIds);
  FS_ASSIGN_OR_RETURN(f.body, nodesFromProto(p.node_def(), true, limits));
  copyMap(p.ret(), &f.ret);
  copyMap(p.control_ret(), &f.controlRet);
  return f;
}

void functionToProto(const FunctionDef& f, tensorflow::FunctionDef* p) {
  opDefToProto(f.signature, p->mutable_signature());
  attrMapToProto(f.attrs, p->mutable_attr());
  for (const auto& [index, attrs] : f.argAttrs) attrMapToProto(attrs, (*p->mutable_arg_attr())[index].mutable_attr());
  for (const auto& [k, v] : f.resourceArgUniqueIds) (*p->mutable_resource_arg_unique_id())[k] = v;
  if (f.body)
    for (size_t i = 0; i < f.body->size(); ++i) nodeToProto(f.body->node(i), p->add_node_def());
  for (const auto& [k, v] : f.ret) (*p->mutable_ret())[k] = v;
  for (const auto& [k, v] : f.controlRet) (*p->mutable_control_ret())[k] = v;
}

}  // namespace

Expected<AttrValue> attrFromProto(const tensorflow::AttrValue& p, const DecodeLimits& limits) {
  using V = tensorflow::AttrValue;
  switch (p.value_case()) {
    case V::kS:
      return AttrValue::fromString(p.s());
    case V::kI:
      return AttrValue::fromInt(p.i());
    case V::kF:
      return AttrValue::fromFloat(p.f());
    case V::kB:
      return AttrValue::fromBool(p.b());
    case V::kType:
      return AttrValue::fromType(dtypeFromProto(p.type()));
    case V::kShape: {
      FS_ASSIGN_OR_RETURN(Shape shape, shapeFromProto(p.shape()));
      return AttrValue::fromShape(std::move(shape));
    }
    case V::kTensor: {
      FS_ASSIGN_OR_RETURN(Tensor tensor, tensorFromProto(p.tensor(), limits.maxTensorBytes));
      return AttrValue::fromTensor(std::move(tensor));
    }
    case V::kList: {
      if (auto shared = sharedSmallList(p.list())) return AttrValue::fromList(std::move(*shared));
      FS_ASSIGN_OR_RETURN(AttrList list, listFromProto(p.list(), limits));
      return AttrValue::fromList(std::move(list));
    }
    case V::kFunc: {
      FS_ASSIGN_OR_RETURN(FuncAttr func, funcFromProto(p.func(), limits));
      return AttrValue::fromFunc(std::move(func));
    }
    case V::kPlaceholder:
      return AttrValue::fromPlaceholder(p.placeholder());
    case V::VALUE_NOT_SET:
      return AttrValue();
  }
  return AttrValue();
}

void attrToProto(const AttrValue& v, tensorflow::AttrValue* p) {
  p->Clear();
  switch (v.kind()) {
    case AttrValue::Kind::kNone:
      break;
    case AttrValue::Kind::kString:
      p->set_s(v.s());
      break;
    case AttrValue::Kind::kInt:
      p->set_i(v.i());
      break;
    case AttrValue::Kind::kFloat:
      p->set_f(v.f());
      break;
    case AttrValue::Kind::kBool:
      p->set_b(v.b());
      break;
    case AttrValue::Kind::kType:
      p->set_type(static_cast<tensorflow::DataType>(v.type()));
      break;
    case AttrValue::Kind::kShape:
      shapeToProto(v.shape(), p->mutable_shape());
      break;
    case AttrValue::Kind::kTensor:
      tensorToProto(v.tensor(), p->mutable_tensor());
      break;
    case AttrValue::Kind::kFunc:
      funcToProto(v.func(), p->mutable_func());
      break;
    case AttrValue::Kind::kPlaceholder:
      p->set_placeholder(v.placeholder());
      break;
    case AttrValue::Kind::kList: {
      const AttrList& l = v.list();
      auto* out = p->mutable_list();  // present even when empty: `list {}` differs from unset
      for (const auto& s : l.s) out->add_s(s);
      for (auto i : l.i) out->add_i(i);
      for (auto f : l.f) out->add_f(f);
      for (bool b : l.b) out->add_b(b);
      for (auto t : l.type) out->add_type(static_cast<tensorflow::DataType>(t));
      for (const auto& s : l.shape) shapeToProto(s, out->add_shape());
      for (const auto& t : l.tensor) tensorToProto(t, out->add_tensor());
      for (const auto& f : l.func) funcToProto(f, out->add_func());
      break;
    }
  }
}

Expected<OpDef> opDefFromProto(const tensorflow::OpDef& p, const DecodeLimits& limits) {
  OpDef def;
  def.name = p.name();
  for (const auto& a : p.input_arg()) {
    FS_ASSIGN_OR_RETURN(ArgDef arg, argFromProto(a));
    def.inputs.push_back(std::move(arg));
  }
  for (const auto& a : p.output_arg()) {
    FS_ASSIGN_OR_RETURN(ArgDef arg, argFromProto(a));
    def.outputs.push_back(std::move(arg));
  }
  for (const auto& a : p.attr()) {
    AttrDef attr;
    attr.name = a.name();
    attr.type = a.type();
    attr.description = a.description();
    attr.hasMinimum = a.has_minimum();
    attr.minimum = a.minimum();
    if (a.has_default_value()) {
      FS_ASSIGN_OR_RETURN(AttrValue v, attrFromProto(a.default_value(), limits));
      attr.defaultValue = std::move(v);
    }
    if (a.has_allowed_values()) {
      FS_ASSIGN_OR_RETURN(AttrValue v, attrFromProto(a.allowed_values(), limits));
      attr.allowedValues = std::move(v);
    }
    def.attrs.push_back(std::move(attr));
  }
  def.controlOutputs.assign(p.control_output().begin(), p.control_output().end());
  def.summary = p.summary();
  def.description = p.description();
  def.deprecationVersion = p.deprecation().version();
  def.deprecationExplanation = p.deprecation().explanation();
  def.isCommutative = p.is_commutative();
  def.isAggregate = p.is_aggregate();
  def.isStateful = p.is_stateful();
  def.allowsUninitializedInput = p.allows_uninitialized_input();
  def.isDistributedCommunication = p.is_distributed_communication();
  return def;
}

void opDefToProto(const OpDef& def, tensorflow::OpDef* p) {
  p->set_name(def.name);
  for (const auto& a : def.inputs) argToProto(a, p->add_input_arg());
  for (const auto& a : def.outputs) argToProto(a, p->add_output_arg());
  for (const auto& a : def.attrs) {
    auto* attr = p->add_attr();
    attr->set_name(a.name);
    attr->set_type(a.type);
    if (!a.description.empty()) attr->set_description(a.description);
    attr->set_has_minimum(a.hasMinimum);
    attr->set_minimum(a.minimum);
    if (a.defaultValue) attrToProto(*a.defaultValue, attr->mutable_default_value());
    if (a.allowedValues) attrToProto(*a.allowedValues, attr->mutable_allowed_values());
  }
  for (const auto& c : def.controlOutputs) p->add_control_output(c);
  if (!def.summary.empty()) p->set_summary(def.summary);
  if (!def.description.empty()) p->set_description(def.description);
  if (def.deprecationVersion || !def.deprecationExplanation.empty()) {
    p->mutable_deprecation()->set_version(def.deprecationVersion);
    p->mutable_deprecation()->set_explanation(def.deprecationExplanation);
  }
  p->set_is_commutative(def.isCommutative);
  p->set_is_aggregate(def.isAggregate);
  p->set_is_stateful(def.isStateful);
  p->set_allows_uninitialized_input(def.allowsUninitializedInput);
  p->set_is_distributed_communication(def.isDistributedCommunication);
}

Expected<Graph> graphFromProto(const tensorflow::GraphDef& p, const DecodeLimits& limits) {
  FS_ASSIGN_OR_RETURN(std::shared_ptr<Graph> nodes, nodesFromProto(p.node(), false, limits));
  Graph graph = std::move(*nodes);
  if (p.has_versions()) {
    graph.versions.present = true;
    graph.versions.producer = p.versions().producer();
    graph.versions.minConsumer = p.versions().min_consumer();
    graph.versions.badConsumers.assign(p.versions().bad_consumers().begin(), p.versions().bad_consumers().end());
  }
  for (const auto& f : p.library().function()) {
    auto function = functionFromProto(f, limits);
    if (!function) return function.status().withContext("function '" + f.signature().name() + "': ");
    graph.library.add(std::move(function).value());
  }
  for (const auto& g : p.library().gradient())
    graph.library.gradients.push_back({g.function_name(), g.gradient_func()});
  for (const auto& g : p.library().registered_gradients())
    graph.library.registeredGradients.push_back({g.gradient_func(), g.registered_op_type()});
  if (p.has_debug_info()) graph.debugInfo = p.debug_info().SerializeAsString();
  fillDefaultAttrs(graph);
  return graph;
}

void graphToProto(const Graph& graph, tensorflow::GraphDef* p) {
  p->Clear();
  for (size_t i = 0; i < graph.size(); ++i) nodeToProto(graph.node(i), p->add_node());
  if (graph.versions.present) {
    auto* v = p->mutable_versions();
    v->set_producer(graph.versions.producer);
    v->set_min_consumer(graph.versions.minConsumer);
    for (auto b : graph.versions.badConsumers) v->add_bad_consumers(b);
  }
  if (!graph.library.empty()) {
    auto* lib = p->mutable_library();
    for (const auto& f : graph.library.functions()) functionToProto(f, lib->add_function());
    for (const auto& g : graph.library.gradients) {
      auto* out = lib->add_gradient();
      out->set_function_name(g.functionName);
      out->set_gradient_func(g.gradientFunc);
    }
    for (const auto& g : graph.library.registeredGradients) {
      auto* out = lib->add_registered_gradients();
      out->set_gradient_func(g.functionName);
      out->set_registered_op_type(g.gradientFunc);
    }
  }
  if (!graph.debugInfo.empty()) p->mutable_debug_info()->ParseFromString(graph.debugInfo);
}

}  // namespace flowscope
