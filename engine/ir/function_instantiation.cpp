// Function instantiation: a library function's body as a graph of its own.
#include "ir/function_instantiation.h"

#include "ir/inline_calls.h"
#include "ir/verify.h"

namespace flowscope {
namespace {

void bindPlaceholders(AttrValue& value, const AttrMap& callAttrs) {
  if (value.kind() == AttrValue::Kind::kPlaceholder) {
    auto it = callAttrs.find(value.placeholder());
    if (it != callAttrs.end()) value = it->second;
  }
}

}  // namespace

Expected<InstantiatedFunction> instantiateFunction(const FunctionDef& f, const AttrMap& callAttrs,
                                                   const FunctionLibrary& library, const OpLookup& lookup) {
  InstantiatedFunction out;
  out.graph.library = library;
  std::map<std::string, std::vector<std::string>> argElements;  // arg -> node names of its flat elements
  for (size_t i = 0; i < f.signature.inputs.size(); ++i) {
    const ArgDef& arg = f.signature.inputs[i];
    auto flat = flattenArgs({arg}, callAttrs);
    size_t count = flat ? flat->size() : 1;
    for (size_t k = 0; k < count; ++k) {
      Node node;
      node.name = count == 1 ? arg.name : arg.name + "/_" + std::to_string(k);
      node.op = "_Arg";
      DType t = flat && k < flat->size() ? (*flat)[k].dtype : arg.type;
      node.attrs["T"] = AttrValue::fromType(t);
      node.attrs["index"] = AttrValue::fromInt(static_cast<int64_t>(out.argNodes.size()));
      // The argument's declared shape (TensorFlow writes it as the arg attr _output_shapes), for shape inference.
      if (auto attrs = f.argAttrs.find(static_cast<uint32_t>(i)); attrs != f.argAttrs.end() && count == 1)
        if (auto shapes = attrs->second.find("_output_shapes"); shapes != attrs->second.end())
          node.attrs["_output_shapes"] = shapes->second;
      argElements[arg.name].push_back(node.name);
      out.argNodes.push_back(node.name);
      out.graph.addNode(std::move(node));
    }
  }
  auto resolve = [&](const TensorRef& ref) -> Expected<TensorRef> {
    if (ref.outputArg.empty()) {
      auto arg = argElements.find(ref.node);
      if (arg != argElements.end()) {
        if (static_cast<size_t>(ref.index) >= arg->second.size())
          return invalidArgument("function '" + f.name() + "' reads element " + std::to_string(ref.index) +
                                 " of argument '" + ref.node + "'");
        return TensorRef{arg->second[static_cast<size_t>(ref.index)], 0, ""};
      }
      return ref;
    }
    const Node* producer = f.body->findNode(ref.node);
    if (!producer) return invalidArgument("function '" + f.name() + "' refers to unknown node '" + ref.node + "'");
    Node bound = *producer;
    for (auto& [k, v] : bound.attrs) bindPlaceholders(v, callAttrs);
    int index = flatOutputIndex(bound, ref.outputArg, ref.index, lookup);
    if (index < 0)
      return invalidArgument("function '" + f.name() + "': op '" + producer->op + "' has no output '" + ref.outputArg +
                             ":" + std::to_string(ref.index) + "'");
    return TensorRef{ref.node, index, ""};
  };
  for (size_t i = 0; i < f.body->size(); ++i) {
    Node node = f.body->node(i);
    for (auto& [k, v] : node.attrs) bindPlaceholders(v, callAttrs);
    for (auto& in : node.inputs) {
      FS_ASSIGN_OR_RETURN(in, resolve(in));
    }
    const OpDef* def = lookup(node.op);
    if (isStatefulNode(node, def) || node.op == "PrintV2" || node.op == "Assert") out.targets.push_back(node.name);
    out.graph.addNode(std::move(node));
  }
  for (const auto& arg : f.signature.outputs) {
    auto it = f.ret.find(arg.name);
    if (it == f.ret.end())
      return invalidArgument("function '" + f.name() + "' has no ret for output '" + arg.name + "'");
    TensorRef ref;
    if (!parseTensorRef(it->second, true, &ref))
      return invalidArgument("function '" + f.name() + "': bad ret '" + it->second + "'");
    FS_ASSIGN_OR_RETURN(TensorRef resolved, resolve(ref));
    out.rets.push_back(resolved.node + ":" + std::to_string(resolved.index));
  }
  for (const auto& [name, node] : f.controlRet) out.targets.push_back(node);
  return out;
}

Expected<Graph> functionBodyGraph(const FunctionDef& function, const FunctionLibrary& library, const OpLookup& lookup) {
  if (!function.body) return invalidArgument("function '" + function.name() + "' has no body");
  FS_ASSIGN_OR_RETURN(InstantiatedFunction inst, instantiateFunction(function, {}, library, lookup));
  for (size_t i = 0; i < inst.rets.size() && i < function.signature.outputs.size(); ++i) {
    Node ret;
    ret.name = function.signature.outputs[i].name;
    while (inst.graph.find(ret.name) >= 0) ret.name += "_retval";
    ret.op = "_Retval";
    TensorRef ref;
    parseTensorRef(inst.rets[i], false, &ref);
    ret.inputs.push_back(ref);
    ret.attrs["index"] = AttrValue::fromInt(static_cast<int64_t>(i));
    ret.attrs["T"] = AttrValue::fromType(function.signature.outputs[i].type);
    inst.graph.addNode(std::move(ret));
  }
  return std::move(inst.graph);
}

}  // namespace flowscope
