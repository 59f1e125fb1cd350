// TensorRef parsing and printing; name scopes.
#include "ir/node.h"

#include "base/strings.h"

namespace flowscope {

std::string TensorRef::toString() const {
  if (!outputArg.empty()) return node + ":" + outputArg + ":" + std::to_string(index);
  return index == 0 ? node : node + ":" + std::to_string(index);
}

bool parseTensorRef(const std::string& text, bool functionStyle, TensorRef* out) {
  if (text.empty() || text[0] == '^') return false;
  std::vector<std::string> parts = splitString(text, ':');
  *out = TensorRef{};
  out->node = parts[0];
  if (out->node.empty()) return false;
  int64_t index = 0;
  if (parts.size() == 1) return true;
  if (parts.size() == 2) {
    if (!parseInt64(parts[1], &index) || index < 0 || index > (1 << 30)) return false;
    out->index = static_cast<int>(index);
    return true;
  }
  if (parts.size() == 3 && functionStyle) {
    if (parts[1].empty() || !parseInt64(parts[2], &index) || index < 0 || index > (1 << 30)) return false;
    out->outputArg = parts[1];
    out->index = static_cast<int>(index);
    return true;
  }
  return false;
}

std::string Node::scope() const {
  size_t pos = name.rfind('/');
  return pos == std::string::npos ? std::string() : name.substr(0, pos);
}

}  // namespace flowscope
