// FunctionOptimizer: inlines function calls (PartitionedCall, StatefulPartitionedCall, library-op calls) into the
// graph, specializes If/Case branches for constant arguments (a copy of each branch with the constant inside,
// named "<f>_specialized_for_<node>"), and drops library functions nothing refers to any more.
#include <map>
#include <set>

#include "ir/inline_calls.h"
#include "ops/onnx_op_set.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool optedOut(const FunctionDef& f, const char* attr) {
  auto it = f.attrs.find(attr);
  return it != f.attrs.end() && it->second.kind() == AttrValue::Kind::kBool && it->second.b();
}

// A copy of `f` whose arguments in `constants` (by position) are Const nodes inside the body instead.
Expected<FunctionDef> specialize(const FunctionDef& f, const std::map<size_t, Tensor>& constants,
                                 const std::string& newName) {
  FunctionDef out = f;
  out.signature.name = newName;
  out.body = std::make_shared<Graph>(*f.body);
  std::map<std::string, TensorRef> replaced;  // arg name -> Const output
  std::vector<ArgDef> inputs;
  std::map<uint32_t, AttrMap> argAttrs;
  std::map<uint32_t, uint32_t> resourceIds;
  for (size_t i = 0; i < f.signature.inputs.size(); ++i) {
    const ArgDef& arg = f.signature.inputs[i];
    auto constant = constants.find(i);
    if (constant == constants.end()) {
      auto newIndex = static_cast<uint32_t>(inputs.size());
      if (auto a = f.argAttrs.find(static_cast<uint32_t>(i)); a != f.argAttrs.end()) argAttrs[newIndex] = a->second;
      if (auto r = f.resourceArgUniqueIds.find(static_cast<uint32_t>(i)); r != f.resourceArgUniqueIds.end())
        resourceIds[newIndex] = r->second;
      inputs.push_back(arg);
      continue;
    }
    std::string name = uniqueNodeName(*out.body, arg.name + "_const");
    out.body->addNode(makeConst(name, constant->second, ""));
    replaced[arg.name] = TensorRef{name, 0, "output"};
  }
  out.signature.inputs = std::move(inputs);
  out.argAttrs = std::move(argAttrs);
  out.resourceArgUniqueIds = std::move(resourceIds);
  for (size_t i = 0; i < out.body->size(); ++i) {
    const Node& n = out.body->node(i);
    bool touches = false;
    for (const auto& in : n.inputs) touches |= in.outputArg.empty() && replaced.count(in.node);
    if (!touches) continue;
    for (auto& in : out.body->mutableNode(i).inputs)
      if (in.outputArg.empty())
        if (auto r = replaced.find(in.node); r != replaced.end()) in = r->second;
  }
  for (auto& [key, value] : out.ret)
    if (auto r = replaced.find(value); r != replaced.end()) value = r->second.toString();
  return out;
}

// Removes a branching node's inputs that are now constants inside its branches (input k + 1 for argument k) and
// their entries in its list of input types: TensorFlow's Tin lists the arguments, ONNX's in-types every input.
void dropArgumentsInside(Node& node, const std::map<size_t, Tensor>& constants, bool onnx) {
  const char* typesKey = onnx ? kOnnxInTypesAttr : "Tin";
  const AttrValue* typesAttr = node.attr(typesKey);
  const bool haveTypes = typesAttr && typesAttr->kind() == AttrValue::Kind::kList;
  AttrList types = haveTypes ? typesAttr->list() : AttrList{};
  const size_t offset = onnx ? 0 : 1;
  std::vector<TensorRef> inputs{node.inputs[0]};
  std::vector<DType> kept;
  if (onnx && !types.type.empty()) kept.push_back(types.type[0]);
  for (size_t k = 1; k < node.inputs.size(); ++k) {
    if (constants.count(k - 1)) continue;
    inputs.push_back(node.inputs[k]);
    if (k - offset < types.type.size()) kept.push_back(types.type[k - offset]);
  }
  node.inputs = std::move(inputs);
  if (haveTypes || !onnx) {
    types.type = std::move(kept);
    node.attrs[typesKey] = AttrValue::fromList(std::move(types));
  }
  if (onnx) node.attrs[kOnnxCapturesAttr] = AttrValue::fromInt(static_cast<int64_t>(node.inputs.size() - 1));
}

