// Graph-level shape inference: ordering, constants and the fallback to _output_shapes.
#include "ops/shape_inference.h"

#include <unordered_map>

#include "ops/op_registry.h"
#include "ops/shape_functions.h"

namespace flowscope {
namespace {

// Kahn's algorithm over data and control edges; edges out of NextIteration are back edges.
std::vector<size_t> dependencyOrder(const Graph& g) {
  const size_t n = g.size();
  std::vector<std::vector<size_t>> consumers(n);
  std::vector<size_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = g.node(i);
    auto edge = [&](const std::string& from) {
      int64_t src = g.find(from);
      if (src < 0 || g.node(static_cast<size_t>(src)).op == "NextIteration") return;
      consumers[static_cast<size_t>(src)].push_back(i);
      ++pending[i];
    };
    for (const auto& in : node.inputs) edge(in.node);
    for (const auto& c : node.controlInputs) edge(c);
  }
  std::vector<size_t> order, ready;
  for (size_t i = n; i-- > 0;)
    if (!pending[i]) ready.push_back(i);
  while (!ready.empty()) {
    size_t i = ready.back();
    ready.pop_back();
    order.push_back(i);
    for (size_t c : consumers[i])
      if (--pending[c] == 0) ready.push_back(c);
  }
  for (size_t i = 0; i < n; ++i)  // nodes on a cycle still get a (partial) answer
    if (pending[i]) order.push_back(i);
  return order;
}

int rankOrMinusOne(const Shape& s) { return s.hasUnknownRank() ? -1 : s.rank(); }

// Keeps whichever of the two knows more, dim by dim.
Shape mergeShapes(const Shape& inferred, const Shape& declared) {
  if (inferred.hasUnknownRank()) return declared;
  if (declared.hasUnknownRank() || rankOrMinusOne(declared) != rankOrMinusOne(inferred)) return inferred;
  std::vector<int64_t> dims = inferred.dims();
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] < 0) dims[k] = declared.dims()[k];
  return Shape(dims);
}

}  // namespace

bool broadcastShapes(const Shape& a, const Shape& b, Shape* out) {
  if (a.hasUnknownRank() || b.hasUnknownRank()) {
    *out = Shape::unknownRank();
    return true;
  }
  size_t rank = std::max(a.dims().size(), b.dims().size());
  std::vector<int64_t> dims(rank);
  for (size_t k = 0; k < rank; ++k) {
    int64_t x = k < rank - a.dims().size() ? 1 : a.dims()[k - (rank - a.dims().size())];
    int64_t y = k < rank - b.dims().size() ? 1 : b.dims()[k - (rank - b.dims().size())];
    if (x == 1)
      dims[k] = y;
    else if (y == 1)
      dims[k] = x;
    else if (x < 0 || y < 0)
      dims[k] = x < 0 ? (y < 0 ? -1 : y) : x;
    else if (x == y)
      dims[k] = x;
    else
      return false;
  }
  *out = Shape(dims);
  return true;
}

GraphShapes inferShapes(const Graph& graph) {
  const OpRegistry& registry = OpRegistry::global();
  OpLookup lookup = registry.lookupWith(&graph.library);
  GraphShapes result;
  result.outputs.resize(graph.size());
  std::unordered_map<std::string, Tensor> constants;  // "node:k" -> value

  for (size_t i : dependencyOrder(graph)) {
    const Node& node = graph.node(i);
    const OpDef* def = lookup(node.op);
    if (!def) continue;
    ShapeContext ctx(node);
    for (const auto& in : node.inputs) {
      int64_t src = graph.find(in.node);
      const TensorInfo* info = src < 0 ? nullptr : result.find(static_cast<size_t>(src), in.index);
      ctx.inputs.push_back(info ? *info : TensorInfo{});
      auto c = constants.find(in.toString());
      ctx.constants.push_back(c == constants.end() ? nullptr : &c->second);
    }
    for (DType t : outputTypesOf(node, def)) ctx.outputs.push_back({t, Shape::unknownRank()});
    if (!graph.library.find(node.op)) runShapeFunction(ctx);
    if (const AttrValue* declared = node.attr("_output_shapes");
        declared && declared->kind() == AttrValue::Kind::kList && declared->list().shape.size() == ctx.outputs.size())
      for (size_t k = 0; k < ctx.outputs.size(); ++k)
        ctx.outputs[k].shape = mergeShapes(ctx.outputs[k].shape, declared->list().shape[k]);
    for (size_t k = 0; k < ctx.outputs.size() && k < ctx.constantOutputs.size(); ++k)
      if (ctx.constantOutputs[k].isValid())
        constants.emplace(k == 0 ? node.name : node.name + ":" + std::to_string(k), ctx.constantOutputs[k]);
    result.outputs[i] = std::move(ctx.outputs);
  }
  return result;
}

}  // namespace flowscope
