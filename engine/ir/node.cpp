// TensorRef parsing and printing; name scopes; what a fused node was made from.
#include "ir/node.h"

#include <algorithm>
#include <string_view>

#include "base/strings.h"

namespace flowscope {

std::string TensorRef::toString() const {
  if (!outputArg.empty()) return node + ":" + outputArg + ":" + std::to_string(index);
  return index == 0 ? node : node + ":" + std::to_string(index);
}

namespace {

// A flat output index: 0 .. 2^30.
bool parseIndex(std::string_view text, int* out) {
  int64_t index = 0;
  if (!parseInt64(text, &index) || index < 0 || index > (1 << 30)) return false;
  *out = static_cast<int>(index);
  return true;
}

}  // namespace

// "node", "node:i" or (function style) "node:out_arg:i", split without temporary strings.
bool parseTensorRef(const std::string& text, bool functionStyle, TensorRef* out) {
  if (text.empty() || text[0] == '^') return false;
  *out = TensorRef{};
  const std::string_view view = text;
  const size_t first = view.find(':');
  out->node.assign(view.substr(0, first));
  if (out->node.empty()) return false;
  if (first == std::string_view::npos) return true;
  const std::string_view rest = view.substr(first + 1);
  const size_t second = rest.find(':');
  if (second == std::string_view::npos) return parseIndex(rest, &out->index);
  if (!functionStyle || rest.find(':', second + 1) != std::string_view::npos) return false;
  const std::string_view arg = rest.substr(0, second);
  if (arg.empty() || !parseIndex(rest.substr(second + 1), &out->index)) return false;
  out->outputArg = InternedString(arg);
  return true;
}

std::vector<std::string> originalNames(const Node& node) {
  if (node.debugInfo && !node.debugInfo->originalNodeNames.empty()) return node.debugInfo->originalNodeNames;
  return {node.name};
}

bool computesItsOriginals(const Node& node) {
  return node.debugInfo && computesItsOriginals(node.name, node.debugInfo->originalNodeNames);
}

bool computesItsOriginals(const std::string& name, const std::vector<std::string>& originals) {
  return std::find(originals.begin(), originals.end(), name) != originals.end();
}

void recordFusion(Node& fused, std::initializer_list<const Node*> parts) {
  std::vector<std::string> names;
  for (const Node* part : parts)
    for (std::string& name : originalNames(*part))
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  if (names == originalNames(fused)) return;  // nothing fused (a node rewritten in place)
  auto info = std::make_shared<NodeDebugInfo>(fused.debugInfo ? *fused.debugInfo : NodeDebugInfo{});
  info->originalNodeNames = std::move(names);
  fused.debugInfo = std::move(info);
}

std::string Node::scope() const {
  size_t pos = name.rfind('/');
  return pos == std::string::npos ? std::string() : name.substr(0, pos);
}

}  // namespace flowscope
