// FLOP estimates.
#include "profile/flops.h"

namespace flowscope {

int64_t estimateFlops(const Node& node, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
  if (outputs.empty() || !outputs[0].isValid() || inputs.size() < 2) return 0;
  const std::string& op = node.op;
  const Shape& out = outputs[0].shape();
  if (op == "MatMul" || op == "_FusedMatMul") {
    const Shape& a = inputs[0].shape();
    if (a.rank() != 2 || out.rank() != 2) return 0;
    const AttrValue* ta = node.attr("transpose_a");
    int64_t k = ta && ta->b() ? a.dim(0) : a.dim(1);
    return 2 * out.numElements() * k;
  }
  if (op.find("BatchMatMul") == 0) {
    const Shape& a = inputs[0].shape();
    if (a.rank() < 2) return 0;
    const AttrValue* adj = node.attr("adj_x");
    int64_t k = adj && adj->b() ? a.dim(a.rank() - 2) : a.dim(a.rank() - 1);
    return 2 * out.numElements() * k;
  }
  if (op == "Conv2D" || op == "_FusedConv2D") {
    const Shape& f = inputs[1].shape();
    return f.rank() == 4 ? 2 * out.numElements() * f.dim(0) * f.dim(1) * f.dim(2) : 0;
  }
  if (op.find("DepthwiseConv2dNative") != std::string::npos) {
    const Shape& f = inputs[1].shape();
    return f.rank() == 4 ? 2 * out.numElements() * f.dim(0) * f.dim(1) : 0;
  }
  return 0;
}

int64_t tensorBytes(const std::vector<Tensor>& tensors) {
  int64_t bytes = 0;
  for (const auto& t : tensors)
    if (t.isValid()) bytes += static_cast<int64_t>(t.byteSize());
  return bytes;
}

}  // namespace flowscope
