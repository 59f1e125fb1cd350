// Fed shapes made constant (shape_specialization.h): inputs whose value inference computed read a new Const
// (named after the producer), then producers left without readers are dropped, walking up the shape arithmetic.
#include "exec/shape_specialization.h"

#include <set>

#include "ir/graph_algorithms.h"
#include "ops/shape_inference.h"

namespace flowscope {
namespace {

constexpr int64_t kMaxSpecializedElements = 1024;  // shape vectors, not data

// Ops without effects that shape arithmetic is made of: dropped when nothing reads them any more.
bool shapeArithmetic(const std::string& op) {
  static const std::set<std::string> ops = {
      "Shape", "ShapeN",  "Size",     "Rank",    "StridedSlice", "Slice",    "Pack",     "Concat", "ConcatV2",
      "Cast",  "Squeeze", "Reshape",  "Range",   "ExpandDims",   "Fill",     "Prod",     "Mul",    "Add",
      "AddV2", "Sub",     "FloorDiv", "Maximum", "Minimum",      "Identity", "GatherV2", "Gather", "Const"};
  return ops.count(op) > 0;
}

Node constantNode(const std::string& name, const Tensor& value) {
  Node node;
  node.name = name;
  node.op = "Const";
  node.attrs["dtype"] = AttrValue::fromType(value.dtype());
  node.attrs["value"] = AttrValue::fromTensor(value);
  return node;
}

// Drops nodes of shape arithmetic that nothing reads, starting from `candidates` and walking to their producers.
void dropUnread(Graph& graph, std::vector<std::string> candidates, const std::set<std::string>& keep) {
  std::vector<bool> drop(graph.size(), false);
  std::map<std::string, size_t> readers;
  for (size_t i = 0; i < graph.size(); ++i) {
    for (const auto& in : graph.node(i).inputs) ++readers[in.node];
    for (const auto& c : graph.node(i).controlInputs) ++readers[c];
  }
  while (!candidates.empty()) {
    const std::string name = candidates.back();
    candidates.pop_back();
    const int64_t i = graph.find(name);
    if (i < 0 || drop[static_cast<size_t>(i)] || readers[name] > 0 || keep.count(name)) continue;
    const Node& node = graph.node(static_cast<size_t>(i));
    if (!shapeArithmetic(node.op)) continue;
    drop[static_cast<size_t>(i)] = true;
    for (const auto& in : node.inputs)
      if (--readers[in.node] == 0) candidates.push_back(in.node);
    for (const auto& c : node.controlInputs)
      if (--readers[c] == 0) candidates.push_back(c);
  }
  graph.removeNodes(drop);
}

}  // namespace

Graph specializeToFedShapes(const Graph& graph, const PlacementRequest& request) {
  if (request.fedShapes.empty()) return graph;
  const GraphShapes shapes = inferShapes(graph, &request.fedShapes);
  if (shapes.computed.empty()) return graph;
  std::set<std::string> keep = request.fedNodes;
  for (const auto& f : request.fetches) keep.insert(f.substr(0, f.find(':')));
  keep.insert(request.targets.begin(), request.targets.end());
  Graph out = graph;
  std::map<std::pair<size_t, int>, std::string> made;  // (producer, output) -> its Const
  std::vector<std::string> replaced;
  const size_t n = graph.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < graph.node(i).inputs.size(); ++k) {
      const TensorRef& in = graph.node(i).inputs[k];
      const int64_t p = graph.find(in.node);
      const Tensor* value = p >= 0 ? shapes.computedValue(static_cast<size_t>(p), in.index) : nullptr;
      if (!value || value->numElements() > kMaxSpecializedElements || keep.count(in.node)) continue;
      auto [it, fresh] = made.try_emplace({static_cast<size_t>(p), in.index});
      if (fresh) {
        it->second = in.node + (in.index ? "/specialized_" + std::to_string(in.index) : "/specialized");
        while (out.find(it->second) >= 0) it->second += "_";
        out.addNode(constantNode(it->second, *value));
      }
      out.mutableNode(i).inputs[k] = TensorRef{it->second, 0, ""};
      replaced.push_back(in.node);
    }
  }
  if (replaced.empty()) return graph;
  dropUnread(out, std::move(replaced), keep);
  return out;
}

}  // namespace flowscope
