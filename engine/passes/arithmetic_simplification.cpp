// ArithmeticOptimizer: applies the rules of arithmetic_rules.cpp to every node, in dependency order.
#include <unordered_set>

#include "passes/arithmetic_rules.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

const std::unordered_set<std::string> kCandidateOps = {
    "Add",    "AddV2", "Sub",  "Mul",       "Div",  "RealDiv", "Neg",    "Reciprocal", "LogicalNot",
    "Conj",   "Floor", "Ceil", "Round",     "Rint", "Relu",    "Relu6",  "Abs",        "Sign",
    "Square", "Log",   "Pow",  "Transpose", "Cast", "Reshape", "MatMul", "AddN"};

class ArithmeticSimplification : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    PassResult result;
    LazyShapes shapes(graph);
    const size_t original = graph.size();  // helper nodes appended by rules are not revisited
    for (size_t i : topologicalOrder(graph)) {
      if (i >= original) continue;
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      if (!kCandidateOps.count(graph.node(i).op)) continue;  // cheap filter: the ops some rule looks at
      RewriteSite site{graph, context, shapes, i};
      for (const auto& rule : arithmeticRules())
        if (rule.apply(site)) {
          ++result.stats[rule.name];
          break;  // one rewrite per node per run; the next iteration sees the new op
        }
    }
    result.changed = !result.stats.empty();
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> createArithmeticSimplification() { return std::make_unique<ArithmeticSimplification>(); }

}  // namespace flowscope
