// The NHWC nodes the ONNX channels-last pass (onnx_channels_last.cpp) puts in place of ONNX's NCHW convolutions and
// poolings: TensorFlow's fused convolutions and poolings, whose CPU kernels run oneDNN on channels-last data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope::onnx_nhwc {

/// A 1-D or 2-D ONNX convolution the pass can run in NHWC: float constant weights, explicit or no padding, one group
/// or one group per input channel (depthwise). A 1-D one runs as 2-D on [N, 1, W, C] (TensorFlow's conv1d does too).
struct ConvPlan {
  const Tensor* weights = nullptr;  ///< [M, C/group, kh, kw], or [M, C/group, kw] for 1-D
  bool oneD = false;
  const Tensor* bias = nullptr;  ///< [M] or null
  bool depthwise = false;
  int64_t group = 1;
  std::vector<int64_t> strides, dilations, pads;  ///< 2-D: pads top, left, bottom, right (1-D: top = bottom = 0)
};

/// The value of a constant `ref` names: a Const, an onnx::Constant's `value`, either through onnx::Identity; or null.
const Tensor* constantValue(const Graph& graph, const TensorRef& ref);

/// The plan for an onnx::Conv, or nothing when it does not qualify.
std::optional<ConvPlan> planConv(const Graph& graph, const Node& conv);

/// True when `bn` is an inference BatchNormalization (one output, constant float parameters of `channels` values);
/// then its scale and offset fold into the convolution's weights and bias.
bool foldableBatchNorm(const Graph& graph, const Node& bn, int64_t channels);

/// The TensorFlow activation an ONNX Relu or Clip becomes in a fused convolution ("Relu", "Relu6"), or "".
std::string fusedActivation(const Graph& graph, const Node& act);

/// The fused convolution named `name` for `conv` (its input read as NHWC): the plan's weights in HWIO (depthwise:
/// [kh, kw, group, multiplier]) with the batch norm `bn` (or null) folded in, bias and `activation` as oneDNN
/// post-ops; 3x3 stride-1 ones get `_winograd` (the CPU kernel then runs oneDNN's Winograd convolution where it
/// has one). Adds its weight and bias constants to `graph` and returns the node (not yet added).
Node makeFusedConv(Graph& graph, const Node& conv, const std::string& name, const ConvPlan& plan, const Node* bn,
                   const std::string& activation);

/// MaxPool / AvgPool (NHWC, explicit padding) for a 2-D onnx::MaxPool / AveragePool, or nothing when it does not
/// qualify (ceil_mode, dilations, auto_pad other than NOTSET/VALID, counted padding, an Indices output).
std::optional<Node> makePool(const Node& pool);
/// onnx::GlobalAveragePool of an NHWC value as Mean over H and W with keep_dims (its axes a Const added to `graph`):
/// the layout change after it then moves N x C values instead of the whole last feature map.
std::optional<Node> makeGlobalAveragePool(Graph& graph, const Node& pool);

/// Input 0 of `node` given a new axis of size 1 at `axis` (ExpandDims; adds the axis constant to `graph`), or
/// with the size-1 axis `axis` removed (Squeeze).
Node makeExpandDims(Graph& graph, const std::string& name, const TensorRef& input, int32_t axis,
                    const std::string& device);
Node makeSqueeze(const std::string& name, const TensorRef& input, int64_t axis, const std::string& device);
/// A Transpose of `input` by `perm` (adds the permutation constant to `graph`).
Node makeTranspose(Graph& graph, const std::string& name, const TensorRef& input, const std::vector<int32_t>& perm,
                   const std::string& device);

}  // namespace flowscope::onnx_nhwc
