// optimizeFunctionLibrary (function_library_optimization.h).
#include "passes/function_library_optimization.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <set>

#include "ir/function_calls.h"
#include "ir/function_instantiation.h"
#include "ir/hash.h"
#include "ir/inline_calls.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

bool fixedArgs(const std::vector<ArgDef>& args) {
  return std::all_of(args.begin(), args.end(), [](const ArgDef& a) {
    return a.typeAttr.empty() && a.numberAttr.empty() && a.typeListAttr.empty() && a.type != DType::kInvalid;
  });
}

// A body we can turn into a graph and back: one tensor per argument and result, no attr placeholders to bind.
bool optimizable(const FunctionDef& f) {
  return f.body && f.signature.attrs.empty() && fixedArgs(f.signature.inputs) && fixedArgs(f.signature.outputs);
}

int64_t intAttr(const Node& node, const char* key) {
  const AttrValue* v = node.attr(key);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : -1;
}

// The optimized body graph (an _Arg and a _Retval per argument and result, graph naming) as `f`'s body again.
Expected<FunctionDef> withBody(const FunctionDef& f, const Graph& graph, const OpLookup& lookup) {
  FunctionDef out = f;
  out.body = std::make_shared<Graph>();
  out.body->versions = f.body->versions;
  out.body->tensorNames = f.body->tensorNames;
  std::map<std::string, std::string> argOf;  // _Arg node -> argument name
  for (size_t i = 0; i < graph.size(); ++i)
    if (const Node& n = graph.node(i); n.op == "_Arg") {
      const int64_t index = intAttr(n, "index");
      if (index < 0 || static_cast<size_t>(index) >= f.signature.inputs.size())
        return invalidArgument("_Arg '" + n.name + "' has no argument index");
      argOf[n.name] = f.signature.inputs[static_cast<size_t>(index)].name;
    }
  auto functionRef = [&](const TensorRef& ref) -> Expected<TensorRef> {
    if (auto arg = argOf.find(ref.node); arg != argOf.end()) return TensorRef{arg->second, 0, ""};
    const Node* producer = graph.findNode(ref.node);
    const OpDef* def = producer ? lookup(producer->op) : nullptr;
    if (!def) return invalidArgument("no op schema for the producer of '" + ref.toString() + "'");
    auto flat = flattenArgs(def->outputs, producer->attrs);
    if (!flat || ref.index < 0 || static_cast<size_t>(ref.index) >= flat->size())
      return invalidArgument("cannot name output " + ref.toString() + " of op " + std::string(producer->op));
    const FlatArg& arg = (*flat)[static_cast<size_t>(ref.index)];
    return TensorRef{ref.node, arg.indexInArg, arg.arg->name};
  };
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    if (n.op == "_Arg") continue;
    if (n.op == "_Retval") {
      const int64_t index = intAttr(n, "index");
      if (index < 0 || static_cast<size_t>(index) >= f.signature.outputs.size() || n.inputs.size() != 1)
        return invalidArgument("_Retval '" + n.name + "' has no result index or input");
      FS_ASSIGN_OR_RETURN(TensorRef ref, functionRef(n.inputs[0]));
      out.ret[f.signature.outputs[static_cast<size_t>(index)].name] = ref.toString();
      continue;
    }
    Node node = n;
    for (auto& in : node.inputs) {
      FS_ASSIGN_OR_RETURN(in, functionRef(in));
    }
    out.body->addNode(std::move(node));
  }
  return out;
}

void addStats(const PipelineResult& result, PassStats& stats) {
  for (const auto& record : result.records)
    for (const auto& [key, value] : record.stats) stats[record.pass + "." + key] += value;
}

// `f`'s body through the pipeline; nullopt when it cannot be optimized or nothing changed. Functions the pipeline
// added (branches specialized for constants inside the body) join `library`.
Expected<std::optional<FunctionDef>> optimizeBody(const FunctionDef& f, FunctionLibrary& library,
                                                  const PassManager& manager, PassStats& stats) {
  if (!optimizable(f)) return std::optional<FunctionDef>();
  auto body = functionBodyGraph(f, library, OpRegistry::global().lookupWith(&library));
  if (!body || !body->namesUnique()) return std::optional<FunctionDef>();
  FunctionLibrary reached;  // what the body calls, nested calls included: the passes hash and verify all of it
  for (const std::string& name : reachableFunctions(*body)) reached.add(*library.find(name));
  body->library = std::move(reached);
  std::set<std::string> keep;  // what a caller sees: arguments, results, control results
  for (size_t i = 0; i < body->size(); ++i)
    if (body->node(i).op == "_Arg" || body->node(i).op == "_Retval") keep.insert(body->node(i).name);
  for (const auto& [ret, node] : f.controlRet) keep.insert(node);
  auto result = manager.run(*body, keep, true);
  if (!result && result.status().code() == ErrorCode::kCancelled) return result.status();
  if (!result || !std::any_of(result->records.begin(), result->records.end(), [](auto& r) { return r.changed; }))
    return std::optional<FunctionDef>();
  const Graph& optimized = *result->output;
  auto rewritten = withBody(f, optimized, OpRegistry::global().lookupWith(&optimized.library));
  if (!rewritten) return std::optional<FunctionDef>();
  for (const FunctionDef& added : optimized.library.functions()) {  // a name another body gave to something else
    const FunctionDef* known = library.find(added.name());
    if (known && known->body != added.body && hashFunction(*known) != hashFunction(added))
      return std::optional<FunctionDef>();
  }
  for (const FunctionDef& added : optimized.library.functions())
    if (!library.find(added.name())) library.add(added);
  addStats(*result, stats);
  ++stats["functions_optimized"];
  stats["body_nodes_before"] += static_cast<int64_t>(f.body->size());
  stats["body_nodes_after"] += static_cast<int64_t>(rewritten->body->size());
  return std::optional<FunctionDef>(std::move(rewritten).value());
}

}  // namespace

Expected<LibraryOptimization> optimizeFunctionLibrary(const Graph& graph, const PipelineOptions& options) {
  LibraryOptimization out;
  out.library = graph.library;
  PipelineOptions inner = options;
  inner.optimizeFunctions = false;  // nested bodies are visited here, outer ones first
  inner.keepSnapshots = false;
  inner.progress = nullptr;
  const PassManager manager(inner);
  std::deque<std::string> work;
  std::set<std::string> seen;
  auto visitCalls = [&](const Graph& g) {
    for (size_t i = 0; i < g.size(); ++i)
      for (const FunctionCall& call : calledFunctions(g.node(i), out.library)) work.push_back(call.function);
  };
  visitCalls(graph);
  while (!work.empty()) {
    if (options.cancelled && options.cancelled->load()) return cancelled("optimizing was cancelled");
    const std::string name = work.front();
    work.pop_front();
    const FunctionDef* found = out.library.find(name);
    if (!seen.insert(name).second || !found || !found->body) continue;
    const FunctionDef f = *found;  // a copy (bodies are shared): adding to the library moves its functions
    FS_ASSIGN_OR_RETURN(std::optional<FunctionDef> optimized, optimizeBody(f, out.library, manager, out.stats));
    if (optimized) {
      out.library.add(std::move(*optimized));  // replaces f
      out.changed = true;
    }
    visitCalls(*out.library.find(name)->body);  // the optimized body: a specialized branch, not the original
  }
  return out;
}

}  // namespace flowscope
