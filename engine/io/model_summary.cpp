// Model summaries for info and the UI.
#include "io/model_summary.h"

#include <unordered_set>

#include "ir/graph_algorithms.h"
#include "ir/verify.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace flowscope {

ModelSummary summarizeModel(const Model& model) {
  const Graph& g = model.graph;
  const OpRegistry& registry = OpRegistry::global();
  OpLookup lookup = registry.lookupWith(&g.library);
  ModelSummary s;
  s.nodeCount = g.size();
  s.opHistogram = g.opHistogram();
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(i);
    if (n.op != "Placeholder" && n.op != "PlaceholderWithDefault") continue;
    GraphEndpoint e{n.name + ":0", n.op, DType::kInvalid, Shape::unknownRank()};
    if (const AttrValue* d = n.attr("dtype"); d && d->kind() == AttrValue::Kind::kType) e.dtype = d->type();
    if (const AttrValue* sh = n.attr("shape"); sh && sh->kind() == AttrValue::Kind::kShape) e.shape = sh->shape();
    s.inputs.push_back(std::move(e));
  }
  GraphShapes shapes = inferShapes(g);
  for (const auto& name : sinkNodes(g)) {
    auto index = static_cast<size_t>(g.find(name));
    const Node& n = g.node(index);
    const auto& outputs = shapes.outputs[index];
    for (size_t k = 0; k < outputs.size(); ++k)
      s.outputs.push_back({name + ":" + std::to_string(k), n.op, outputs[k].dtype, outputs[k].shape});
    if (!lookup(n.op)) s.outputs.push_back({name + ":0", n.op, DType::kInvalid, Shape::unknownRank()});
  }
  for (const auto& f : g.library.functions()) {
    size_t count = f.body ? f.body->size() : 0;
    s.functions.push_back({f.name(), count});
    s.functionNodeCount += count;
  }
  s.unknownOps = registry.unknownOpsIn(g);
  return s;
}

}  // namespace flowscope
