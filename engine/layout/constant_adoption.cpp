// Constants follow their readers: candidates, their readers, then the readers' deepest common scope.
#include "layout/constant_adoption.h"

#include <string_view>
#include <unordered_map>

namespace flowscope {
namespace {

bool isConstantOp(std::string_view op) { return op == "Const" || op == "onnx::Constant"; }
bool isIdentityOp(std::string_view op) { return op == "Identity" || op == "onnx::Identity"; }

/// Root-level constants, and root-level Identities of them (PyTorch's exporter shares a weight through one).
std::unordered_map<std::string_view, size_t> candidatesOf(const Graph& graph, const std::vector<int>& groupOf) {
  std::unordered_map<std::string_view, size_t> candidates;
  for (size_t i = 0; i < graph.size(); ++i)
    if (groupOf[i] == 0 && graph.node(i).inputs.empty() && isConstantOp(graph.node(i).op))
      candidates.emplace(graph.node(i).name, i);
  if (candidates.empty()) return candidates;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& node = graph.node(i);
    if (groupOf[i] == 0 && isIdentityOp(node.op) && node.inputs.size() == 1 && candidates.count(node.inputs[0].node))
      candidates.emplace(node.name, i);
  }
  return candidates;
}

int depthOf(int group, const std::function<int(int)>& parent) {
  int depth = 0;
  for (int at = parent(group); at >= 0; at = parent(at)) ++depth;
  return depth;
}

int commonScope(int a, int b, const std::function<int(int)>& parent) {
  int da = depthOf(a, parent), db = depthOf(b, parent);
  for (; da > db; --da) a = parent(a);
  for (; db > da; --db) b = parent(b);
  while (a != b) a = parent(a), b = parent(b);
  return a;
}

}  // namespace

void adoptUnscopedConstants(const Graph& graph, std::vector<int>& groupOf, const std::function<int(int)>& parent) {
  const auto candidates = candidatesOf(graph, groupOf);
  if (candidates.empty()) return;
  std::unordered_map<size_t, std::vector<size_t>> readers;
  for (size_t i = 0; i < graph.size(); ++i)
    for (const TensorRef& input : graph.node(i).inputs)
      if (auto it = candidates.find(input.node); it != candidates.end()) readers[it->second].push_back(i);
  // An Identity moves before the constant it passes on, so two rounds settle every chain this adopts.
  for (int round = 0; round < 2; ++round)
    for (const auto& [node, readBy] : readers) {
      int scope = groupOf[readBy.front()];
      for (size_t reader : readBy) scope = commonScope(scope, groupOf[reader], parent);
      groupOf[node] = scope;
    }
}

}  // namespace flowscope
