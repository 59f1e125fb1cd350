// Constants follow their readers: candidates, their readers, then the readers' deepest common scope.
#include "layout/constant_adoption.h"

#include <string_view>
#include <unordered_map>

namespace flowscope {
namespace {

bool isConstantOp(std::string_view op) { return op == "Const" || op == "onnx::Constant"; }
bool isIdentityOp(std::string_view op) { return op == "Identity" || op == "onnx::Identity"; }

/// Root-level constants, and root-level Identities of one (PyTorch's exporter shares a weight through one).
std::unordered_map<std::string_view, size_t> candidatesOf(const Graph& graph, const std::vector<int>& groupOf) {
  std::unordered_map<std::string_view, size_t> candidates;
  for (size_t i = 0; i < graph.size(); ++i)
    if (groupOf[i] == 0 && graph.node(i).inputs.empty() && isConstantOp(graph.node(i).op))
      candidates.emplace(graph.node(i).name, i);
  if (candidates.empty()) return candidates;
  std::vector<std::pair<std::string_view, size_t>> identities;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& node = graph.node(i);
    if (groupOf[i] == 0 && isIdentityOp(node.op) && node.inputs.size() == 1 && candidates.count(node.inputs[0].node))
      identities.emplace_back(node.name, i);
  }
  candidates.insert(identities.begin(), identities.end());
  return candidates;
}

/// Group depths, by the parent links (a parent comes before its children).
std::vector<int> depthsOf(const std::vector<int>& parents) {
  std::vector<int> depth(parents.size(), 0);
  for (size_t g = 1; g < parents.size(); ++g) depth[g] = depth[static_cast<size_t>(parents[g])] + 1;
  return depth;
}

int commonScope(int a, int b, const std::vector<int>& parents, const std::vector<int>& depth) {
  while (depth[static_cast<size_t>(a)] > depth[static_cast<size_t>(b)]) a = parents[static_cast<size_t>(a)];
  while (depth[static_cast<size_t>(b)] > depth[static_cast<size_t>(a)]) b = parents[static_cast<size_t>(b)];
  while (a != b) a = parents[static_cast<size_t>(a)], b = parents[static_cast<size_t>(b)];
  return a;
}

}  // namespace

void adoptUnscopedConstants(const Graph& graph, std::vector<int>& groupOf, const std::vector<int>& parents) {
  const auto candidates = candidatesOf(graph, groupOf);
  if (candidates.empty()) return;
  std::unordered_map<size_t, std::vector<size_t>> readers;
  for (size_t i = 0; i < graph.size(); ++i)
    for (const TensorRef& input : graph.node(i).inputs)
      if (auto it = candidates.find(input.node); it != candidates.end()) readers[it->second].push_back(i);
  const std::vector<int> depth = depthsOf(parents);
  // A constant read through an Identity follows it once the Identity has moved: the second round settles it.
  for (int round = 0; round < 2; ++round)
    for (const auto& [node, readBy] : readers) {
      int scope = groupOf[readBy.front()];
      for (size_t k = 1; k < readBy.size() && scope != 0; ++k)
        scope = commonScope(scope, groupOf[readBy[k]], parents, depth);
      groupOf[node] = scope;
    }
}

}  // namespace flowscope
