// FuncGraph: building graphs while tracing, captures, and conversion to FunctionDef.
#include "trace/func_graph.h"

#include <atomic>

#include "ir/verify.h"
#include "ops/op_registry.h"
#include "ops/shape_functions.h"

namespace flowscope::tf {
namespace {

thread_local std::vector<std::shared_ptr<FuncGraph>> tTracingStack;

}  // namespace

std::shared_ptr<FuncGraph> currentGraph() { return tTracingStack.empty() ? nullptr : tTracingStack.back(); }

TracingScope::TracingScope(std::shared_ptr<FuncGraph> graph) { tTracingStack.push_back(std::move(graph)); }
TracingScope::~TracingScope() { tTracingStack.pop_back(); }

int nextFunctionUid() {
  static std::atomic<int> uid{1};
  return uid++;
}

FuncGraph::FuncGraph(std::string name, std::shared_ptr<FuncGraph> parent, std::shared_ptr<FunctionLibrary> library)
    : m_name(std::move(name)), m_parent(std::move(parent)), m_library(std::move(library)) {
  if (!m_library) m_library = std::make_shared<FunctionLibrary>();
  m_graph.versions.present = true;
  m_graph.versions.producer = 1205;
  m_graph.versions.minConsumer = 12;
}

std::string FuncGraph::uniqueName(const std::string& base) {
  int& count = m_nameCounts[base];
  std::string name = count == 0 ? base : base + "_" + std::to_string(count);
  ++count;
  while (m_graph.find(name) >= 0) name = base + "_" + std::to_string(count++);
  return name;
}

Tensor FuncGraph::addInput(const std::string& name, DType dtype, const Shape& shape) {
  Node n{uniqueName(name), "Placeholder", "", {}, {}, {}, {}, {}};
  n.attrs["dtype"] = AttrValue::fromType(dtype);
  n.attrs["shape"] = AttrValue::fromShape(shape);
  n.attrs["_user_specified_name"] = AttrValue::fromString(name);
  std::string placed = n.name;
  m_graph.addNode(std::move(n));
  m_inputs.push_back(placed);
  return Tensor::symbolic(shared_from_this(), TensorRef{placed, 0, ""}, dtype, shape);
}

Tensor FuncGraph::capture(const Tensor& t) {
  if (!t.isValid()) throw Error(ErrorCode::kInvalidArgument, "an empty tf::Tensor was passed to an op");
  if (!t.isSymbolic()) {  // an eager value: a constant of this graph
    Node c{uniqueName("Const"), "Const", "", {}, {}, {}, {}, {}};
    c.attrs["dtype"] = AttrValue::fromType(t.dtype());
    c.attrs["value"] = AttrValue::fromTensor(t.value());
    std::string name = c.name;
    m_graph.addNode(std::move(c));
    return Tensor::symbolic(shared_from_this(), TensorRef{name, 0, ""}, t.dtype(), t.shape());
  }
  auto owner = t.graph();
  if (owner.get() == this) return t;
  if (!owner)
    throw Error(ErrorCode::kInvalidArgument,
                "tensor '" + t.ref().toString() + "' belongs to a graph that no longer exists");
  bool ancestor = false;
  for (auto* g = m_parent.get(); g; g = g->m_parent.get()) ancestor |= g == owner.get();
  if (!ancestor)
    throw Error(ErrorCode::kInvalidArgument, "tensor '" + t.ref().toString() + "' of graph '" + owner->name() +
                                                 "' cannot be used in '" + m_name + "' (it is not an enclosing graph)");
  const std::string key = owner->name() + "/" + t.ref().toString();
  if (auto it = m_captureByRef.find(key); it != m_captureByRef.end()) return it->second;
  Tensor outer = m_parent->capture(t);  // through every graph in between
  Tensor inner = addInput("capture", t.dtype(), t.shape());
  m_captures.emplace_back(outer, inner.ref().node);
  m_captureByRef.emplace(key, inner);
  return inner;
}

std::vector<Tensor> FuncGraph::addOp(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs,
                                     const std::string& nameHint) {
  const OpLookup lookup = OpRegistry::global().lookupWith(m_library.get());
  const OpDef* def = lookup(op);
  if (!def) throw Error(ErrorCode::kNotFound, "op '" + op + "' is not registered");
  Node node{uniqueName(nameHint.empty() ? op : nameHint), op, "", {}, {}, attrs, {}, {}};
  std::vector<Tensor> local;
  for (const auto& in : inputs) {
    local.push_back(capture(in));
    node.inputs.push_back(local.back().ref());
  }
  // Type attrs from the inputs, as an eager op infers them.
  size_t at = 0;
  for (const auto& arg : def->inputs) {
    size_t count = 1;
    if (!arg.numberAttr.empty() || !arg.typeListAttr.empty())
      count = local.size() >= def->inputs.size() ? local.size() - (def->inputs.size() - 1) : 0;
    if (!arg.numberAttr.empty() && !node.attrs.count(arg.numberAttr))
      node.attrs[arg.numberAttr] = AttrValue::fromInt(static_cast<int64_t>(count));
    if (!arg.typeListAttr.empty() && !node.attrs.count(arg.typeListAttr)) {
      AttrList types;
      for (size_t k = 0; k < count && at + k < local.size(); ++k) types.type.push_back(local[at + k].dtype());
      node.attrs[arg.typeListAttr] = AttrValue::fromList(types);
    }
    if (!arg.typeAttr.empty() && !node.attrs.count(arg.typeAttr) && at < local.size())
      node.attrs[arg.typeAttr] = AttrValue::fromType(local[at].dtype());
    at += count;
  }
  fillDefaultAttrs(node, *def);
  auto types = outputTypesOf(node, def);
  ShapeContext shapes(node);
  for (const auto& in : local) {
    shapes.inputs.push_back(TensorInfo{in.dtype(), in.shape()});
    const Node* producer = m_graph.findNode(in.ref().node);
    const AttrValue* value = producer && producer->op == "Const" ? producer->attr("value") : nullptr;
    shapes.constants.push_back(value && value->kind() == AttrValue::Kind::kTensor ? &value->tensor() : nullptr);
  }
  for (DType t : types) shapes.outputs.push_back(TensorInfo{t, Shape::unknownRank()});
  runShapeFunction(shapes);
  const std::string name = node.name;
  if (def->isStateful) m_stateful.push_back(name);
  m_graph.addNode(std::move(node));
  std::vector<Tensor> outputs;
  for (size_t k = 0; k < types.size(); ++k)
    outputs.push_back(Tensor::symbolic(shared_from_this(), TensorRef{name, static_cast<int>(k), ""}, types[k],
                                       shapes.outputs[k].shape));
  return outputs;
}

void FuncGraph::setOutputs(const std::vector<Tensor>& outputs) {
  m_outputs.clear();
  for (const auto& out : outputs) {
    Tensor local = capture(out);
    Node identity{uniqueName("Identity"), "Identity", "", {local.ref()}, {}, {}, {}, {}};
    identity.attrs["T"] = AttrValue::fromType(local.dtype());
    std::string name = identity.name;
    m_graph.addNode(std::move(identity));
    m_outputs.push_back(Tensor::symbolic(shared_from_this(), TensorRef{name, 0, ""}, local.dtype(), local.shape()));
  }
}

Expected<FunctionDef> FuncGraph::toFunctionDef(const std::string& name,
                                               const std::vector<std::string>& outputNames) const {
  const OpLookup lookup = OpRegistry::global().lookupWith(m_library.get());
  FunctionDef f;
  f.signature.name = name;
  f.body = std::make_shared<Graph>();
  std::map<std::string, std::string> argOf;  // placeholder -> arg name
  for (size_t i = 0; i < m_inputs.size(); ++i) {
    const Node* p = m_graph.findNode(m_inputs[i]);
    ArgDef arg;
    arg.name = m_inputs[i];
    arg.type = p->attr("dtype")->type();
    f.signature.inputs.push_back(arg);
    argOf[m_inputs[i]] = arg.name;
    if (const AttrValue* user = p->attr("_user_specified_name"))
      f.argAttrs[static_cast<uint32_t>(i)]["_user_specified_name"] = *user;
    if (const AttrValue* shape = p->attr("shape"); shape && shape->kind() == AttrValue::Kind::kShape) {
      AttrList shapes;  // as TensorFlow records a function argument's shape
      shapes.shape.push_back(shape->shape());
      f.argAttrs[static_cast<uint32_t>(i)]["_output_shapes"] = AttrValue::fromList(std::move(shapes));
    }
  }
  auto functionRef = [&](const TensorRef& ref) -> Expected<TensorRef> {
    if (auto a = argOf.find(ref.node); a != argOf.end()) return TensorRef{a->second, 0, ""};
    const Node* producer = m_graph.findNode(ref.node);
    if (!producer) return invalidArgument("'" + ref.node + "' is not in graph '" + m_name + "'");
    auto flat = flattenArgs(lookup(producer->op)->outputs, producer->attrs);
    if (!flat || static_cast<size_t>(ref.index) >= flat->size())
      return invalidArgument("cannot name output " + ref.toString());
    const FlatArg& out = (*flat)[static_cast<size_t>(ref.index)];
    return TensorRef{ref.node, out.indexInArg, out.arg->name};
  };
  for (size_t i = 0; i < m_graph.size(); ++i) {
    Node n = m_graph.node(i);
    if (argOf.count(n.name)) continue;
    for (auto& in : n.inputs) {
      FS_ASSIGN_OR_RETURN(in, functionRef(in));
    }
    f.body->addNode(std::move(n));
  }
  for (size_t k = 0; k < m_outputs.size(); ++k) {
    ArgDef out;
    out.name = k < outputNames.size() ? outputNames[k] : "output_" + std::to_string(k);
    out.type = m_outputs[k].dtype();
    f.signature.outputs.push_back(out);
    FS_ASSIGN_OR_RETURN(TensorRef ref, functionRef(m_outputs[k].ref()));
    f.ret[out.name] = ref.toString();
  }
  for (const auto& s : m_stateful) {
    f.signature.controlOutputs.push_back(s);
    f.controlRet[s] = s;
  }
  return f;
}

}  // namespace flowscope::tf
