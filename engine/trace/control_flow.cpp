// cond and whileLoop.
#include "trace/control_flow.h"

#include <map>

#include "trace/func_graph.h"
#include "trace/ops.h"

namespace flowscope::tf {
namespace {

std::string captureKey(const Tensor& t) {
  auto g = t.graph();
  return (g ? g->name() : std::string("?")) + "/" + t.ref().toString();
}

struct Traced {
  std::shared_ptr<FuncGraph> graph;
  std::vector<Tensor> outputs;  ///< already local to `graph` (outer tensors returned as they are are captured)
};

// Traces `fn` into a new graph under the current one; `loopVars` become its first placeholders. The outputs are
// not set yet: the caller may add pass-through values first.
Traced traceInto(const std::string& name, const std::string& nameScope, const std::vector<Tensor>& loopVars,
                 const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn) {
  auto outer = currentGraph();
  auto graph = std::make_shared<FuncGraph>(name, outer, outer->sharedLibrary(), nameScope);
  TracingScope scope(graph);
  std::vector<Tensor> args;
  for (size_t i = 0; i < loopVars.size(); ++i)
    args.push_back(graph->addInput("loop_var", loopVars[i].dtype(), loopVars[i].shape()));
  Traced traced{graph, {}};
  for (const auto& out : fn(args)) traced.outputs.push_back(graph->capture(out));
  return traced;
}

// The captures of all graphs, in first-seen order, as outer tensors.
std::vector<Tensor> unionOfCaptures(const std::vector<std::shared_ptr<FuncGraph>>& graphs) {
  std::vector<Tensor> all;
  std::map<std::string, bool> seen;
  for (const auto& g : graphs)
    for (const auto& [outer, inner] : g->captures())
      if (!seen[captureKey(outer)]) {
        seen[captureKey(outer)] = true;
        all.push_back(outer);
      }
  return all;
}

// Input order for a graph: its first `leading` inputs, then one per capture in `all` (added when it lacks one).
std::vector<std::string> alignedInputs(FuncGraph& g, size_t leading, const std::vector<Tensor>& all) {
  std::vector<std::string> order(g.inputs().begin(), g.inputs().begin() + static_cast<std::ptrdiff_t>(leading));
  std::map<std::string, std::string> placeholderOf;
  for (const auto& [outer, inner] : g.captures()) placeholderOf[captureKey(outer)] = inner;
  for (const auto& t : all) {
    auto it = placeholderOf.find(captureKey(t));
    if (it != placeholderOf.end())
      order.push_back(it->second);
    else
      order.push_back(g.addInput("placeholder", t.dtype(), t.shape()).ref().node);
  }
  return order;
}

void addToLibrary(FuncGraph& g, const std::string& name, const std::vector<std::string>& inputOrder,
                  const std::vector<Tensor>& outputs) {
  {
    TracingScope scope(g.shared_from_this());
    g.setOutputs(outputs);
  }
  g.setInputOrder(inputOrder);
  auto f = g.toFunctionDef(name, g.outputArgNames());
  if (!f) throw Error(f.status().code(), f.status().message());
  g.library().add(std::move(f).value());
}

AttrValue typeList(const std::vector<Tensor>& ts) {
  AttrList list;
  for (const auto& t : ts) list.type.push_back(t.dtype());
  return AttrValue::fromList(list);
}

AttrValue shapeList(const std::vector<Tensor>& ts) {
  AttrList list;
  for (const auto& t : ts) list.shape.push_back(t.shape());
  return AttrValue::fromList(list);
}

// The outputs of an If or While node seen through Identity nodes named "<node>/Identity", "<node>/Identity_1", ...,
// as TensorFlow's cond_v2 and while_v2 leave them.
std::vector<Tensor> identitiesOf(FuncGraph& graph, const std::vector<Tensor>& outputs) {
  std::vector<Tensor> seen;
  for (const auto& out : outputs) {
    Tensor identity = graph.addOp("Identity", {out}, {}, out.ref().node + "/Identity").at(0);
    seen.push_back(Tensor::symbolic(identity.graph(), identity.ref(), out.dtype(), out.shape()));
  }
  return seen;
}

}  // namespace

std::vector<Tensor> cond(const Tensor& pred, const Branch& thenBranch, const Branch& elseBranch) {
  auto outer = currentGraph();
  if (!outer) return truthy(pred) ? thenBranch() : elseBranch();
  const int uid = nextFunctionUid();
  auto noArgs = [](const Branch& b) { return [&b](const std::vector<Tensor>&) { return b(); }; };
  Traced thenTraced = traceInto("cond_true_" + std::to_string(uid), "cond/", {}, noArgs(thenBranch));
  Traced elseTraced = traceInto("cond_false_" + std::to_string(uid), "cond/", {}, noArgs(elseBranch));
  auto& thenGraph = thenTraced.graph;
  auto& elseGraph = elseTraced.graph;
  const auto& a = thenTraced.outputs;
  const auto& b = elseTraced.outputs;
  if (a.size() != b.size())
    throw Error(ErrorCode::kInvalidArgument, "cond: the branches return different numbers of values");
  std::vector<Tensor> merged;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].dtype() != b[k].dtype())
      throw Error(ErrorCode::kInvalidArgument, "cond: output " + std::to_string(k) + " is " +
                                                   std::string(dtypeName(a[k].dtype())) + " in the true branch and " +
                                                   std::string(dtypeName(b[k].dtype())) + " in the false branch");
    merged.push_back(Tensor::symbolic(nullptr, {}, a[k].dtype(), commonShape(a[k].shape(), b[k].shape())));
  }
  std::vector<Tensor> captures = unionOfCaptures({thenGraph, elseGraph});
  addToLibrary(*thenGraph, thenGraph->name(), alignedInputs(*thenGraph, 0, captures), a);
  addToLibrary(*elseGraph, elseGraph->name(), alignedInputs(*elseGraph, 0, captures), b);
  const bool stateful = !thenGraph->statefulNodes().empty() || !elseGraph->statefulNodes().empty();
  std::vector<Tensor> inputs{pred};
  inputs.insert(inputs.end(), captures.begin(), captures.end());
  AttrMap attrs{{"Tcond", AttrValue::fromType(pred.dtype())},
                {"Tin", typeList(captures)},
                {"Tout", typeList(merged)},
                {"then_branch", AttrValue::fromFunc(FuncAttr{thenGraph->name(), {}})},
                {"else_branch", AttrValue::fromFunc(FuncAttr{elseGraph->name(), {}})},
                {"output_shapes", shapeList(merged)},
                {"_lower_using_switch_merge", AttrValue::fromBool(true)}};
  auto outputs = outer->addOp(stateful ? "If" : "StatelessIf", inputs, attrs, "cond");
  for (size_t k = 0; k < outputs.size(); ++k)
    outputs[k] = Tensor::symbolic(outputs[k].graph(), outputs[k].ref(), merged[k].dtype(), merged[k].shape());
  return identitiesOf(*outer, outputs);
}

