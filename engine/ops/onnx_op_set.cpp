// ONNX op names and the bookkeeping attrs of ONNX nodes.
#include "ops/onnx_op_set.h"

#include <algorithm>

namespace flowscope {

std::string onnxOpName(std::string_view domain, std::string_view opType) {
  std::string prefix = domain.empty() || domain == "ai.onnx" ? std::string(kOnnxDefaultPrefix) : std::string(domain);
  return prefix + "::" + std::string(opType);
}

bool isOnnxOp(std::string_view op) { return op.find("::") != std::string_view::npos; }

bool splitOnnxOpName(std::string_view op, std::string* domain, std::string* opType) {
  size_t sep = op.rfind("::");
  if (sep == std::string_view::npos) return false;
  std::string_view prefix = op.substr(0, sep);
  *domain = prefix == kOnnxDefaultPrefix ? std::string() : std::string(prefix);
  *opType = std::string(op.substr(sep + 2));
  return true;
}

std::string_view onnxDefaultType(std::string_view op) {
  if (op.size() <= kOnnxDefaultPrefix.size() + 2 || op.substr(0, kOnnxDefaultPrefix.size()) != kOnnxDefaultPrefix ||
      op.substr(kOnnxDefaultPrefix.size(), 2) != "::")
    return {};
  return op.substr(kOnnxDefaultPrefix.size() + 2);
}

std::string_view displayOpName(std::string_view op) {
  size_t sep = op.rfind("::");
  return sep == std::string_view::npos ? op : op.substr(sep + 2);
}

int64_t onnxOpset(const Node& node, int64_t fallback) {
  const AttrValue* v = node.attr(kOnnxOpsetAttr);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : fallback;
}

size_t onnxCaptureCount(const Node& node) {
  const AttrValue* v = node.attr(kOnnxCapturesAttr);
  if (!v || v->kind() != AttrValue::Kind::kInt || v->i() < 0) return 0;
  return std::min(static_cast<size_t>(v->i()), node.inputs.size());
}

std::vector<int> onnxFormalPositions(const Node& node) {
  std::vector<int> positions(node.inputs.size() - onnxCaptureCount(node));
  size_t found = 0;
  for (int position = 0; found < positions.size(); ++position)
    if (const int k = onnxInputIndex(node, position); k >= 0) positions[static_cast<size_t>(k)] = position, ++found;
  return positions;
}

int onnxInputIndex(const Node& node, int position) {
  int index = position;
  if (const AttrValue* v = node.attr(kOnnxAbsentInputsAttr); v && v->kind() == AttrValue::Kind::kList) {
    const std::vector<int64_t>& absent = v->list().i;
    for (size_t i = 0; i < absent.size(); ++i) {
      if (absent[i] == position) return -1;
      const bool repeated = std::find(absent.begin(), absent.begin() + static_cast<ptrdiff_t>(i), absent[i]) !=
                            absent.begin() + static_cast<ptrdiff_t>(i);
      if (absent[i] >= 0 && absent[i] < position && !repeated) --index;
    }
  }
  const size_t formal = node.inputs.size() - onnxCaptureCount(node);
  return index >= 0 && static_cast<size_t>(index) < formal ? index : -1;
}

}  // namespace flowscope
