// Fused-op parsing and the C++ epilogue.
#include "exec/cpu/fused_epilogue.h"

#include <algorithm>
#include <cmath>

#include "exec/cpu/fast_math.h"
#include "exec/kernel_util.h"

namespace flowscope {

Expected<FusedSpec> parseFusedOps(const Node& node) {
  FusedSpec spec;
  spec.epsilon = attrFloat(node, "epsilon", 1e-4f);
  spec.leakyAlpha = attrFloat(node, "leakyrelu_alpha", 0.2f);
  const AttrValue* ops = node.attr("fused_ops");
  if (!ops || ops->kind() != AttrValue::Kind::kList) return spec;
  for (const std::string& op : ops->list().s) {
    const bool add = op == "Add" || op == "AddV2";
    if (add && (!(spec.bias || spec.batchNorm) || spec.prelu || spec.addend || !spec.activation.empty()))
      return unimplemented(nodeLabel(node) + "a fused Add must follow BiasAdd or FusedBatchNorm, once");
    if (add) {
      spec.addend = true;
      spec.addendArg = spec.batchNorm ? 4 : 1;
    } else if (op == "BiasAdd") {
      spec.bias = true;
    } else if (op == "FusedBatchNorm") {
      spec.batchNorm = true;
    } else if (op == "Prelu" && !spec.addend) {
      spec.prelu = true;
    } else if (op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu" || op == "Tanh" || op == "Sigmoid") {
      spec.activation = op;
    } else {
      return unimplemented(nodeLabel(node) + "fused op '" + op + "' is not supported" +
                           (op == "Prelu" ? " after a fused Add" : ""));
    }
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
    for (int64_t i = 0; i < n; ++i) d[i] = tanhFloat(d[i]);
  else if (a == "Sigmoid")
    for (int64_t i = 0; i < n; ++i) d[i] = 1.0f / (1.0f + std::exp(-d[i]));
}

namespace {

// The per-channel parts of an epilogue, resolved once: out = act(prelu(out * scale + shift)).
struct ChannelEpilogue {
  std::vector<float> scale, shift;  // empty: none
  const float* preluAlpha = nullptr;
};

Expected<ChannelEpilogue> resolveEpilogue(const FusedSpec& spec, const std::vector<Tensor>& args, size_t first,
                                          int64_t channels, bool skipBias) {
  auto channelVector = [&](size_t i) -> const float* {
    if (first + i >= args.size() || args[first + i].numElements() != channels ||
        args[first + i].dtype() != DType::kFloat)
      return nullptr;
    return args[first + i].data<float>();
  };
  ChannelEpilogue e;
  const auto c = static_cast<size_t>(channels);
  if (spec.batchNorm) {
    const float *scale = channelVector(0), *offset = channelVector(1), *mean = channelVector(2),
                *var = channelVector(3);
    if (!scale || !offset || !mean || !var) return invalidArgument("fused batch norm needs 4 per-channel arguments");
    e.scale.resize(c);
    e.shift.resize(c);
    for (size_t k = 0; k < c; ++k) {
      e.scale[k] = scale[k] / std::sqrt(var[k] + spec.epsilon);
      e.shift[k] = offset[k] - mean[k] * e.scale[k];
    }
  } else if (spec.bias && !skipBias) {
    const float* bias = channelVector(0);
    if (!bias) return invalidArgument("fused bias must have one value per output channel");
    e.shift.assign(bias, bias + c);
  }
  if (spec.prelu) {
    e.preluAlpha = channelVector(spec.bias || spec.batchNorm ? (spec.batchNorm ? 4 : 1) : 0);
    if (!e.preluAlpha) return invalidArgument("Prelu needs one alpha per channel");
  }
  return e;
}

}  // namespace

Expected<const Tensor*> fusedAddend(const FusedSpec& spec, const std::vector<Tensor>& inputs, size_t firstArg,
                                    const Shape& outShape) {
  const size_t index = firstArg + spec.addendArg;
  if (index >= inputs.size()) return invalidArgument("the fused Add has no addend input");
  const Tensor& addend = inputs[index];
  if (addend.dtype() != DType::kFloat || addend.shape() != outShape)
    return invalidArgument("the fused Add's addend is " + std::string(dtypeName(addend.dtype())) +
                           addend.shape().toString() + ", expected float" + outShape.toString());
  return &addend;
}

Tensor outputStartingAs(const Shape& shape, const Tensor* addend) {
  if (!addend) return Tensor::uninitialized(DType::kFloat, shape);
  if (addend->ownsBufferAlone()) return *addend;
  Tensor out = Tensor::uninitialized(DType::kFloat, shape);
  std::copy_n(addend->data<float>(), shape.numElements(), out.data<float>());
  return out;
}

Status applyEpilogue(const FusedSpec& spec, const std::vector<Tensor>& args, size_t first, Tensor& out, bool skipBias) {
  if (out.dtype() != DType::kFloat) return unimplemented("fused epilogue needs float32");
  const int64_t channels = std::max<int64_t>(out.shape().rank() ? out.shape().dims().back() : 1, 1);
  FS_ASSIGN_OR_RETURN(ChannelEpilogue e, resolveEpilogue(spec, args, first, channels, skipBias));
  const float* addend = nullptr;
  if (spec.addend) {
    FS_ASSIGN_OR_RETURN(const Tensor* a, fusedAddend(spec, args, first, out.shape()));
    addend = a->data<float>();
  }
  float* d = out.data<float>();
  const int64_t rows = out.numElements() / channels;
  const int64_t cost = channels * (spec.activation.empty() || spec.activation.rfind("Relu", 0) == 0 ? 2 : 12);
  parallelFor(rows, cost, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      float* row = d + r * channels;
      if (!e.scale.empty())
        for (int64_t k = 0; k < channels; ++k) row[k] = row[k] * e.scale[static_cast<size_t>(k)];
      if (!e.shift.empty())
        for (int64_t k = 0; k < channels; ++k) row[k] += e.shift[static_cast<size_t>(k)];
      if (e.preluAlpha)
        for (int64_t k = 0; k < channels; ++k) row[k] = row[k] > 0 ? row[k] : e.preluAlpha[k] * row[k];
      if (addend)
        for (int64_t k = 0; k < channels; ++k) row[k] += addend[r * channels + k];
      applyActivation(spec.activation, spec.leakyAlpha, row, channels);
    }
  });
  return Status::ok();
}

}  // namespace flowscope