Tensor cond(const Tensor& pred, const std::function<Tensor()>& thenBranch, const std::function<Tensor()>& elseBranch) {
  auto out = cond(pred, Branch([&] { return std::vector<Tensor>{thenBranch()}; }),
                  Branch([&] { return std::vector<Tensor>{elseBranch()}; }));
  return out.at(0);
}

std::vector<Tensor> whileLoop(const LoopCondition& condition, const LoopBody& body,
                              const std::vector<Tensor>& loopVars) {
  auto outer = currentGraph();
  if (!outer) {
    std::vector<Tensor> vars = loopVars;
    while (truthy(condition(vars))) vars = body(vars);
    return vars;
  }
  const int uid = nextFunctionUid();
  const size_t n = loopVars.size();
  Traced bodyTraced = traceInto("while_body_" + std::to_string(uid), "while/", loopVars, body);
  Traced condTraced = traceInto("while_cond_" + std::to_string(uid), "while/", loopVars,
                                [&](const std::vector<Tensor>& vars) { return std::vector<Tensor>{condition(vars)}; });
  auto& bodyGraph = bodyTraced.graph;
  auto& condGraph = condTraced.graph;
  if (bodyTraced.outputs.size() != n)
    throw Error(ErrorCode::kInvalidArgument, "whileLoop: the body returns " +
                                                 std::to_string(bodyTraced.outputs.size()) + " values for " +
                                                 std::to_string(n) + " loop variables");
  for (size_t k = 0; k < n; ++k)
    if (bodyTraced.outputs[k].dtype() != loopVars[k].dtype())
      throw Error(ErrorCode::kInvalidArgument, "whileLoop: loop variable " + std::to_string(k) + " enters as " +
                                                   std::string(dtypeName(loopVars[k].dtype())) +
                                                   " and the body returns " +
                                                   std::string(dtypeName(bodyTraced.outputs[k].dtype())));
  // Captured tensors become extra loop variables that the body passes through unchanged.
  std::vector<Tensor> captures = unionOfCaptures({bodyGraph, condGraph});
  std::vector<std::string> bodyInputs = alignedInputs(*bodyGraph, n, captures);
  std::vector<Tensor> bodyOutputs = bodyTraced.outputs;
  for (size_t k = n; k < bodyInputs.size(); ++k) {  // captures pass through the body unchanged
    const Node* p = bodyGraph->graph().findNode(bodyInputs[k]);
    bodyOutputs.push_back(Tensor::symbolic(bodyGraph, TensorRef{bodyInputs[k], 0, ""}, p->attr("dtype")->type(),
                                           p->attr("shape")->shape()));
  }
  addToLibrary(*bodyGraph, bodyGraph->name(), bodyInputs, bodyOutputs);
  addToLibrary(*condGraph, condGraph->name(), alignedInputs(*condGraph, n, captures), condTraced.outputs);
  std::vector<Tensor> all = loopVars;
  all.insert(all.end(), captures.begin(), captures.end());
  std::vector<Tensor> shapes;
  for (size_t k = 0; k < all.size(); ++k)
    shapes.push_back(Tensor::symbolic(nullptr, {}, all[k].dtype(),
                                      k < n ? commonShape(all[k].shape(), bodyOutputs[k].shape()) : all[k].shape()));
  const bool stateful = !bodyGraph->statefulNodes().empty() || !condGraph->statefulNodes().empty();
  AttrMap attrs{{"T", typeList(all)},
                {"cond", AttrValue::fromFunc(FuncAttr{condGraph->name(), {}})},
                {"body", AttrValue::fromFunc(FuncAttr{bodyGraph->name(), {}})},
                {"output_shapes", shapeList(shapes)},
                {"parallel_iterations", AttrValue::fromInt(10)},
                {"_lower_using_switch_merge", AttrValue::fromBool(true)}};
  auto outputs = outer->addOp(stateful ? "While" : "StatelessWhile", all, attrs, "while");
  outputs.resize(n);
  for (size_t k = 0; k < n; ++k)
    outputs[k] = Tensor::symbolic(outputs[k].graph(), outputs[k].ref(), shapes[k].dtype(), shapes[k].shape());
  return identitiesOf(*outer, outputs);
}

}  // namespace flowscope::tf
