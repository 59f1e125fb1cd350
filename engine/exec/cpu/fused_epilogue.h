// The "fused_ops" attribute of _FusedConv2D / _FusedMatMul / FusedDepthwiseConv2dNative, parsed once, and the
// C++ epilogue (per-channel scale/shift + activation) used where oneDNN post-ops do not apply.
#pragma once

#include <string>
#include <vector>

#include "exec/kernel.h"

namespace flowscope {

struct FusedSpec {
  bool bias = false;       ///< args[0] is a per-channel bias
  bool batchNorm = false;  ///< args are scale, offset, mean, variance (inference batch norm)
  bool prelu = false;      ///< tfjs Prelu: an extra per-channel alpha argument
  /// TensorFlow's Contraction+BiasAdd+Add fusion ("Add" after "BiasAdd" or "FusedBatchNorm"): a tensor of the
  /// output's shape, args[addendArg], is added before the activation.
  bool addend = false;
  size_t addendArg = 0;
  std::string activation;  ///< "", "Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid"
  float epsilon = 1e-4f;
  float leakyAlpha = 0.2f;
};

/// True when our own convolution kernels apply `spec` as they write their sums (conv_epilogue.h): a bias and an
/// addend, with no activation, ReLU or ReLU6.
inline bool ownConvEpilogueRuns(const FusedSpec& spec) {
  return !spec.batchNorm && !spec.prelu &&
         (spec.activation.empty() || spec.activation == "Relu" || spec.activation == "Relu6");
}

/// Parses fused_ops; an error for combinations Flowscope does not run.
Expected<FusedSpec> parseFusedOps(const Node& node);

/// The addend of a fused Add (spec.addend) from a node's inputs, checked against the output's shape and type; the
/// extra arguments start at inputs[firstArg].
Expected<const Tensor*> fusedAddend(const FusedSpec& spec, const std::vector<Tensor>& inputs, size_t firstArg,
                                    const Shape& outShape);

/// The output of a kernel that adds a fused Add's addend as it writes (oneDNN's sum post-op): a copy of the addend,
/// or the addend's own buffer when the kernel holds its only reference (it is the addend's last reader), as
/// TensorFlow forwards it; uninitialized without an addend.
Tensor outputStartingAs(const Shape& shape, const Tensor* addend);

/// Applies the epilogue in place to `out` (channels last). `args` are the node's extra inputs.
Status applyEpilogue(const FusedSpec& spec, const std::vector<Tensor>& args, size_t firstArg, Tensor& out,
                     bool skipBias);

/// Elementwise activation by name on floats, in place.
void applyActivation(const std::string& activation, float leakyAlpha, float* data, int64_t n);

}  // namespace flowscope
