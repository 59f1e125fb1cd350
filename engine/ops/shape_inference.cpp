// Graph-level shape inference: ordering, constants and the fallback to _output_shapes.
#include "ops/shape_inference.h"

#include <unordered_map>

#include "ops/op_registry.h"
#include "ops/shape_functions.h"

namespace flowscope {
namespace {

// Kahn's algorithm over data and control edges, last ready first; edges out of NextIteration are back edges.
std::vector<size_t> dependencyOrder(const EdgeIndex& edges) {
  const size_t n = edges.size();
  std::vector<size_t> pending(n, 0);
  for (size_t p = 0; p < n; ++p)
    if (!edges.closesLoop(p))
      for (const auto& use : edges.uses(p)) ++pending[use.node];
  std::vector<size_t> order, ready;
  for (size_t i = n; i-- > 0;)
    if (!pending[i]) ready.push_back(i);
  while (!ready.empty()) {
    size_t i = ready.back();
    ready.pop_back();
    order.push_back(i);
    if (edges.closesLoop(i)) continue;
    for (const auto& use : edges.uses(i))
      if (--pending[use.node] == 0) ready.push_back(use.node);
  }
  for (size_t i = 0; i < n; ++i)  // nodes on a cycle still get a (partial) answer
    if (pending[i]) order.push_back(i);
  return order;
}

// Constant outputs by (producer, output): the producer is the first node of its name, as inputs name it.
class ConstantOutputs {
 public:
  const Tensor* find(int64_t producer, const TensorRef& in) const {
    if (producer < 0 || !in.outputArg.empty()) return nullptr;  // function-style outputs are never constants here
    auto it = m_values.find(key(static_cast<size_t>(producer), in.index));
    return it == m_values.end() ? nullptr : &it->second;
  }
  void add(const Graph& graph, const Node& node, size_t output, const Tensor& value) {
    m_values.emplace(key(static_cast<size_t>(graph.find(node.name)), static_cast<int>(output)), value);
  }

 private:
  static uint64_t key(size_t node, int output) { return (uint64_t{node} << 32) | static_cast<uint32_t>(output); }
  std::unordered_map<uint64_t, Tensor> m_values;
};

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

// The outputs of a node a backend's placement added (it has no schema), as it declares them in kPlacedOutputShapesAttr,
// typed by its "T". Other nodes without a schema get none: their `_output_shapes`, recorded when the graph was
// exported, need not hold for what a run feeds.
std::vector<TensorInfo> placedOutputs(const Node& node) {
  std::vector<TensorInfo> outputs;
  const AttrValue* declared = node.attr(kPlacedOutputShapesAttr);
  if (!declared || declared->kind() != AttrValue::Kind::kList) return outputs;
  const AttrValue* type = node.attr("T");
  for (const Shape& shape : declared->list().shape)
    outputs.push_back({type && type->kind() == AttrValue::Kind::kType ? type->type() : DType::kInvalid, shape});
  return outputs;
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

GraphShapes inferShapes(const Graph& graph, const std::map<std::string, Shape>* fedShapes) {
  const OpRegistry& registry = OpRegistry::global();
  OpLookup lookup = registry.lookupWith(&graph.library);
  GraphShapes result;
  result.outputs.resize(graph.size());
  ConstantOutputs constants;
  const auto edges = graph.edges();
  for (size_t i : dependencyOrder(*edges)) {
    const Node& node = graph.node(i);
    const OpDef* def = lookup(node.op);
    if (!def) {  // an op without a schema: what a placement step declared for it, if anything
      result.outputs[i] = placedOutputs(node);
      continue;
    }
    ShapeContext ctx(node);
    const auto producers = edges->inputProducers(i);
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const int64_t src = producers[k];
      const TensorInfo* info = src < 0 ? nullptr : result.find(static_cast<size_t>(src), node.inputs[k].index);
      ctx.inputs.push_back(info ? *info : TensorInfo{});
      ctx.constants.push_back(constants.find(src, node.inputs[k]));
    }
    for (DType t : outputTypesOf(node, def)) ctx.outputs.push_back({t, Shape::unknownRank()});
    if (!graph.library.find(node.op)) runShapeFunction(ctx);
    if (const AttrValue* declared = node.attr("_output_shapes");
        declared && declared->kind() == AttrValue::Kind::kList && declared->list().shape.size() == ctx.outputs.size())
      for (size_t k = 0; k < ctx.outputs.size(); ++k)
        ctx.outputs[k].shape = mergeShapes(ctx.outputs[k].shape, declared->list().shape[k]);
    if (fedShapes && !ctx.outputs.empty())
      if (auto fed = fedShapes->find(node.name); fed != fedShapes->end()) ctx.outputs[0].shape = fed->second;
    for (size_t k = 0; k < ctx.outputs.size() && k < ctx.constantOutputs.size(); ++k) {
      if (!ctx.constantOutputs[k].isValid()) continue;
      constants.add(graph, node, k, ctx.constantOutputs[k]);
      if (node.op != "Const") result.computed.emplace(std::make_pair(i, static_cast<int>(k)), ctx.constantOutputs[k]);
    }
    result.outputs[i] = std::move(ctx.outputs);
  }
  return result;
}

}  // namespace flowscope
