// Fused-op parsing and the C++ epilogue.
#include "exec/cpu/fused_epilogue.h"

#include <cmath>

#include "exec/kernel_util.h"

namespace flowscope {

Expected<FusedSpec> parseFusedOps(const Node& node) {
  FusedSpec spec;
  spec.epsilon = attrFloat(node, "epsilon", 1e-4f);
  spec.leakyAlpha = attrFloat(node, "leakyrelu_alpha", 0.2f);
  const AttrValue* ops = node.attr("fused_ops");
  if (!ops || ops->kind() != AttrValue::Kind::kList) return spec;
  for (const std::string& op : ops->list().s) {
    if (op == "BiasAdd" || op == "Add")
      spec.bias = true;
    else if (op == "FusedBatchNorm")
      spec.batchNorm = true;
    else if (op == "Prelu")
      spec.prelu = true;
    else if (op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu" || op == "Tanh" || op == "Sigmoid")
      spec.activation = op;
    else
      return unimplemented(nodeLabel(node) + "fused op '" + op + "' is not supported");
  }
  return spec;
}

void applyActivation(const std::string& a, float alpha, float* d, int64_t n) {
  if (a.empty()) return;
  if (a == "Relu")
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] > 0 ? d[i] : 0;
  else if (a == "Relu6")
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] > 0 ? (d[i] < 6 ? d[i] : 6) : 0;
  else if (a == "Elu")
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] > 0 ? d[i] : std::expm1(d[i]);
  else if (a == "LeakyRelu")
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] > 0 ? d[i] : alpha * d[i];
  else if (a == "Tanh")
    for (int64_t i = 0; i < n; ++i) d[i] = std::tanh(d[i]);
  else if (a == "Sigmoid")
    for (int64_t i = 0; i < n; ++i) d[i] = 1.0f / (1.0f + std::exp(-d[i]));
}

Status applyEpilogue(const FusedSpec& spec, const std::vector<Tensor>& args, size_t first, Tensor& out, bool skipBias) {
  if (out.dtype() != DType::kFloat) return unimplemented("fused epilogue needs float32");
  const int64_t channels = out.shape().rank() ? out.shape().dims().back() : 1;
  const int64_t n = out.numElements();
  float* d = out.data<float>();
  auto channelVector = [&](size_t i) -> const float* {
    if (first + i >= args.size() || args[first + i].numElements() != channels ||
        args[first + i].dtype() != DType::kFloat)
      return nullptr;
    return args[first + i].data<float>();
  };
  if (spec.batchNorm) {
    const float *scale = channelVector(0), *offset = channelVector(1), *mean = channelVector(2),
                *var = channelVector(3);
    if (!scale || !offset || !mean || !var) return invalidArgument("fused batch norm needs 4 per-channel arguments");
    std::vector<float> a(static_cast<size_t>(channels)), b(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
      a[static_cast<size_t>(c)] = scale[c] / std::sqrt(var[c] + spec.epsilon);
      b[static_cast<size_t>(c)] = offset[c] - mean[c] * a[static_cast<size_t>(c)];
    }
    for (int64_t i = 0; i < n; ++i)
      d[i] = d[i] * a[static_cast<size_t>(i % channels)] + b[static_cast<size_t>(i % channels)];
  } else if (spec.bias && !skipBias) {
    const float* bias = channelVector(0);
    if (!bias) return invalidArgument("fused bias must have one value per output channel");
    for (int64_t i = 0; i < n; i += channels)
      for (int64_t c = 0; c < channels; ++c) d[i + c] += bias[c];
  }
  if (spec.prelu) {
    const float* alpha = channelVector(spec.bias || spec.batchNorm ? (spec.batchNorm ? 4 : 1) : 0);
    if (!alpha) return invalidArgument("Prelu needs one alpha per channel");
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] > 0 ? d[i] : alpha[i % channels] * d[i];
  }
  applyActivation(spec.activation, spec.leakyAlpha, d, n);
  return Status::ok();
}

}  // namespace flowscope
