// Which tools' op names may time which graph op types (PyTorch's aten operators against ONNX and TensorFlow ops).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <unordered_map>

#include "profile/profile_match.h"

namespace flowscope {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const std::unordered_map<std::string, std::set<std::string>>& atenTable() {
  static const std::unordered_map<std::string, std::set<std::string>> table = {
      {"conv2d", {"conv", "conv2d", "depthwiseconv2dnative", "_fusedconv2d", "fuseddepthwiseconv2dnative"}},
      {"convolution", {"conv", "conv2d", "depthwiseconv2dnative", "_fusedconv2d"}},
      {"linear", {"gemm", "matmul", "_fusedmatmul"}},
      {"addmm", {"gemm", "matmul", "_fusedmatmul"}},
      {"matmul", {"matmul", "gemm", "batchmatmulv2"}},
      {"mm", {"matmul", "gemm"}},
      {"hardtanh", {"clip", "relu6"}},
      {"relu6", {"clip", "relu6"}},
      {"clamp", {"clip", "relu6"}},
      {"relu", {"relu"}},
      {"add", {"add", "addv2", "sum"}},
      {"mul", {"mul"}},
      {"adaptive_avg_pool2d", {"globalaveragepool", "mean", "reducemean"}},
      {"mean", {"globalaveragepool", "mean", "reducemean"}},
      {"flatten", {"flatten", "reshape"}},
      {"view", {"reshape", "flatten"}},
      {"reshape", {"reshape", "flatten"}},
      {"batch_norm", {"batchnormalization", "fusedbatchnorm", "fusedbatchnormv3"}},
      {"max_pool2d", {"maxpool"}},
      {"avg_pool2d", {"averagepool", "avgpool"}},
      {"softmax", {"softmax"}},
      {"sigmoid", {"sigmoid"}},
      {"tanh", {"tanh"}},
      {"cat", {"concat", "concatv2"}},
      {"dropout", {"dropout"}},
  };
  return table;
}

}  // namespace

std::string baseOpType(const std::string& op) {
  return op.rfind("onnx::", 0) == 0 ? op.substr(6) : op;  // the ONNX loader names ops of the default domain so
}

bool opsCompatible(const std::string& eventOp, const std::string& nodeOp) {
  if (eventOp.empty()) return false;
  const std::string node = lower(baseOpType(nodeOp));
  std::string op = lower(baseOpType(eventOp));
  if (op == node) return true;
  if (op.rfind("aten::", 0) != 0) return false;
  op = op.substr(6);
  if (op.size() > 1 && op.back() == '_') op.pop_back();  // in-place variants: add_, relu_
  const auto& table = atenTable();
  auto it = table.find(op);
  return it == table.end() ? op == node : it->second.count(node) > 0;
}

}  // namespace flowscope
