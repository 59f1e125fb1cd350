// Loop-invariant code motion for functional While loops: body computations that depend only on loop variables
// the body passes through unchanged (and on constants) are computed once before the loop and enter it as new
// pass-through loop variables. The loop gets specialized copies of its cond and body ("<f>_licm_<node>").
#include <map>
#include <set>

#include "ir/inline_calls.h"
#include "ir/verify.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

// A body value: an argument (outputArg empty) or a node's named output.
std::string keyOf(const TensorRef& ref) { return ref.toString(); }

class LoopInvariantMotion : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    const size_t original = graph.size();
    for (size_t i = 0; i < original; ++i) {
      const std::string& op = graph.node(i).op;
      if (op != "While" && op != "StatelessWhile") continue;
      FS_ASSIGN_OR_RETURN(int64_t hoisted, hoist(graph, context, i));
      if (hoisted) {
        result.stats["nodes_hoisted"] += hoisted;
        ++result.stats["loops_changed"];
      }
    }
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  static Expected<int64_t> hoist(Graph& graph, const PassContext& context, size_t loopIndex) {
    const Node loop = graph.node(loopIndex);
    const AttrValue* bodyAttr = loop.attr("body");
    const AttrValue* condAttr = loop.attr("cond");
    const AttrValue* types = loop.attr("T");
    if (!bodyAttr || !condAttr || !types || bodyAttr->kind() != AttrValue::Kind::kFunc ||
        condAttr->kind() != AttrValue::Kind::kFunc || types->kind() != AttrValue::Kind::kList)
      return 0;
    const FunctionDef* body = graph.library.find(bodyAttr->func().name);
    const FunctionDef* cond = graph.library.find(condAttr->func().name);
    const size_t vars = types->list().type.size();
    if (!body || !cond || !body->body || !cond->body || body->signature.inputs.size() != vars ||
        body->signature.outputs.size() != vars || cond->signature.inputs.size() != vars || loop.inputs.size() != vars)
      return 0;
    const Graph& b = *body->body;

    // Arguments the body returns unchanged.
    std::set<std::string> invariant;
    for (size_t k = 0; k < vars; ++k) {
      auto ret = body->ret.find(body->signature.outputs[k].name);
      if (ret != body->ret.end() && ret->second == body->signature.inputs[k].name)
        invariant.insert(body->signature.inputs[k].name);
    }
    if (invariant.empty()) return 0;

    // Invariant body nodes, in dependency order.
    std::set<std::string> hoistable, constants;
    for (size_t i : topologicalOrder(b)) {
      const Node& n = b.node(i);
      if (context.isPreserved(n) || isDataflowControlOp(n.op) || !n.controlInputs.empty()) continue;
      if (n.op == "Const" && n.inputs.empty()) {
        constants.insert(n.name);
        continue;
      }
      if (isFunctionCall(n, graph.library) || n.attr("then_branch") || n.attr("body") || n.attr("f")) continue;
      bool all = !n.inputs.empty();
      for (const auto& in : n.inputs)
        all &= in.outputArg.empty() ? invariant.count(in.node) > 0
                                    : (hoistable.count(in.node) > 0 || constants.count(in.node) > 0);
      if (all) hoistable.insert(n.name);
    }
    if (hoistable.empty()) return 0;

    // Values of hoisted nodes that the rest of the body still reads become new loop variables.
    std::map<std::string, TensorRef> exported;  // body value -> its ref
    auto noteUse = [&](const TensorRef& in) {
      if (!in.outputArg.empty() && hoistable.count(in.node)) exported.emplace(keyOf(in), in);
    };
    for (size_t i = 0; i < b.size(); ++i)
      if (!hoistable.count(b.node(i).name))
        for (const auto& in : b.node(i).inputs) noteUse(in);
    for (const auto& [out, value] : body->ret) {
      TensorRef ref;
      if (parseTensorRef(value, true, &ref)) noteUse(ref);
    }
    if (exported.empty()) return 0;

    // Outer copies of the hoisted nodes and the constants they read.
    const std::string prefix = loop.name + "/licm/";
    std::map<std::string, size_t> argIndex;
    for (size_t k = 0; k < vars; ++k) argIndex[body->signature.inputs[k].name] = k;
    auto outerRef = [&](const TensorRef& in) -> Expected<TensorRef> {
      if (in.outputArg.empty()) return loop.inputs[argIndex.at(in.node)];
      const Node* producer = b.findNode(in.node);
      int flat = producer ? flatOutputIndex(*producer, in.outputArg, in.index, context.lookup) : -1;
      if (flat < 0) return unimplemented("cannot resolve '" + in.toString() + "' in '" + body->name() + "'");
      return TensorRef{prefix + in.node, flat, ""};
    };
    std::set<std::string> constantsRead;  // only the constants hoisted nodes read go along
    for (size_t i = 0; i < b.size(); ++i)
      if (hoistable.count(b.node(i).name))
        for (const auto& in : b.node(i).inputs)
          if (constants.count(in.node)) constantsRead.insert(in.node);
    std::vector<Node> outer;
    for (size_t i : topologicalOrder(b)) {
      const Node& n = b.node(i);
      if (!hoistable.count(n.name) && !constantsRead.count(n.name)) continue;
      Node copy = n;
      copy.name = prefix + n.name;
      if (copy.device.empty()) copy.device = loop.device;
      for (auto& in : copy.inputs) {
        FS_ASSIGN_OR_RETURN(in, outerRef(in));
      }
      for (const auto& [k, v] : copy.attrs)
        if (v.kind() == AttrValue::Kind::kPlaceholder) return 0;  // polymorphic body: leave it
      outer.push_back(std::move(copy));
    }

    FunctionDef newBody = *body, newCond = *cond;
    newBody.signature.name = functionNameFrom(body->name() + "_licm_" + loop.name);
    newCond.signature.name = functionNameFrom(cond->name() + "_licm_" + loop.name);
    newBody.body = std::make_shared<Graph>(b);
    newCond.body = std::make_shared<Graph>(*cond->body);
    Node newLoop = loop;
    AttrList typeList = types->list();
    std::map<std::string, std::string> replacement;  // body value -> new arg name
    size_t k = 0;
    for (const auto& [key, ref] : exported) {
      const Node* producer = b.findNode(ref.node);
      int flat = flatOutputIndex(*producer, ref.outputArg, ref.index, context.lookup);
      auto outTypes = outputTypesOf(*producer, context.lookup(producer->op));
      if (flat < 0 || static_cast<size_t>(flat) >= outTypes.size()) return 0;
      std::string arg = "licm_" + std::to_string(k++);
      ArgDef def;
      def.name = arg;
      def.type = outTypes[static_cast<size_t>(flat)];
      newBody.signature.inputs.push_back(def);
      newBody.signature.outputs.push_back(def);
      newBody.ret[arg] = arg;
      newCond.signature.inputs.push_back(def);
      typeList.type.push_back(def.type);
      newLoop.inputs.push_back(TensorRef{prefix + ref.node, flat, ""});
      replacement[key] = arg;
    }
    Graph& nb = *newBody.body;
    for (size_t i = 0; i < nb.size(); ++i) {
      bool touches = false;
      for (const auto& in : nb.node(i).inputs) touches |= replacement.count(keyOf(in)) > 0;
      if (!touches) continue;
      for (auto& in : nb.mutableNode(i).inputs)
        if (auto r = replacement.find(keyOf(in)); r != replacement.end()) in = TensorRef{r->second, 0, ""};
    }
    for (auto& [out, value] : newBody.ret)
      if (auto r = replacement.find(value); r != replacement.end()) value = r->second;
    nb.removeNodes([&](const Node& n) { return hoistable.count(n.name) > 0; });

    newLoop.attrs["T"] = AttrValue::fromList(typeList);
    newLoop.attrs["body"] = AttrValue::fromFunc(FuncAttr{newBody.name(), {}});
    newLoop.attrs["cond"] = AttrValue::fromFunc(FuncAttr{newCond.name(), {}});
    if (const AttrValue* shapes = loop.attr("output_shapes");
        shapes && shapes->kind() == AttrValue::Kind::kList && !shapes->list().shape.empty()) {
      AttrList list = shapes->list();
      while (list.shape.size() < typeList.type.size()) list.shape.push_back(Shape::unknownRank());
      newLoop.attrs["output_shapes"] = AttrValue::fromList(list);
    }
    graph.library.add(std::move(newBody));
    graph.library.add(std::move(newCond));
    for (auto& n : outer) graph.addNode(std::move(n));
    graph.mutableNode(loopIndex) = std::move(newLoop);
    return static_cast<int64_t>(hoistable.size());
  }
};

}  // namespace

std::unique_ptr<Pass> createLoopInvariantMotion() { return std::make_unique<LoopInvariantMotion>(); }

}  // namespace flowscope
