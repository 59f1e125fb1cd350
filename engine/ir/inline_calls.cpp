// Function call inlining.
#include "ir/inline_calls.h"

#include <set>
#include <unordered_map>

#include "ir/verify.h"

namespace flowscope {
namespace {

bool isCallNode(const Node& node, const FunctionLibrary& library) {
  return node.op == "PartitionedCall" || node.op == "StatefulPartitionedCall" || library.find(node.op) != nullptr;
}

const FunctionDef* calledFunction(const Node& node, const FunctionLibrary& library) {
  if (const FunctionDef* f = library.find(node.op)) return f;
  const AttrValue* f = node.attr("f");
  if (f && f->kind() == AttrValue::Kind::kFunc) return library.find(f->func().name);
  return nullptr;
}

void collectFuncRefs(const AttrValue& value, std::vector<std::string>& out) {
  if (value.kind() == AttrValue::Kind::kFunc) out.push_back(value.func().name);
  if (value.kind() == AttrValue::Kind::kList)
    for (const auto& f : value.list().func) out.push_back(f.name);
}

// Maps a function-body input ("arg", "arg:i", "node:out:i") to a tensor in the caller's graph.
class BodyResolver {
 public:
  BodyResolver(const FunctionDef& f, const Node& call, const std::string& prefix, const OpLookup& lookup)
      : m_function(f), m_call(call), m_prefix(prefix), m_lookup(lookup) {
    size_t flat = 0;
    for (const auto& arg : f.signature.inputs) {
      auto count = flattenArgs({arg}, call.attrs);
      size_t n = count ? count->size() : 1;
      m_argStart[arg.name] = flat;
      flat += n;
    }
  }

  Expected<TensorRef> resolve(const TensorRef& ref) const {
    if (ref.outputArg.empty()) {
      auto arg = m_argStart.find(ref.node);
      if (arg != m_argStart.end()) {
        size_t index = arg->second + static_cast<size_t>(ref.index);
        if (index >= m_call.inputs.size())
          return invalidArgument("function '" + m_function.name() + "' reads argument '" + ref.node +
                                 "' beyond the call's inputs");
        return m_call.inputs[index];
      }
      return TensorRef{m_prefix + ref.node, ref.index, ""};
    }
    const Node* producer = m_function.body->findNode(ref.node);
    if (!producer)
      return invalidArgument("function '" + m_function.name() + "' refers to unknown node '" + ref.node + "'");
    int flat = flatOutputIndex(*producer, ref.outputArg, ref.index, m_lookup);
    if (flat < 0)
      return unimplemented("function '" + m_function.name() + "': cannot resolve output '" + ref.toString() +
                           "' of op '" + producer->op + "'");
    return TensorRef{m_prefix + ref.node, flat, ""};
  }

 private:
  const FunctionDef& m_function;
  const Node& m_call;
  std::string m_prefix;
  const OpLookup& m_lookup;
  std::unordered_map<std::string, size_t> m_argStart;
};

Status inlineOne(Graph& graph, size_t callIndex, const FunctionDef& f, const OpLookup& lookup) {
  const Node call = graph.node(callIndex);  // copy: the graph changes below
  const std::string prefix = call.name + "/";
  BodyResolver resolver(f, call, prefix, lookup);

  std::string inputAnchor;
  if (!call.controlInputs.empty()) {
    inputAnchor = prefix + "input_control_node";
    graph.addNode(Node{inputAnchor, "NoOp", call.device, {}, call.controlInputs, {}, {}});
  }
  for (size_t i = 0; i < f.body->size(); ++i) {
    Node n = f.body->node(i);
    n.name = prefix + n.name;
    if (n.device.empty()) n.device = call.device;
    for (auto& in : n.inputs) {
      FS_ASSIGN_OR_RETURN(in, resolver.resolve(in));
    }
    for (auto& c : n.controlInputs) c = prefix + c;
    if (!inputAnchor.empty() && n.inputs.empty()) n.controlInputs.push_back(inputAnchor);
    graph.addNode(std::move(n));
  }

  // Outputs: "<call>" keeps output 0's name so "call" and "call:0" consumers need no change; others get Identities.
  std::vector<std::string> outputNames;
  for (size_t k = 0; k < f.signature.outputs.size(); ++k) {
    const ArgDef& out = f.signature.outputs[k];
    auto ret = f.ret.find(out.name);
    if (ret == f.ret.end())
      return invalidArgument("function '" + f.name() + "' has no ret for output '" + out.name + "'");
    TensorRef source;
    bool functionStyle = true;
    if (!parseTensorRef(ret->second, functionStyle, &source))
      return invalidArgument("function '" + f.name() + "' has a malformed ret '" + ret->second + "'");
    FS_ASSIGN_OR_RETURN(TensorRef resolved, resolver.resolve(source));
    Node identity{
        k == 0 ? call.name : prefix + "output_" + std::to_string(k), "Identity", call.device, {resolved}, {}, {}, {}};
    auto types = outputTypesOf(call, lookup(call.op));
    if (k < types.size()) identity.attrs["T"] = AttrValue::fromType(types[k]);
    outputNames.push_back(identity.name);
    if (k == 0) {
      graph.mutableNode(callIndex) = std::move(identity);
    } else {
      graph.addNode(std::move(identity));
    }
  }
  std::vector<std::string> controlOutputs;
  for (const auto& [name, node] : f.controlRet) controlOutputs.push_back(prefix + node);
  if (outputNames.empty()) {
    // No data outputs: the call's name becomes a NoOp that waits for the control outputs.
    graph.mutableNode(callIndex) = Node{call.name, "NoOp", call.device, {}, controlOutputs, {}, {}};
  } else if (!controlOutputs.empty()) {
    // Consumers of ^call must still wait for the side effects: make output 0's Identity depend on them.
    auto& head = graph.mutableNode(callIndex).controlInputs;
    head.insert(head.end(), controlOutputs.begin(), controlOutputs.end());
  }
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    bool touches = false;
    for (const auto& in : n.inputs) touches |= in.node == call.name && in.index > 0;
    if (!touches) continue;
    Node& m = graph.mutableNode(i);
    for (auto& in : m.inputs)
      if (in.node == call.name && in.index > 0 && static_cast<size_t>(in.index) < outputNames.size())
        in = TensorRef{outputNames[static_cast<size_t>(in.index)], 0, ""};
  }
  return Status::ok();
}

}  // namespace

