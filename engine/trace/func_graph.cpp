// FuncGraph: building graphs while tracing, captures, and conversion to FunctionDef.
#include "trace/func_graph.h"

#include <algorithm>
#include <atomic>
#include <cctype>

#include "exec/resource_manager.h"
#include "ir/verify.h"
#include "ops/op_registry.h"
#include "ops/shape_functions.h"

namespace flowscope::tf {
namespace {

thread_local std::vector<std::shared_ptr<FuncGraph>> tTracingStack;

// The name of the op's argument that input `index` of `count` feeds ("y" of Greater); list arguments (N inputs)
// take the list's name.
std::string inputArgName(const OpDef& def, size_t index, size_t count) {
  size_t at = 0;
  for (const auto& arg : def.inputs) {
    const bool list = !arg.numberAttr.empty() || !arg.typeListAttr.empty();
    const size_t n = list ? (count >= def.inputs.size() ? count - (def.inputs.size() - 1) : 0) : 1;
    if (index < at + n) return arg.name;
    at += n;
  }
  return "input";
}

}  // namespace

std::shared_ptr<FuncGraph> currentGraph() { return tTracingStack.empty() ? nullptr : tTracingStack.back(); }

TracingScope::TracingScope(std::shared_ptr<FuncGraph> graph) { tTracingStack.push_back(std::move(graph)); }
TracingScope::~TracingScope() { tTracingStack.pop_back(); }

int nextFunctionUid() {
  static std::atomic<int> uid{1};
  return uid++;
}

FuncGraph::FuncGraph(std::string name, std::shared_ptr<FuncGraph> parent, std::shared_ptr<FunctionLibrary> library,
                     std::string scope)
    : m_name(std::move(name)), m_scope(std::move(scope)), m_parent(std::move(parent)), m_library(std::move(library)) {
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
  Node n{uniqueName(name), "Placeholder", "", {}, {}, {}, {}};
  n.attrs["dtype"] = AttrValue::fromType(dtype);
  n.attrs["shape"] = AttrValue::fromShape(shape);
  n.attrs["_user_specified_name"] = AttrValue::fromString(name);
  std::string placed = n.name;
  m_graph.addNode(std::move(n));
  m_inputs.push_back(placed);
  return Tensor::symbolic(shared_from_this(), TensorRef{placed, 0, ""}, dtype, shape);
}

Tensor FuncGraph::addConst(const Tensor& t, const std::string& name) {
  Node c{uniqueName(m_scope + name), "Const", "", {}, {}, {}, {}};
  c.attrs["dtype"] = AttrValue::fromType(t.dtype());
  c.attrs["value"] = AttrValue::fromTensor(t.value());
  std::string placed = c.name;
  m_graph.addNode(std::move(c));
  return Tensor::symbolic(shared_from_this(), TensorRef{placed, 0, ""}, t.dtype(), t.shape());
}

Tensor FuncGraph::capture(const Tensor& t) {
  if (!t.isValid()) throw Error(ErrorCode::kInvalidArgument, "an empty tf::Tensor was passed to an op");
  if (!t.isSymbolic())  // an eager value: a constant of this graph; a resource (a variable) is fed instead
    return t.dtype() == DType::kResource ? captureResource(t) : addConst(t, "Const");
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
  Tensor outer = m_parent->capture(t);       // through every graph in between
  const std::string& source = t.ref().node;  // named after the outer node, as TensorFlow names captures
  Tensor inner = addInput(source.substr(source.find_last_of('/') + 1), t.dtype(), t.shape());
  m_captures.emplace_back(outer, inner.ref().node);
  m_captureByRef.emplace(key, inner);
  return inner;
}

Tensor FuncGraph::captureResource(const Tensor& handle) {
  const std::string key = "resource/" + ResourceManager::handleOf(handle.value());
  if (auto it = m_captureByRef.find(key); it != m_captureByRef.end()) return it->second;
  Tensor outer = m_parent ? m_parent->capture(handle) : handle;  // the outermost graph is fed the handle itself
  Tensor inner = addInput("resource", DType::kResource, Shape{});
  m_captures.emplace_back(outer, inner.ref().node);
  m_captureByRef.emplace(key, inner);
  return inner;
}

// Automatic control dependencies, as tf.function adds them: ops on the same resource run in program order (a read
// after an assign sees the new value), and stateful ops without a resource (prints) keep their order too.
void FuncGraph::orderEffects(Node& node, const OpDef& def, const std::vector<Tensor>& local) {
  std::vector<std::string> keys;
  for (const auto& in : local)
    if (in.dtype() == DType::kResource) keys.push_back(in.ref().node);
  if (keys.empty() && def.isStateful) keys.push_back("<stateful>");
  for (const auto& key : keys) {
    auto it = m_lastEffect.find(key);
    if (it != m_lastEffect.end() && it->second != node.name &&
        std::find(node.controlInputs.begin(), node.controlInputs.end(), it->second) == node.controlInputs.end())
      node.controlInputs.push_back(it->second);
    m_lastEffect[key] = node.name;
  }
}

std::vector<Tensor> FuncGraph::addOp(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs,
                                     const std::string& nameHint) {
  const OpLookup lookup = OpRegistry::global().lookupWith(m_library.get());
  const OpDef* def = lookup(op);
  if (!def) throw Error(ErrorCode::kNotFound, "op '" + op + "' is not registered");
  Node node{uniqueName(m_scope + (nameHint.empty() ? op : nameHint)), op, "", {}, {}, attrs, {}};
  std::vector<Tensor> local;
  for (size_t i = 0; i < inputs.size(); ++i) {
    // An eager value becomes a Const named after the op and its input, as TensorFlow names it ("Greater/y").
    // Variables' handles (eager resources) are captured as fed placeholders instead.
    const bool asConst = inputs[i].isValid() && !inputs[i].isSymbolic() && inputs[i].dtype() != DType::kResource;
    local.push_back(asConst ? addConst(inputs[i], node.name + "/" + inputArgName(*def, i, inputs.size()))
                            : capture(inputs[i]));
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
  orderEffects(node, *def, local);
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
    Node identity{uniqueName(m_scope + "Identity"), "Identity", "", {local.ref()}, {}, {}, {}};
    identity.attrs["T"] = AttrValue::fromType(local.dtype());
    std::string name = identity.name;
    m_graph.addNode(std::move(identity));
    m_outputs.push_back(Tensor::symbolic(shared_from_this(), TensorRef{name, 0, ""}, local.dtype(), local.shape()));
  }
}

std::vector<std::string> FuncGraph::outputArgNames() const {
  std::vector<std::string> names;
  for (const auto& out : m_outputs) {
    std::string name = out.ref().node;
    for (char& c : name) c = c == '/' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    names.push_back(name);
  }
  return names;
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