class FunctionInlining : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    auto inlined = inlineFunctionCalls(graph, context.lookup, 32,
                                       [](const Node&, const FunctionDef& f) { return !optedOut(f, "_noinline"); });
    if (!inlined) return inlined.status();
    if (inlined->callsInlined) result.stats["calls_inlined"] = static_cast<int64_t>(inlined->callsInlined);
    FS_ASSIGN_OR_RETURN(int64_t specialized, specializeBranches(graph));
    if (specialized) result.stats["branches_specialized"] = specialized;
    int64_t removed = dropUnusedFunctions(graph);
    if (removed) result.stats["functions_removed"] = removed;
    result.changed = !result.stats.empty();
    return result;
  }

 private:
  static Expected<int64_t> specializeBranches(Graph& graph) {
    int64_t count = 0;
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& node = graph.node(i);
      const bool isOnnxIf = node.op == "onnx::If";  // inputs: the condition, then values both branches capture
      bool isIf = node.op == "If" || node.op == "StatelessIf" || isOnnxIf;
      bool isCase = node.op == "Case" || node.op == "StatelessCase";
      if (!isIf && !isCase) continue;
      std::map<size_t, Tensor> constants;
      for (size_t k = 1; k < node.inputs.size(); ++k)
        if (const Tensor* t = constantInput(graph, node.inputs[k])) constants[k - 1] = *t;
      if (constants.empty()) continue;
      std::vector<std::string> attrNames;
      if (isIf)
        attrNames = {"then_branch", "else_branch"};
      else
        attrNames = {"branches"};
      Node changed = node;
      bool ok = true;
      auto specializeOne = [&](FuncAttr& ref, size_t branch) -> Status {
        const FunctionDef* f = graph.library.find(ref.name);
        if (!f || !f->body || optedOut(*f, "_nospecialize") || f->signature.inputs.size() != node.inputs.size() - 1) {
          ok = false;
          return Status::ok();
        }
        for (const auto& [k, t] : constants)
          if (!f->signature.inputs[k].numberAttr.empty() || !f->signature.inputs[k].typeListAttr.empty()) ok = false;
        if (!ok) return Status::ok();
        std::string name = functionNameFrom(f->name() + "_specialized_for_" + node.name +
                                            (isCase ? "_" + std::to_string(branch) : ""));
        FS_ASSIGN_OR_RETURN(FunctionDef copy, specialize(*f, constants, name));
        graph.library.add(std::move(copy));
        ref = FuncAttr{name, {}};
        return Status::ok();
      };
      for (const auto& attrName : attrNames) {
        auto it = changed.attrs.find(attrName);
        if (it == changed.attrs.end()) {
          ok = false;
          break;
        }
        if (it->second.kind() == AttrValue::Kind::kFunc) {
          FuncAttr ref = it->second.func();
          FS_RETURN_IF_ERROR(specializeOne(ref, 0));
          it->second = AttrValue::fromFunc(ref);
        } else if (it->second.kind() == AttrValue::Kind::kList) {
          AttrList list = it->second.list();
          for (size_t b = 0; b < list.func.size(); ++b) FS_RETURN_IF_ERROR(specializeOne(list.func[b], b));
          it->second = AttrValue::fromList(list);
        }
      }
      if (!ok) continue;  // the copies made so far are unreferenced and dropped below
      dropArgumentsInside(changed, constants, isOnnxIf);
      graph.mutableNode(i) = std::move(changed);
      ++count;
    }
    return count;
  }

  static int64_t dropUnusedFunctions(Graph& graph) {
    std::vector<std::string> keep = reachableFunctions(graph);
    std::set<std::string> keepSet(keep.begin(), keep.end());
    std::set<std::string> gradientTargets;  // functions named by gradient mappings stay
    for (const auto& g : graph.library.gradients) gradientTargets.insert(g.gradientFunc);
    auto& functions = graph.library.mutableFunctions();
    size_t before = functions.size();
    std::erase_if(functions,
                  [&](const FunctionDef& f) { return !keepSet.count(f.name()) && !gradientTargets.count(f.name()); });
    return static_cast<int64_t>(before - functions.size());
  }
};

}  // namespace

std::unique_ptr<Pass> createFunctionInlining() { return std::make_unique<FunctionInlining>(); }

}  // namespace flowscope