int flatOutputIndex(const Node& producer, const std::string& outputArg, int index, const OpLookup& lookup) {
  const OpDef* def = lookup(producer.op);
  if (!def) return -1;
  auto flat = flattenArgs(def->outputs, producer.attrs);
  if (!flat) return -1;
  for (size_t i = 0; i < flat->size(); ++i)
    if ((*flat)[i].arg->name == outputArg && (*flat)[i].indexInArg == index) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> reachableFunctions(const Graph& graph) {
  if (graph.library.functions().empty()) return {};  // nothing to reach (and no need to read every node's attrs)
  std::set<std::string> seen;
  std::vector<std::string> work;
  auto visit = [&](const Graph& g) {
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.node(i);
      if (graph.library.find(n.op)) work.push_back(n.op);
      for (const auto& [key, value] : n.attrs) collectFuncRefs(value, work);
    }
  };
  visit(graph);
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    if (!seen.insert(name).second) continue;
    if (const FunctionDef* f = graph.library.find(name); f && f->body) visit(*f->body);
  }
  return {seen.begin(), seen.end()};
}

bool isFunctionCall(const Node& node, const FunctionLibrary& library) { return isCallNode(node, library); }

Status inlineCall(Graph& graph, size_t callIndex, const OpLookup& lookup) {
  const Node& call = graph.node(callIndex);
  const FunctionDef* f = calledFunction(call, graph.library);
  if (!f || !f->body) return notFound("node '" + call.name + "' calls a function that is not in the library");
  FunctionDef copy = *f;
  const std::string name = call.name;
  Status s = inlineOne(graph, callIndex, copy, lookup);
  return s ? s : s.withContext("inlining '" + name + "': ");
}

Expected<InlineResult> inlineFunctionCalls(Graph& graph, const OpLookup& lookup, int maxDepth,
                                           const std::function<bool(const Node&, const FunctionDef&)>& shouldInline) {
  InlineResult result;
  for (int round = 0; round < maxDepth; ++round) {
    bool changed = false;
    for (size_t i = 0; i < graph.size(); ++i) {
      if (!isCallNode(graph.node(i), graph.library)) continue;
      const std::string name = graph.node(i).name;
      const FunctionDef* f = calledFunction(graph.node(i), graph.library);
      if (!f || !f->body) {
        const AttrValue* fa = graph.node(i).attr("f");
        std::string callee = fa && fa->kind() == AttrValue::Kind::kFunc ? fa->func().name : graph.node(i).op.str();
        return notFound("node '" + name + "' calls '" + callee + "', which is not in the function library");
      }
      if (shouldInline && !shouldInline(graph.node(i), *f)) continue;
      FunctionDef copy = *f;  // the library may change while inlining
      Status s = inlineOne(graph, i, copy, lookup);
      if (!s) return s.withContext("inlining '" + name + "': ");
      ++result.callsInlined;
      changed = true;
    }
    if (!changed) {
      std::vector<std::string> keep = reachableFunctions(graph);
      std::set<std::string> keepSet(keep.begin(), keep.end());
      auto& functions = graph.library.mutableFunctions();
      std::erase_if(functions, [&](const FunctionDef& f) { return !keepSet.count(f.name()); });
      return result;
    }
  }
  return invalidArgument("function calls nest deeper than " + std::to_string(maxDepth) + " levels (recursion?)");
}

}  // namespace flowscope
